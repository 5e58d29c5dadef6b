// Kiro's CLI: a standalone hook file and its agents' hooks, exit 2 refuses, no session id (docs/clients.md, Kiro).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { EventKind } from './event';
import { editOf, writeOf, type ToClaude } from './common';
import { clientRecord, type ClientRecord } from './record';
import { HOOK_TIMEOUT_S, type WiredFile } from './wiring';

/** The tools Kiro's CLI ships that cannot write or run anything. */
const READ_ONLY = ['fs_read', 'read', 'introspect', 'thinking'] as const;

const KIRO_AGENTS_DIR = '.kiro/agents';
/** The agent install adds (`kiro-cli chat --agent git-handoff`, or the default agent): every tool, the guard's hooks. */
const KIRO_AGENT_FILE = `${KIRO_AGENTS_DIR}/git-handoff.json`;

const EVENTS = { preToolUse: undefined };
const KINDS: Record<string, EventKind> = { preToolUse: 'pre-tool', postToolUse: 'post-tool', agentSpawn: 'session-start', stop: 'stop', PreToolUse: 'pre-tool', PostToolUse: 'post-tool', AgentSpawn: 'session-start', Stop: 'stop' };

/** CLI 3's standalone hook file, read for every agent of the workspace (the default agent included). */
const KIRO_HOOK_FILE = '.kiro/hooks/git-handoff.json';
/** Its one hook: the guard before every tool (`*`); the other CLI 3 triggers' payloads are not documented. */
const hookFile = (command: string) =>
  `${JSON.stringify({ version: 'v1', hooks: [{ name: 'git-handoff-guard', trigger: 'PreToolUse', matcher: '*', action: { type: 'command', command }, timeout: HOOK_TIMEOUT_S }] }, null, 2)}\n`;

/** Our entries in an agent file's `hooks`: every tool (`*`), answers never cached (a cached allow would skip the guard). */
const entries = (command: string) => ({ preToolUse: [{ matcher: '*', command, timeout_ms: HOOK_TIMEOUT_S * 1000, cache_ttl_seconds: 0 }] });

/** git-handoff's own agent, and its hooks in every agent the project already has (only the agent in use runs hooks). */
function files(command: string, worktree: string): WiredFile[] {
  let mine: string[] = [];
  try {
    mine = readdirSync(path.join(worktree, KIRO_AGENTS_DIR)).filter((f) => f.endsWith('.json') && `${KIRO_AGENTS_DIR}/${f}` !== KIRO_AGENT_FILE);
  } catch {
    /* no agents yet */
  }
  return [
    { file: KIRO_HOOK_FILE, text: hookFile(command) },
    { file: KIRO_AGENT_FILE, json: { at: ['hooks'], base: { name: 'git-handoff', description: "Kiro's default tools, with git-handoff's guard before each tool call", tools: ['*'] }, entries: entries(command) } },
    ...mine.map((f) => ({ file: `${KIRO_AGENTS_DIR}/${f}`, json: { at: ['hooks'], entries: entries(command) } })),
  ];
}

const TOOLS: Record<string, ToClaude> = {
  execute_bash: (a) => ({ tool: 'Bash', input: a }),
  fs_write: fsWrite,
  write: fsWrite,
};

/** fs_write's commands: a whole file created, or text replaced, inserted or appended. */
function fsWrite(a: Record<string, unknown>) {
  if (a.command === 'create') return writeOf(a.path, a.file_text);
  if (a.command === 'str_replace') return editOf(a);
  return editOf({ new_str: a.new_str ?? a.file_text }, a.path);
}

export const record: ClientRecord = clientRecord({
  name: 'kiro',
  home: { dir: '.kiro' },
  hookFiles: { project: [KIRO_HOOK_FILE, KIRO_AGENT_FILE] },
  // every agent file carries hooks, and CLI 3 and the IDE read every hooks file
  hookDirs: { project: [KIRO_AGENTS_DIR, '.kiro/hooks'], user: ['.kiro/agents', '.kiro/hooks'] },
  // its wiring's matcher `*` sends every tool: these are read as reads
  readOnly: READ_ONLY,
  mcpNames: '@<server>/<tool>',
  // no session id in any payload (session: none read): every Kiro call is a stranger's (SPEC 6)
  shape: { kinds: KINDS, tools: TOOLS, session: [], source: ['source'] },
  answer: { deny: 'exit' },
  guardLimit: 'no session id: every call is a stranger\'s',
  contextBeforeTool: false,
  probes: (cwd, command) => [['execute_bash', { hook_event_name: 'preToolUse', cwd, tool_name: 'execute_bash', tool_input: { command, summary: 'git-handoff doctor probe' } }]],
  wiring: { settings: KIRO_AGENT_FILE, events: EVENTS, timeoutMs: true, files },
});
