// GitHub Copilot CLI (observed with 1.0.102, ../shared/tools/copilot-offline): its native hooks in
// `.github/hooks/*.json` (`version: 1`, camelCase events, a `bash` command, `timeoutSec`) get camelCase payloads
// that name no event (`sessionId`, `cwd`, `toolName`, `toolArgs` as an object) and obey only a flat
// `{"permissionDecision":"deny"}`. It also runs a repository's `.claude/settings.json`, sending Claude Code's
// event and tool names with its own argument names (`Write {path, file_text}`, `Edit {path, old_str, new_str}`).
// Repository hooks run only in a trusted folder (skipped silently otherwise); its shell exports
// COPILOT_AGENT_SESSION_ID, its hooks get none.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { commonToolAction, obj, str, type ClientAdapter, type EventKind, type GuardEvent } from './event';
import { claudeArgs, KINDS, readShaped, renderClaudeLike } from './common';
import { type ClientRecord, clientRecord, type FrontFacts, PROBE_SESSION } from './record';
import { sessionVarOf } from './names';
import { HOOK_TIMEOUT_S, type Wiring } from './wiring';

/**
 * The tools Copilot CLI (1.0.102) ships that cannot write or run anything: reading, searching, a shell's output and
 * list, its docs, its agents' output and list, its intent and thinking, its todo list, the web, subagents. Its native
 * preToolUse gets every tool (no matcher), these too, and the guard reads them as reads; through the Claude Code
 * wiring it sends Claude Code's names (`view` as Read, `create` as Write) and its MCP tools as `<server>-<tool>`.
 */
const READ_ONLY = [
  'view', 'grep', 'glob', 'read_bash', 'list_bash', 'fetch_copilot_cli_documentation', 'read_agent', 'list_agents', 'report_intent', 'think', 'update_todo',
  'web_fetch', 'web_search', 'task',
] as const;

/** The hooks file `install --agent copilot` writes (whole: git-handoff's own). */
const COPILOT_HOOKS_FILE = '.github/hooks/git-handoff.json';

export const wiring: Wiring = {
  client: 'copilot',
  format: 'hooks-file',
  settings: COPILOT_HOOKS_FILE,
  // preToolUse's additionalContext reaches the model (Copilot's changelog; a refusal's reason always does), so a
  // tool call pays one hook process, as with Claude Code
  events: { sessionStart: undefined, preToolUse: undefined, agentStop: undefined, sessionEnd: undefined },
  // a hook's `bash` command runs as `/bin/bash --norc --noprofile -c <command>` (execve traces)
  bash: true,
  timeout: HOOK_TIMEOUT_S,
  named: false,
  // Copilot CLI reads AGENTS.md as its custom instructions, and a project's skills from .agents/skills (seen in its
  // system prompt with 1.0.102)
  notes: 'AGENTS.md',
  skills: '.agents/skills',
};

/** Copilot's tool names and argument names mapped onto Claude Code's (`create` is a Write, `str_replace` an Edit). */
const TOOLS: Record<string, string> = { bash: 'Bash', powershell: 'PowerShell', create: 'Write', edit: 'Edit', str_replace: 'Edit', apply_patch: 'apply_patch' };

/** What the sh front reads of Copilot CLI's native calls: camelCase keys, no event (a result makes it post-tool), a file tool's `path`. */
export const front: FrontFacts = {
  keys: { session: 'sessionId', tool: 'toolName', event: null, result: 'toolResult', input: 'toolArgs' },
  events: null,
  tools: { bash: 'command', create: 'create', edit: 'path', str_replace: 'path', apply_patch: 'patch' },
};

/** A native payload names no event: each event has its own fields (as observed with 1.0.102). */
function kindOf(p: Record<string, unknown>): { kind: EventKind; name: string } {
  if (p.toolName !== undefined) return p.toolResult !== undefined ? { kind: 'post-tool', name: 'postToolUse' } : { kind: 'pre-tool', name: 'preToolUse' };
  if (p.stopReason !== undefined || p.stop_hook_active !== undefined) return { kind: 'stop', name: 'agentStop' };
  if (p.initialPrompt !== undefined || (p.source !== undefined && p.reason === undefined)) return { kind: 'session-start', name: 'sessionStart' };
  if (p.reason !== undefined) return { kind: 'session-end', name: 'sessionEnd' };
  if (p.prompt !== undefined) return { kind: 'other', name: 'userPromptSubmitted' };
  return { kind: 'other', name: '' };
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

function parseCopilot(p: Record<string, unknown>): GuardEvent {
  const { kind, name } = kindOf(p);
  const cwd = str(p.cwd) ?? str(p.workingDirectory) ?? process.cwd();
  const native = str(p.toolName);
  const tool = native === null ? null : (Object.hasOwn(TOOLS, native) ? TOOLS[native] : native);
  const toolInput = claudeArgs(tool, argsOf(p.toolArgs));
  return {
    client: 'copilot',
    kind,
    name,
    session: str(p.sessionId),
    agentId: str(p.agentId),
    cwd,
    tool: native,
    action: commonToolAction(tool, toolInput, cwd),
    toolInput,
    source: str(p.source),
    stopHookActive: p.stop_hook_active === true,
  };
}

export const copilot: ClientAdapter = {
  client: 'copilot',
  parse: parseCopilot,
  render(e, d) {
    const out: Record<string, unknown> = {};
    if (e.kind === 'pre-tool') {
      // the flat shape: under a camelCase preToolUse hook Claude Code's hookSpecificOutput is ignored and the call runs
      if (d.deny !== undefined) Object.assign(out, { permissionDecision: 'deny', permissionDecisionReason: d.deny });
      else {
        if (d.updatedInput) out.modifiedArgs = d.updatedInput;
        if (d.context) out.additionalContext = d.context;
      }
    } else if (e.kind === 'stop') {
      if (d.followUp) Object.assign(out, { decision: 'block', reason: d.followUp });
    } else if (d.context && (e.kind === 'session-start' || e.kind === 'post-tool')) out.additionalContext = d.context;
    return Object.keys(out).length ? JSON.stringify(out) : null;
  },
};

/**
 * A payload Copilot CLI sent to a hook in Claude Code's format (the Claude Code wiring in `.claude/settings.json`):
 * a hook Copilot runs has COPILOT_CLI=1 in its environment, and its payloads carry an ISO `timestamp`, which
 * Claude Code's do not.
 */
export const isCopilotClaudePayload = (p: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): boolean =>
  env.COPILOT_CLI === '1' && typeof p.timestamp === 'string' && typeof p.hook_event_name === 'string' && /^[A-Z]/.test(p.hook_event_name);

/**
 * Copilot through the Claude Code wiring: Claude Code's events and tool names with Copilot's argument names; it obeys
 * Claude Code's hookSpecificOutput under PascalCase PreToolUse (refusal, updatedInput), but reads SessionStart's
 * context only flat (`additionalContext`: a nested one never reached the model, observed with 1.0.102).
 */
export const copilotClaude: ClientAdapter = {
  client: 'copilot',
  parse: (p) => readShaped('copilot', { kinds: KINDS }, p),
  render(e, d) {
    if (e.kind === 'session-start') return d.context ? JSON.stringify({ additionalContext: d.context }) : null;
    return renderClaudeLike(e, d);
  },
};

/**
 * Copilot runs a repository's `.claude/settings.json` as well as its own hooks: when git-handoff's native Copilot
 * wiring is there too, the Claude Code wiring stands aside for Copilot's calls, so each one is answered once.
 * COPILOT_PROJECT_DIR is the repository a hook Copilot runs belongs to.
 */
export function copilotAnswersNatively(e: GuardEvent, env: NodeJS.ProcessEnv = process.env): boolean {
  if (e.client !== 'copilot' || !/^[A-Z]/.test(e.name)) return false;
  return existsSync(path.join(env.COPILOT_PROJECT_DIR || e.cwd, COPILOT_HOOKS_FILE));
}

export const record: ClientRecord = clientRecord({
  name: 'copilot',
  agent: 'copilot',
  home: { variable: 'COPILOT_HOME', dir: '.copilot' },
  hookFiles: [
    { scope: 'project', file: COPILOT_HOOKS_FILE },
    { scope: 'user', file: '$COPILOT_HOME/config.json' },
  ],
  hookDirs: [
    { scope: 'project', file: '.github/hooks' },
    { scope: 'user', file: '$COPILOT_HOME/hooks' },
  ],
  // repository hooks (its own and .claude/settings.json) run only in a folder listed in trustedFolders
  trustFiles: [{ scope: 'user', file: '$COPILOT_HOME/config.json' }],
  readOnly: READ_ONLY,
  routing: 'every-tool',
  mcpNames: '<server>-<tool>',
  sessionVar: sessionVarOf('copilot'),
  shellSession: 'always',
  payload: 'native: sessionId, no hook_event_name, toolName, toolArgs (an object); through .claude/settings.json: COPILOT_CLI=1 and an ISO timestamp',
  readsClaude: 'always, in a trusted folder',
  block: 'natively the flat {"permissionDecision":"deny","permissionDecisionReason":…}; Claude Code\'s through .claude/settings.json',
  contextBeforeTool: true,
  probes: (cwd, command) => [['bash', { sessionId: PROBE_SESSION, timestamp: Date.now(), cwd, toolName: 'bash', toolArgs: { command } }]],
  adapter: copilot,
  wiring,
  front,
});
