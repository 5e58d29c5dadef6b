// Fail closed where it matters (issue 13): an internal error, a timeout or an unreadable input on a tool call that
// names what the guard protects denies; every other call still fails open, so a broken guard never bricks a session.
import type { Decision, ToolAction } from '../clients/event';

/** Commands longer than this are not read: one naming protected things is refused, any other allowed. */
export const MAX_COMMAND = 256 * 1024;

// Handoff refs and files, git's directory and ref store, git-handoff's state, the git verbs the rules judge (any
// `git`), an interpreter running git-handoff, and expansions (which may name any of it).
const PROTECTED_TEXT = /handoff|\.git|refs\/|update-ref|symbolic-ref|packed-refs|fast-import|\bgit\b|git-|\$|`/;

/** Whether a tool call names anything the guard protects (decided on text only: it cannot fail). */
export function namesProtected(a: ToolAction): boolean {
  switch (a.type) {
    case 'shell':
      return PROTECTED_TEXT.test(a.command);
    case 'write':
    case 'edit':
      return /handoff|\.git|memory/.test(a.path);
    case 'patch':
      return /^\s*\*\*\* (Add|Update|Delete) File:.*(handoff|\.git|memory)|^\s*\*\*\* Move to:.*(handoff|\.git|memory)/m.test(a.patch);
    case 'paths':
      return a.paths.some((p) => /handoff|\.git|memory/.test(p)) || (a.commands ?? []).some((c) => PROTECTED_TEXT.test(c));
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

/**
 * Runs synchronous rule code under a real time limit: V8 interrupts it (even inside one regular expression) and it
 * throws, which the caller turns into a refusal for a call naming protected things.
 */
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
