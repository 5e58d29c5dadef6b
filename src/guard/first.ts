// The guard's first look, bundled into dist/first.cjs (loaded through a V8 code cache by dist/guard.cjs, the file
// `git-handoff guard` starts with): parse the payload, and answer a tool call that cannot concern handoffs, that
// writes this session's own handoff file (the file rule surely allows it) or that is one plain git command moving a
// protected ref (the ref rule surely refuses it) without loading the other rules, the store or anything that starts
// git. Whatever it cannot settle goes to the full guard in dist/fast.cjs with what it parsed and located (Seen).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { absent, recordIntents } from '../handoff/state/ledger';
import { isKnownSession } from '../handoff/state/lineage-record';
import { encodeBranch } from '../handoff/store/names';
import { handoffDir } from '../handoff/state/paths';
import { claimsMarker } from '../handoff/state/claims-marker';
import { SESSION_RE } from '../handoff/state/session';
import { answeredNatively, detectClient, namedClient } from '../clients/index';
import { MAX_FIRST_LOOK, surelyHarmless } from './allow';
import type { GuardEvent } from '../clients/event';
import { setting } from '../config-keys';
import { trustedRepository } from '../git/trust';
import { stripTerminalControls } from '../terminal-text';
import { configKey, locate, readConfigCache, walkUp, type Location } from './locate';
import { noteDenied } from './refused-record';
import { deferToPlugin } from '../clients/plugin-active';
import { refCommandProblem } from './rules/refs';
import { lineText, type SimpleCommand } from './shell/command';
import { gitInvocation } from './shell/git';
import { parseShell } from './shell/parse';
import type { Seen } from './context';
import { surelyOwnFile } from './rules/files';
import { fileOps } from './effect';

const TYPES: Record<string, string> = { hook_event_name: 'string', session_id: 'string', conversation_id: 'string', cwd: 'string', tool_name: 'string', tool_input: 'object' };

/** Fields of the wrong type or shape: logged, never fatal (the adapters read what they can). */
export function payloadProblems(p: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, t] of Object.entries(TYPES)) {
    const v = p[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== t || (t === 'object' && Array.isArray(v))) out.push(`${k} is ${Array.isArray(v) ? 'an array' : typeof v}, not ${t === 'object' ? 'an object' : 'a string'}`);
  }
  // Copilot CLI's native payloads name no event (its adapter tells the event by the fields there are); Cline's name it hookName
  if (typeof p.hook_event_name !== 'string' && typeof p.sessionId !== 'string' && typeof p.hookName !== 'string') out.push('no hook_event_name');
  const session = p.session_id ?? p.conversation_id ?? p.sessionId;
  if (typeof session === 'string' && !SESSION_RE.test(session)) out.push(`session id ${JSON.stringify(session.slice(0, 40))} is not valid`);
  const input = p.tool_input;
  if (input && typeof input === 'object' && 'command' in input && typeof (input as { command: unknown }).command !== 'string') out.push('tool_input.command is not a string');
  return out;
}

/**
 * What the first look decided: `answer` is what the client is told (null for nothing), absent when the full guard
 * must look, with `seen` for it. `use` names the full guard's code cache for the kind of call (src/load.ts); `tag`
 * the way the first look went (its own code cache is written again the first time a way is taken).
 */
export interface Look {
  answer?: string | null;
  use: string;
  tag: string;
  seen?: Seen;
}

const BAD: Look = { use: 'guard-bad', tag: 'bad' };

/**
 * The answer to a well-formed payload no rule can apply to (a tool call that cannot concern handoffs, an event the
 * guard does not handle), or only the file rule, surely allowing (this session's own handoff file), or only the
 * ref rule, surely refusing (one plain git command moving a protected ref). Anything else is the full guard's.
 */
export function firstLook(text: string, argv: string[] = process.argv, env: NodeJS.ProcessEnv = process.env): Look {
  let p: unknown;
  try {
    p = JSON.parse(text);
  } catch {
    return BAD;
  }
  if (!p || typeof p !== 'object' || Array.isArray(p)) return BAD;
  const payload = p as Record<string, unknown>;
  // the full guard logs what is wrong with it
  if (payloadProblems(payload).length) return BAD;
  const adapter = detectClient(payload, namedClient(argv));
  const event = adapter.parse(payload);
  // a client that runs the Claude Code wiring beside git-handoff's own native hooks is answered by those
  if (answeredNatively(event)) return { answer: null, use: 'guard', tag: 'native' };
  const seen: Seen = { payload, adapter, event };
  const action = event.kind === 'pre-tool' ? event.action : null;
  if (action?.type === 'shell') seen.cmds = firstParse(action.command, action.cwd ?? event.cwd);
  // a session this repository has not seen yet (its first sight may start lineage) is the full guard's: see recorded
  const harmless = event.kind === 'other' || (action !== null && surelyHarmless(action, seen.cmds));
  if ((harmless || ownFile(event)) && recorded(seen)) return { answer: adapter.render(event, {}), use: 'guard', tag: harmless ? 'harmless' : 'own' };
  // a raw move of a protected ref, decided on the line alone: the same refusal the full guard would give
  const refused = refRefusal(seen, argv, env);
  if (refused !== null) {
    noteDenied(located(seen)?.commonDir, event, refused);
    return { answer: adapter.render(event, { deny: refused }), use: 'guard', tag: 'refused' };
  }
  return { use: `guard-${event.kind}-${event.action.type}`, tag: 'full', seen };
}

/**
 * The shell line as the first look reads it; null past its bound (the full rules read it within theirs). The full
 * guard reads it so too when no first look ran (src/guard/entry.ts): the line is parsed once either way.
 */
export function firstParse(command: string, cwd: string): SimpleCommand[] | null {
  if (command.length > MAX_FIRST_LOOK) return null;
  try {
    return parseShell(command, cwd);
  } catch {
    return null; // a bound of the reader
  }
}

/** The repository of the event's cwd, looked for once per run (git's safe.directory rule applied). */
function located(seen: Seen): Location | null {
  if (seen.loc === undefined) {
    const found = walkUp(seen.event.cwd);
    seen.loc = found && trustedRepository(found.worktree, found.gitDir) ? found : null;
    seen.foreign = found !== null && seen.loc === null;
  }
  return seen.loc;
}

/** A Write, Edit or apply_patch of this session's own protected handoff file that the file rule surely allows (rules/files.ts). */
function ownFile(e: GuardEvent): boolean {
  if (e.kind !== 'pre-tool' || !e.session || !SESSION_RE.test(e.session)) return false;
  // a deletion or a move (an operation of neither kind) is the full guard's to judge
  const files = fileOps(e.action, e.cwd);
  return files.length > 0 && files.every((op) => surelyOwnFile(op, e.session!));
}

/** The full guard refreshes a session's lease once a minute (src/guard/lifecycle.ts); the last refresh, unix ms. */
export const LEASE_EVERY_MS = 60_000;

/**
 * Whether the bookkeeping of a call this file answers is done: nothing to record for it (no session, no
 * repository, a call that writes nothing), and neither a first sight nor a lease refresh due; for this session's
 * own handoff file, its intent is appended here. False: the full guard records (lifecycle.beforeTool).
 */
function recorded(seen: Seen): boolean {
  const e = seen.event;
  if (e.kind !== 'pre-tool' || !e.session || !SESSION_RE.test(e.session)) return true;
  const loc = located(seen);
  if (!loc) return true;
  if (e.agentId || !isKnownSession(loc.commonDir, e.session)) return false;
  let beat: number;
  try {
    beat = Number(readFileSync(path.join(handoffDir(loc.commonDir), 'guard', `${encodeBranch(e.session)}.beat`), 'utf8'));
  } catch {
    return false;
  }
  if (!(Date.now() - beat < LEASE_EVERY_MS)) return false;
  // a claim is live somewhere in this repository: a write is the full guard's to tell (SPEC 10)
  const files = fileOps(e.action, e.cwd);
  if (files.length && existsSync(claimsMarker(loc.commonDir))) return false;
  for (const { abs } of files) {
    const dir = path.dirname(abs);
    const l = dir === path.resolve(e.cwd) ? loc : locate(dir);
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
function refRefusal(seen: Seen, argv: string[] = process.argv, env: NodeJS.ProcessEnv = process.env): string | null {
  const e = seen.event;
  if (e.kind !== 'pre-tool' || e.action.type !== 'shell' || env.GIT_HANDOFF_BYPASS === '1') return null;
  if (!e.session || !SESSION_RE.test(e.session) || e.agentId) return null;
  const cmds = seen.cmds;
  if (!cmds) return null;
  const [cmd, ...rest] = cmds;
  if (!cmd || rest.length || cmd.redirects.length || cmd.xargs) return null;
  const inv = gitInvocation(cmd);
  const problem = inv ? refCommandProblem(inv, cmd, lineText(cmds), e.action.command, { line: e.action.command, cwd: e.action.cwd ?? e.cwd, cmds }) : null;
  if (problem === null) return null;
  const loc = located(seen);
  if (!loc || seen.foreign || !isKnownSession(loc.commonDir, e.session) || deferToPlugin(argv, e.client, e.cwd)) return null;
  const config = (seen.config = readConfigCache(loc, configKey(loc, env), env));
  if (!config || !setting(config, 'guard')) return null;
  return stripTerminalControls(problem);
}
