// GitHub Copilot CLI: native camelCase hooks in .github/hooks, and Claude Code's wiring with its own arguments (docs/clients.md, Copilot CLI).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { obj, str, type EventKind, type GuardEvent } from './event';
import { CLAUDE_ANSWER, claudeArgs, KINDS, type ToClaude } from './common';
import { adapterOf, type ClientRecord, clientRecord, PROBE_SESSION } from './record';
import { eachEvent, HOOK_TIMEOUT_S, payloadCommand } from './wiring';

/** The tools Copilot CLI (1.0.102) ships that cannot write or run anything (its native preToolUse gets every tool). */
const READ_ONLY = [
  'view', 'grep', 'glob', 'read_bash', 'list_bash', 'fetch_copilot_cli_documentation', 'read_agent', 'list_agents', 'report_intent', 'think', 'update_todo',
  'web_fetch', 'web_search', 'task',
] as const;

/** The hooks file `install --agent copilot` writes (whole: git-handoff's own). */
const COPILOT_HOOKS_FILE = '.github/hooks/git-handoff.json';

const EVENTS = { sessionStart: undefined, preToolUse: undefined, agentStop: undefined, sessionEnd: undefined };

/** Copilot's tool names onto Claude Code's (`create` is a Write, `str_replace` an Edit), with its argument names. */
const NAMES: Record<string, string> = { bash: 'Bash', powershell: 'PowerShell', create: 'Write', edit: 'Edit', str_replace: 'Edit', apply_patch: 'apply_patch' };
const TOOLS: Record<string, ToClaude> = Object.fromEntries(Object.entries(NAMES).map(([name, tool]) => [name, (a: Record<string, unknown>) => ({ tool, input: claudeArgs(tool, a) })]));

const NATIVE_KINDS: Record<string, EventKind> = { preToolUse: 'pre-tool', postToolUse: 'post-tool', agentStop: 'stop', sessionStart: 'session-start', sessionEnd: 'session-end' };

/** A native payload names no event: each event has its own fields (as observed with 1.0.102). */
function eventOf(p: Record<string, unknown>): string {
  if (p.toolName !== undefined) return p.toolResult !== undefined ? 'postToolUse' : 'preToolUse';
  if (p.stopReason !== undefined || p.stop_hook_active !== undefined) return 'agentStop';
  if (p.initialPrompt !== undefined || (p.source !== undefined && p.reason === undefined)) return 'sessionStart';
  if (p.reason !== undefined) return 'sessionEnd';
  return p.prompt !== undefined ? 'userPromptSubmitted' : '';
}

/** toolArgs is an object (1.0.102); an older Copilot sent a JSON string. */
function argsOf(v: unknown): Record<string, unknown> {
  if (typeof v !== 'string') return obj(v);
  try {
    return obj(JSON.parse(v));
  } catch {
    return {};
  }
}

/** A payload Copilot CLI sent through the Claude Code wiring: COPILOT_CLI=1 in the hook's environment, an ISO `timestamp`. */
const isCopilotClaudePayload = (p: Record<string, unknown>): boolean =>
  process.env.COPILOT_CLI === '1' && typeof p.timestamp === 'string' && typeof p.hook_event_name === 'string' && /^[A-Z]/.test(p.hook_event_name);

/** Copilot through the Claude Code wiring: Claude Code's answers, but SessionStart's context only flat. */
const copilotClaude = adapterOf({
  name: 'copilot',
  shape: { kinds: KINDS },
  answer: { ...CLAUDE_ANSWER, 'session-start': { additionalContext: '$context' } },
});

/** Where git-handoff's native Copilot wiring is in the repository (COPILOT_PROJECT_DIR), it answers Copilot's calls. */
export function copilotAnswersNatively(e: GuardEvent): boolean {
  if (e.client !== 'copilot' || !/^[A-Z]/.test(e.name)) return false;
  return existsSync(path.join(process.env.COPILOT_PROJECT_DIR || e.cwd, COPILOT_HOOKS_FILE));
}

export const record: ClientRecord = clientRecord({
  name: 'copilot',
  home: { variable: 'COPILOT_HOME', dir: '.copilot' },
  hookFiles: { project: [COPILOT_HOOKS_FILE], user: ['$COPILOT_HOME/config.json'] },
  hookDirs: { project: ['.github/hooks'], user: ['$COPILOT_HOME/hooks'] },
  // repository hooks (its own and .claude/settings.json) run only in a folder listed in trustedFolders
  trustFiles: { user: ['$COPILOT_HOME/config.json'] },
  readOnly: READ_ONLY,
  mcpNames: '<server>-<tool>',
  shellSession: 'always',
  readsClaude: 'always, in a trusted folder',
  rides: [{ wiring: 'claude-code', payload: isCopilotClaudePayload, adapter: copilotClaude }],
  shape: {
    kinds: NATIVE_KINDS,
    tools: TOOLS,
    session: ['sessionId'],
    tool: ['toolName'],
    source: ['source'],
    reshape: (p) => ({
      ...p,
      hook_event_name: eventOf(p),
      tool_input: argsOf(p.toolArgs),
      cwd: str(p.cwd) ?? p.workingDirectory,
      agent_id: p.agentId,
    }),
  },
  answer: {
    // the flat shape: under a camelCase preToolUse hook Claude Code's hookSpecificOutput is ignored and the call runs
    deny: { permissionDecision: 'deny', permissionDecisionReason: '$deny' },
    allow: { modifiedArgs: '$input?', additionalContext: '$context?' },
    'post-tool': { additionalContext: '$context' },
    'session-start': { additionalContext: '$context' },
    stop: { decision: 'block', reason: '$followUp' },
  },
  probes: (cwd, command) => [['bash', { sessionId: PROBE_SESSION, timestamp: Date.now(), cwd, toolName: 'bash', toolArgs: { command } }]],
  // git-handoff's own hooks file: preToolUse's additionalContext reaches the model, so a tool call pays one hook process
  wiring: {
    settings: COPILOT_HOOKS_FILE,
    events: EVENTS,
    // a hook's `bash` command runs as `/bin/bash --norc --noprofile -c <command>`
    bash: true,
    skills: '.agents/skills',
    files: (command) => {
      const entry = { type: 'command', bash: payloadCommand(command), timeoutSec: HOOK_TIMEOUT_S };
      return [{ file: COPILOT_HOOKS_FILE, json: { at: ['hooks'], base: { version: 1 }, entries: eachEvent(EVENTS, () => entry) } }];
    },
  },
  front: {
    keys: { session: 'sessionId', tool: 'toolName', event: null, result: 'toolResult', input: 'toolArgs' },
    events: null,
    tools: { bash: 'command', create: 'create', edit: 'path', str_replace: 'path', apply_patch: 'patch' },
  },
});
