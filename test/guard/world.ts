// The world the fuzz and corpus tests run in: a repository with another session's handoff, commit and protected
// file; one shell payload per client shape; and what a well-formed answer looks like in each client's shape.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerParts } from '../../src/clients/answer';
import type { GuardClient } from '../../src/clients/event';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { ME, OTHER, payload, writeHandoff } from './helpers';

export { ME, OTHER };

export const FOREIGN_FILE = 'memory/handoff-main-auth-refactor.md';
export const OWN_FILE = 'memory/handoff-main-my-own-note.md';

/** HEAD is a commit of session OTHER; OTHER owns handoff auth-refactor and a protected file; ME owns another file. */
export async function foreignWorld(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  repo.commit(`their work\n\nClaude-Session-Id: ${OTHER}`, { 'b.txt': 'b\n' });
  await writeHandoff(repo, 'auth-refactor', 'their note', OTHER);
  repo.write(FOREIGN_FILE, `<!-- claude-session: ${OTHER} -->\ntheir note\n`);
  repo.write(OWN_FILE, `<!-- claude-session: ${ME} -->\nmy note\n`);
  mkdirSync(path.join(repo.dir, 'memory', 'scratch'));
  writeFileSync(path.join(repo.dir, 'memory', 'scratch', 'tmp.txt'), 'x');
  return repo;
}

/** A shell tool call of each client, as the fixture payloads have it, running `command`. */
export const SHELL_CLIENTS: Array<{ client: GuardClient; make: (repo: TestRepo, command: string) => Record<string, unknown> }> = [
  { client: 'claude-code', make: (repo, command) => withCommand(payload(repo, 'claude-code/pre-tool-use-bash.json'), command) },
  { client: 'gemini-cli', make: (repo, command) => withCommand(payload(repo, 'gemini-cli/before-tool-shell.json'), command) },
  { client: 'codex', make: (repo, command) => withCommand(payload(repo, 'codex/pre-tool-use-bash.json'), command) },
  { client: 'cursor', make: (repo, command) => ({ ...payload(repo, 'cursor/before-shell-execution.json'), command }) },
  // Copilot CLI's native hooks (told apart by sessionId; Qwen Code and the OpenCode plugin are told apart only by --client)
  { client: 'copilot', make: (repo, command) => ({ ...payload(repo, 'copilot/real-pre-tool-use-bash.json', { sessionId: ME }, null), toolArgs: { command, description: 'run' } }) },
  // VS Code's agent through the Claude Code wiring (told apart by its ISO timestamp and no permission_mode)
  { client: 'vscode', make: (repo, command) => withCommand(payload(repo, 'vscode/pre-tool-use-run-in-terminal.json'), command) },
];

function withCommand(p: Record<string, unknown>, command: string) {
  return { ...p, tool_input: { ...(p.tool_input as object), command } };
}

type Shape = Record<string, (v: unknown) => boolean>;
const isStr = (v: unknown) => typeof v === 'string';
const isObj = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);

const CLAUDE_INNER: Shape = {
  hookEventName: isStr,
  permissionDecision: (v) => v === 'deny' || v === 'allow',
  permissionDecisionReason: isStr,
  updatedInput: isObj,
  additionalContext: isStr,
};
const SHAPES: Record<GuardClient, Shape> = {
  'claude-code': { hookSpecificOutput: (v) => isObj(v) && fits(v as Record<string, unknown>, CLAUDE_INNER), decision: (v) => v === 'block', reason: isStr, systemMessage: isStr },
  codex: { hookSpecificOutput: (v) => isObj(v) && fits(v as Record<string, unknown>, CLAUDE_INNER), decision: (v) => v === 'block', reason: isStr, systemMessage: isStr },
  'gemini-cli': {
    decision: (v) => v === 'deny',
    reason: isStr,
    systemMessage: isStr,
    hookSpecificOutput: (v) => isObj(v) && fits(v as Record<string, unknown>, { hookEventName: isStr, tool_input: isObj, additionalContext: isStr }),
  },
  cursor: { permission: (v) => v === 'deny' || v === 'allow', user_message: isStr, agent_message: isStr, followup_message: isStr, additional_context: isStr },
  copilot: { permissionDecision: (v) => v === 'deny', permissionDecisionReason: isStr, modifiedArgs: isObj, additionalContext: isStr, decision: (v) => v === 'block', reason: isStr },
  'qwen-code': { hookSpecificOutput: (v) => isObj(v) && fits(v as Record<string, unknown>, CLAUDE_INNER), decision: (v) => v === 'block', reason: isStr, systemMessage: isStr },
  opencode: { deny: isStr, args: isObj, context: isStr, followUp: isStr },
  // VS Code's agent: Claude Code's answers, a Stop's decision inside hookSpecificOutput too
  vscode: {
    hookSpecificOutput: (v) => isObj(v) && fits(v as Record<string, unknown>, { ...CLAUDE_INNER, decision: (x) => x === 'block', reason: isStr }),
    decision: (v) => v === 'block',
    reason: isStr,
    systemMessage: isStr,
  },
  // the clients of issue 56: droid, Augment and Devin CLI read Claude Code's answers (a refusal by exit 2 for the last
  // two, with nothing on stdout), Windsurf and Kiro only the exit status (any stdout is wrong), Cline its own shape,
  // Crush a context, Kilo Code the plugin's answer
  'factory-droid': { hookSpecificOutput: (v) => isObj(v) && fits(v as Record<string, unknown>, CLAUDE_INNER), decision: (v) => v === 'block', reason: isStr, systemMessage: isStr },
  augment: { hookSpecificOutput: (v) => isObj(v) && fits(v as Record<string, unknown>, CLAUDE_INNER), decision: (v) => v === 'block', reason: isStr, systemMessage: isStr },
  'devin-cli': { hookSpecificOutput: (v) => isObj(v) && fits(v as Record<string, unknown>, CLAUDE_INNER), decision: (v) => v === 'block', reason: isStr, systemMessage: isStr },
  windsurf: {},
  kiro: {},
  cline: { cancel: (v) => v === true, errorMessage: isStr, contextModification: isStr },
  crush: { context: isStr },
  'kilo-code': { deny: isStr, args: isObj, context: isStr, followUp: isStr },
};

function fits(o: Record<string, unknown>, shape: Shape): boolean {
  const keys = Object.keys(o);
  return keys.length > 0 && keys.every((k) => Object.hasOwn(shape, k) && shape[k](o[k]));
}

/** Why `stdout` is not nothing or one well-formed answer in `client`'s shape, or null when it is. */
export function malformed(client: GuardClient, stdout: string, kind?: string): string | null {
  const text = stdout.trim();
  if (text === '') return null;
  // Claude Code reads a PreCompact answer as plain text (added to the compaction's instructions), not JSON
  if (client === 'claude-code' && kind === 'pre-compact') return /[\x00-\x08\x0b-\x1f\x7f]/.test(text) ? `control characters: ${JSON.stringify(text.slice(0, 200))}` : null;
  if (text.includes('\n')) return `more than one line: ${text.slice(0, 200)}`;
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  if (!isObj(o) || !fits(o as Record<string, unknown>, SHAPES[client])) return `not a ${client} answer: ${text.slice(0, 300)}`;
  return null;
}

/** What an answer says: deny, allow (silent, or with a rewrite or context). */
export function verdict(stdout: string): 'deny' | 'allow' {
  // an answer rendered as an exit status (src/clients/answer.ts): exit 2 refuses
  const { stdout: out, code } = answerParts(stdout);
  if (code === 2) return 'deny';
  const text = out.trim();
  if (!text) return 'allow';
  const a = JSON.parse(text);
  const denied = a.hookSpecificOutput?.permissionDecision === 'deny' || a.decision === 'deny' || a.decision === 'block' || a.permission === 'deny' || a.permissionDecision === 'deny' || typeof a.deny === 'string' || a.cancel === true;
  return denied ? 'deny' : 'allow';
}

/** Text a client must never be shown: a stack trace or an internal error. */
export const LEAK = /\n\s+at \S|internal error|TypeError|RangeError|ReferenceError|SyntaxError|Cannot read propert|undefined is not/;
