// Fail closed where it matters: an internal error, a timeout or an unreadable input on a call that names what the
// guard protects denies; every other call fails open, so a broken guard never bricks a session.
import type { Decision, ToolAction } from '../clients/event';
import { NAMES_HOOK_FILE } from '../clients/hook-files';

/** Commands longer than this are not read: one naming protected things is refused, any other allowed. */
export const MAX_COMMAND = 256 * 1024;

// Handoff refs and files, git's directory, ref store and configuration (`.git`, `.gitconfig`, `git/config`),
// git-handoff's state, the git verbs the rules judge (any `git`), an interpreter running git-handoff, and expansions
// (which may name any of it); the clients' settings, hook and trust files (src/clients/hook-files.ts) beside them.
const PROTECTED_TEXT = /handoff|\.git|git\/config|refs\/|update-ref|symbolic-ref|packed-refs|fast-import|\bgit\b|git-|\$|`/;
/** A path that may be protected: a handoff file, git's directory or configuration, a client's settings, a home or a URI not read yet. */
const PROTECTED_PATH = /handoff|\.git|git\/config|memory|^~|\$\{?HOME|^file:/i;
const namesPath = (p: string) => PROTECTED_PATH.test(p) || NAMES_HOOK_FILE.test(p);
const namesText = (t: string) => PROTECTED_TEXT.test(t) || NAMES_HOOK_FILE.test(t);

/** Whether a tool call names anything the guard protects (decided on text only: it cannot fail). */
export function namesProtected(a: ToolAction): boolean {
  switch (a.type) {
    case 'shell':
      return namesText(a.command);
    case 'write':
    case 'edit':
      return namesPath(a.path);
    case 'patch':
      return a.patch.split(/\r?\n/).some((l) => /^\s*\*\*\* ((Add|Update|Delete) File|Move to):/.test(l) && namesPath(l.replace(/^\s*\*\*\* [^:]+:\s*/, '')));
    case 'paths':
      return a.paths.some(namesPath) || (a.commands ?? []).some(namesText);
    default:
      return false;
  }
}

/** The refusal when the guard could not decide a call that names protected things. */
export function failClosed(why: string): Decision {
  return {
    deny:
      `git-handoff's guard could not check this call (${why}), and it names what the guard protects (handoff refs or files, ` +
      `.git, or git commands it rules on), so it is refused rather than let through unchecked. ` +
      `Ways on: split it into shorter, plainer commands (no generated names), use \`git handoff …\` for handoffs, or ask the person.`,
  };
}

/** An internal error as one short line for a refusal or the log (no stack). */
export const errorLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').slice(0, 200);

/** Runs synchronous rule code under a real time limit: V8 interrupts it (even inside one regular expression) and it throws. */
export function bounded<T>(fn: () => T, ms: number): T {
  const { Script } = require('node:vm') as typeof import('node:vm');
  const g = globalThis as { __gitHandoffBounded?: () => T };
  g.__gitHandoffBounded = fn;
  try {
    return new Script('globalThis.__gitHandoffBounded()').runInThisContext({ timeout: Math.max(1, Math.floor(ms)) });
  } finally {
    delete g.__gitHandoffBounded;
  }
}
