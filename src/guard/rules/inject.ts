// `git handoff …` from an agent's shell: the session id is added when the shell would not know it, and a
// write that names another session's id is refused (reading as another session is always allowed).
import path from 'node:path';
import { SESSION_ID_VARS } from '../../clients/names';
import { short } from '../../handoff/state/session';
import type { GuardEvent } from '../../clients/event';
import { RECORDS } from '../../clients/records';
import type { SimpleCommand } from '../shell/command';
import type { GitInvocation } from '../shell/git';

const NEEDS_SESSION = new Set(['write', 'archive', 'restore', 'import', 'release', 'sync']);
/** Commands that write as the session they name (`--session`, a session variable) or as the person (`--person`). */
const WRITES_AS = new Set([...NEEDS_SESSION, 'edit', 'drop', 'redact', 'rename-branch', 'claim']);

export const isHandoffCommand = (inv: GitInvocation | null) => inv?.sub === 'handoff';

/** The command a `git handoff` run names (after `-C <dir>` and other options) and its arguments without it. */
export function handoffCommand(args: string[]): { sub: string | undefined; rest: string[] } {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-C') i++;
    else if (!args[i].startsWith('-')) return { sub: args[i], rest: [...args.slice(0, i), ...args.slice(i + 1)] };
  }
  return { sub: undefined, rest: args };
}

/** The session a `git handoff` run names itself, by its words (`--session`) or a variable given to it (GIT_HANDOFF_SESSION=…), or null. */
export function namedSession(args: string[], assigns: Record<string, string>): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--session') return args[i + 1] ?? '';
    if (a.startsWith('--session=')) return a.slice(10);
  }
  // Any variable git handoff resolves a session from (SPEC 3) can name one.
  for (const v of SESSION_ID_VARS) if (assigns[v] !== undefined) return assigns[v];
  return null;
}

export function needsSession(inv: GitInvocation): boolean {
  const { sub } = handoffCommand(inv.args);
  return (sub !== undefined && NEEDS_SESSION.has(sub)) || (sub === 'list' && inv.args.includes('--mine'));
}

/** Whether the client's shell already exports this session id (src/clients/record.ts shellSession). */
function shellKnowsSession(e: GuardEvent, session: string, env: NodeJS.ProcessEnv): boolean {
  if (env.GIT_HANDOFF_SESSION === session) return true;
  // the client's record says whether its shell has the session (src/clients/record.ts shellSession)
  const r = RECORDS[e.client];
  return r.shellSession === 'always' || (r.shellSession === 'as-hook' && r.sessionVar !== null && env[r.sessionVar] === session);
}

/** git verbs that make commits or move refs, so run git's hooks: from a shell that does not know the session, a person's */
const HOOKED = new Set([
  ...['commit', 'merge', 'cherry-pick', 'revert', 'rebase', 'am', 'pull', 'push', 'reset', 'branch', 'tag', 'checkout', 'switch', 'stash'],
  'update-ref',
]);

/** A commit or ref move from a shell without the session, in a client that runs a rewrite as it is: the session is added. */
export const commitNeedsSession = (inv: GitInvocation, e: GuardEvent, session: string, env: NodeJS.ProcessEnv): boolean =>
  HOOKED.has(inv.sub) && RECORDS[e.client].runsAnyRewrite === true && !shellKnowsSession(e, session, env);

type InjectVerdict = { kind: 'ok' } | { kind: 'inject' } | { kind: 'deny'; reason: string };

export function judgeHandoffCommand(inv: GitInvocation, cmd: SimpleCommand, e: GuardEvent, session: string, env: NodeJS.ProcessEnv): InjectVerdict {
  const { sub } = handoffCommand(inv.args);
  if (e.agentId && (inv.args.includes('--take-over') || sub === 'release')) {
    return {
      kind: 'deny',
      reason:
        `subagent ${e.agentId} acts under its parent session ${short(session)}: it can neither take over a handoff nor release the worktree. ` +
        `Report back to the parent session, which decides.`,
    };
  }
  const named = namedSession(inv.args, cmd.assigns);
  // Reading as another session harms no one (list, show, log, boot, sessions, doctor…): only a write would impersonate.
  if (sub !== undefined && WRITES_AS.has(sub) && inv.args.includes('--person')) {
    return {
      kind: 'deny',
      reason:
        `\`git handoff ${sub} --person\` acts as the person (person:<user.email>), but you are session ${session}. A session writes only as itself: ` +
        `drop --person (the guard supplies your session), or ask the person to run it from their own terminal.`,
    };
  }
  if (named !== null && named !== session && sub !== undefined && WRITES_AS.has(sub)) {
    return {
      kind: 'deny',
      reason:
        `this git handoff command names session ${short(named, [session]) || '(empty)'}, but you are session ${session}. A session writes only as itself; ` +
        `drop --session / GIT_HANDOFF_SESSION (the guard supplies yours), or take a handoff over on the record with --take-over --reason "<why>".`,
    };
  }
  if (named !== null || !needsSession(inv) || shellKnowsSession(e, session, env)) return { kind: 'ok' };
  return { kind: 'inject' };
}

/** git-handoff's own variables a session's command may set: its own id (checked below), its client, its role, debug output. */
const SESSION_SETS = new Set(['GIT_HANDOFF_SESSION', 'GIT_HANDOFF_CLIENT', 'GIT_HANDOFF_ROLE', 'GIT_HANDOFF_DEBUG']);

/**
 * Why variables a command line sets switch git-handoff's own checks (the person's) or, where `runs` (a command that
 * is no `git handoff`), name another session's id in a variable the hooks read a session from; or null.
 */
export function productVariableProblem(vars: Record<string, string>, session: string | null, runs: boolean): string | null {
  for (const [name, value] of Object.entries(vars)) {
    if (name.startsWith('GIT_HANDOFF_') && !SESSION_SETS.has(name)) {
      return (
        `\`${name}\` switches or redirects git-handoff's own checks (its bypass, its record and witness, the program its git hooks run): only the ` +
        `person sets it, from their own terminal. Run the command without it; if a check is wrong, tell the person what it refused and why.`
      );
    }
    // the session's own id, or the variable that holds it, passes
    if (!runs || !SESSION_ID_VARS.includes(name) || value === session || value === '' || /^\$\{?[A-Z_]+\}?$/.test(value) && SESSION_ID_VARS.includes(value.replace(/[${}]/g, ''))) continue;
    return (
      `\`${name}=${value.slice(0, 80)}\` makes git-handoff and its git hooks take the command for session ${value.slice(0, 80) || '(empty)'}, but you are session ${session ?? '(unknown)'}. ` +
      `A session acts only as itself: run it without that variable (the guard supplies yours).`
    );
  }
  return null;
}

/** What to put before a command so it runs as `session`; `hooks`: git-handoff's stubs, given back where the shell turns hooks off. */
export const sessionPrefix = (session: string, client: string, powershell = false, hooks: string | null = null) =>
  powershell
    ? `$env:GIT_HANDOFF_SESSION='${session}'; $env:GIT_HANDOFF_CLIENT='${client}';`
    : `export GIT_HANDOFF_SESSION='${session}' GIT_HANDOFF_CLIENT=${client}${hooks ? ` GIT_CONFIG_PARAMETERS="'core.hookspath'='${hooks}'"` : ''};`;

/** A hooks folder that can stand in sessionPrefix's double-quoted, git-quoted value as it is. */
export const plainHooksDir = (dir: string): boolean => path.isAbsolute(dir) && !/["'$`\\\n!]/.test(dir);
