// The guard's first look, bundled alone into dist/guard.cjs (the file `git-handoff guard` loads first): read the
// payload, parse it, and answer a tool call that cannot concern handoffs (or that writes this session's own handoff
// file, which the file rule surely allows) without loading the other rules, the store or anything that starts git. Whatever it cannot settle (and any surprise) goes to the full guard in dist/fast.cjs.
import { readFileSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { absent, recordIntents } from '../handoff/state/ledger';
import { isKnownSession } from '../handoff/state/lineage-record';
import { encodeBranch } from '../handoff/store/names';
import { handoffDir } from '../handoff/state/paths';
import { SESSION_RE } from '../handoff/state/session';
import { copilotAnswersNatively } from '../clients/copilot';
import { detectClient } from '../clients/index';
import { surelyHarmless } from './allow';
import type { GuardEvent, ToolAction } from './event';
import { configValue } from '../git/config';
import { stripTerminalControls } from '../terminal-text';
import { configKey, locate, readConfigCache, untrusted } from './locate';
import { deferToPlugin } from './plugin-active';
import { refCommandProblem } from './rules/refs';
import { gitInvocation, lineText, parseShell, type SimpleCommand } from './shell';
import { parsePatch, surelyOwnFile } from './rules/files';

/** Payloads larger than this are refused as bad input (a handoff body is at most 1 MiB). */
export const MAX_PAYLOAD = 4 * 1024 * 1024;

/** Stdin read so far: kept chunks (up to the limit), the total size, whether it ended. */
export interface StdinState {
  chunks: Buffer[];
  size: number;
  done: boolean;
}

export const stdinState = (): StdinState => ({ chunks: [], size: 0, done: false });

/** Adds one read to the state; over `limit` bytes the rest is drained, not kept. */
export function take(s: StdinState, buf: Buffer, n: number, limit: number): void {
  if (n === 0) s.done = true;
  s.size += n;
  if (n > 0 && s.size <= limit) s.chunks.push(Buffer.from(buf.subarray(0, n)));
}

/** The payload, or null when it is larger than `limit`. */
export const payloadOf = (s: StdinState, limit: number): Buffer | null => (s.size > limit ? null : Buffer.concat(s.chunks));

/**
 * Reads fd 0 synchronously (no stream machinery, no thread pool). Stops early, with `done` false, when fd 0 is
 * non-blocking and has nothing yet (EAGAIN): the caller then goes on reading asynchronously.
 */
export function readStdinSync(s: StdinState, limit: number): StdinState {
  const buf = Buffer.allocUnsafe(1 << 16);
  while (!s.done) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') return s;
      n = 0; // EOF (Windows pipes), EBADF (no stdin): what was read is the payload
    }
    take(s, buf, n, limit);
  }
  return s;
}

const TYPES: Record<string, string> = { hook_event_name: 'string', session_id: 'string', conversation_id: 'string', cwd: 'string', tool_name: 'string', tool_input: 'object' };

/** Fields of the wrong type or shape: logged, never fatal (the adapters read what they can). */
export function payloadProblems(p: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, t] of Object.entries(TYPES)) {
    const v = p[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== t || (t === 'object' && Array.isArray(v))) out.push(`${k} is ${Array.isArray(v) ? 'an array' : typeof v}, not ${t === 'object' ? 'an object' : 'a string'}`);
  }
  if (typeof p.hook_event_name !== 'string') out.push('no hook_event_name');
  const session = p.session_id ?? p.conversation_id;
  if (typeof session === 'string' && !SESSION_RE.test(session)) out.push(`session id ${JSON.stringify(session.slice(0, 40))} is not valid`);
  const input = p.tool_input;
  if (input && typeof input === 'object' && 'command' in input && typeof (input as { command: unknown }).command !== 'string') out.push('tool_input.command is not a string');
  return out;
}

/**
 * Writes the guard's answer to fd 1 whole, with fs.writeSync: process.stdout on a pipe (how every client reads a
 * hook) loads node's stream and socket modules, a few ms each run. A pipe set non-blocking is waited on; a closed
 * one ends the write (never a throw).
 */
export function writeOut(text: string): void {
  const buf = Buffer.from(text, 'utf8');
  for (let off = 0, tries = 0; off < buf.length; ) {
    try {
      off += writeSync(1, buf, off);
    } catch (e) {
      // a client that stopped reading (EPIPE) gets nothing more; the guard never fails for it
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || ++tries > 5000) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

/**
 * The answer to a well-formed payload no rule can apply to (a tool call that cannot concern handoffs, an event
 * the guard does not handle) or only the file rule, surely allowing (this session's own handoff file): `answer` is what the client is told, null for nothing; without an answer the full
 * guard must look. `use` names the kind of call.
 */
export function firstLook(raw: Buffer): { answer?: string | null; use: string } {
  let p: unknown;
  try {
    p = JSON.parse(raw.toString('utf8'));
  } catch {
    return { use: 'guard-bad' };
  }
  if (!p || typeof p !== 'object' || Array.isArray(p)) return { use: 'guard-bad' };
  const payload = p as Record<string, unknown>;
  if (payloadProblems(payload).length) return { use: 'guard-bad' };
  const adapter = detectClient(payload);
  const event = adapter.parse(payload);
  // Copilot CLI runs the Claude Code wiring too: with git-handoff's native Copilot hooks there, those answer it
  if (copilotAnswersNatively(event)) return { answer: null, use: 'guard' };
  // a session this repository has not seen yet (its first sight may start lineage) is the full guard's: see recorded
  if ((noRuleApplies(event) || ownFile(event)) && recorded(event)) return { answer: adapter.render(event, {}), use: 'guard' };
  // a raw move of a protected ref, decided on the line alone: the same refusal the full guard would give
  const refused = refRefusal(event);
  if (refused !== null) return { answer: adapter.render(event, { deny: refused }), use: 'guard' };
  // the full guard's code cache for this kind of call (see src/load.ts)
  return { use: `guard-${event.kind}-${event.action.type}` };
}

/** An event no rule looks at: an event kind the guard does not handle, or a tool call that cannot concern handoffs. */
export const noRuleApplies = (e: GuardEvent): boolean => e.kind === 'other' || (e.kind === 'pre-tool' && surelyHarmless(e.action));

/** A Write, Edit or apply_patch of this session's own protected handoff file that the file rule surely allows (rules/files.ts). */
function ownFile(e: GuardEvent): boolean {
  if (e.kind !== 'pre-tool' || !e.session || !SESSION_RE.test(e.session)) return false;
  const files = fileActions(e.action);
  return files.length > 0 && files.every((a) => surelyOwnFile(a, e.cwd, e.session!));
}

/** A tool call as the file operations the full guard judges (a patch as rules/pre-tool.ts reads it); [] for others. */
function fileActions(a: ToolAction): ToolAction[] {
  if (a.type === 'write' || a.type === 'edit') return [a];
  if (a.type !== 'patch') return [];
  const files = parsePatch(a.patch);
  // a deletion or a move is the full guard's to judge
  if (files.some((f) => f.op === 'delete' || f.moveTo !== undefined)) return [];
  return files.map((f) =>
    f.op === 'add' ? { type: 'write', path: f.path, content: f.added.join('\n') } : { type: 'edit', path: f.path, edits: [{ oldText: f.removed.join('\n'), newText: f.added.join('\n') }] },
  );
}

/** The full guard refreshes a session's lease once a minute (src/guard/lifecycle.ts); the last refresh, unix ms. */
export const LEASE_EVERY_MS = 60_000;

/**
 * Whether the bookkeeping of a call this file answers is done: nothing to record for it (no session, no
 * repository, a call that writes nothing), and neither a first sight nor a lease refresh due; for this session's
 * own handoff file, its intent is appended here. False: the full guard records (lifecycle.beforeTool).
 */
function recorded(e: GuardEvent): boolean {
  if (e.kind !== 'pre-tool' || !e.session || !SESSION_RE.test(e.session)) return true;
  const loc = locate(e.cwd);
  if (!loc) return true;
  if (e.agentId || !isKnownSession(loc.commonDir, e.session)) return false;
  let beat: number;
  try {
    beat = Number(readFileSync(path.join(handoffDir(loc.commonDir), 'guard', `${encodeBranch(e.session)}.beat`), 'utf8'));
  } catch {
    return false;
  }
  if (!(Date.now() - beat < LEASE_EVERY_MS)) return false;
  for (const a of fileActions(e.action)) {
    if (a.type !== 'write' && a.type !== 'edit') continue;
    const abs = path.resolve(e.cwd, a.path);
    const l = locate(path.dirname(abs));
    if (!l) return false;
    const rel = path.relative(l.worktree, abs).split(path.sep).join('/');
    recordIntents(l.commonDir, e.session, l.worktree, [rel], absent(abs) ? [rel] : []);
  }
  return true;
}

/**
 * The refusal of one plain git command that moves a protected ref (`git update-ref -d refs/handoffs/…`): the rule
 * (rules/refs.ts) reads only the command, so it is given here, with no full guard to load, where nothing else could
 * change the answer — a known session, the guard on by the configuration cache this user's guard wrote, no bypass,
 * no plugin beside the wiring, one command with no redirection. Null: the full guard decides.
 */
export function refRefusal(e: GuardEvent, argv: string[] = process.argv, env: NodeJS.ProcessEnv = process.env): string | null {
  if (e.kind !== 'pre-tool' || e.action.type !== 'shell' || e.action.command.length > 16 * 1024 || env.GIT_HANDOFF_BYPASS === '1') return null;
  if (!e.session || !SESSION_RE.test(e.session) || e.agentId) return null;
  let cmds: SimpleCommand[];
  try {
    cmds = parseShell(e.action.command, e.action.cwd ?? e.cwd);
  } catch {
    return null;
  }
  const [cmd, ...rest] = cmds;
  if (!cmd || rest.length || cmd.redirects.length || cmd.xargs) return null;
  const inv = gitInvocation(cmd);
  const problem = inv ? refCommandProblem(inv, cmd, lineText(cmds), e.action.command) : null;
  if (problem === null) return null;
  const loc = locate(e.cwd);
  if (!loc || untrusted(e.cwd) || !isKnownSession(loc.commonDir, e.session) || deferToPlugin(argv, e.client, e.cwd)) return null;
  const config = readConfigCache(loc, configKey(loc, env), env);
  const off = config ? configValue(config, 'handoff.guard') : undefined;
  if (!config || (off !== undefined && /^(off|false|no|0)$/i.test(off.trim()))) return null;
  return stripTerminalControls(problem);
}
