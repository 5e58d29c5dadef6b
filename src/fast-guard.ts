// dist/guard.cjs, the file `git-handoff guard` starts with (a few KB): it reads the payload and loads the first look
// (dist/first.cjs) through a V8 code cache, one per kind of payload chosen by a glance at its text. What the first
// look cannot answer goes to the full guard (dist/fast.cjs) with what it parsed and located.
import type { Look } from './guard/first';
import { MAX_PAYLOAD, readStdinText, writeAnswer } from './guard/io';
import { loadBundle } from './load';
import { trace } from './trace';

/**
 * Git commands that write the worktree, the index or a branch and name no ref to move: the first look never answers
 * one, so a shell line starting with one goes to the full guard at once, without first.cjs to load and run. Only a
 * glance: the full guard reads the payload as if no first look had run.
 */
const FULL_GIT = new Set(['commit', 'add', 'rm', 'mv', 'checkout', 'switch', 'restore', 'merge', 'rebase', 'reset', 'stash', 'cherry-pick', 'revert', 'pull', 'apply', 'am', 'clean']);

/** A session's start, in every client's spelling of the event: the first look never answers one either. */
const SESSION_START = /"(?:hook_event_name|hookName)"\s*:\s*"sessionStart"/i;

/** Where a payload goes: 'full' (a git command of FULL_GIT), 'start', else the first look's cache for its kind. */
function kindOf(text: string | null): string {
  if (text === null) return 'first-bad';
  if (SESSION_START.test(text)) return 'start';
  const m = /"command"\s*:\s*"(\s*git\s+([a-z-]*)([\s"]?))?/.exec(text);
  if (!m) return 'first-other';
  if (m[1] === undefined) return 'first-shell';
  return m[3] && FULL_GIT.has(m[2]) ? 'full' : 'first-git';
}

/** The full guard, through the code cache of `use`; `seen`: what the first look parsed and located. */
const full = (use: string, seen?: Look['seen']): void => (loadBundle(__dirname, 'fast.cjs', use) as typeof import('./fast')).guard(stdin, seen);

trace('guard.cjs ready');
const { stdin, text } = readStdinText(MAX_PAYLOAD);
trace('stdin read');
const kind = kindOf(text);
if (kind === 'full') full('guard-git');
else if (kind === 'start') full('guard-start');
else {
  const first = loadBundle(__dirname, 'first.cjs', kind) as typeof import('./guard/first');
  let look: Look = { use: 'guard-bad', tag: 'bad' };
  try {
    if (text !== null) look = first.firstLook(text);
  } catch {
    look = { use: 'guard-bad', tag: 'bad' }; // the full guard looks again, and logs what went wrong
  }
  trace('first look', look.answer === undefined ? `handed over (${look.use})` : `decided (${look.tag})`);
  if (look.answer === undefined) full(look.use, look.seen);
  else {
    if (look.answer !== null) writeAnswer(look.answer);
    trace('answered');
    // what the answer leaves is written after it; then exit skips node's teardown (about 1 ms of every such call)
    look.after?.();
    process.exit();
  }
}
