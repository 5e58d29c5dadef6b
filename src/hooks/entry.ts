// `git handoff githook <name> [args]`: what the stubs call. A refusal exits 3 (owned) or 6 (integrity) (SPEC 4).
import { readFileSync } from 'node:fs';
import { EXIT } from '../errors';
import { readConfig, type Config } from '../git/config';
import { openRepo, type Repo } from '../git/repo';
import { STUB_ARG_PREFIX, STUB_FORMAT } from '../git/hook-stub';
import { resolveSession } from '../handoff/state/session';
import { appendAudit, auditFile } from '../handoff/state/audit';
import { noteRefusal } from '../handoff/state/refusals';
import { preReceiveHook } from '../sync/receive';
import { refreshStubs } from './install';
import { prePush } from './push';
import { referenceTransaction } from './transaction';
import type { HookContext, HookHandler, StubBuild } from './handler';

/** Git's arguments, and which build's stub called: this build's passes STUB_ARG after them, an older one nothing. */
function stubOf(args: string[]): { args: string[]; stub: StubBuild } {
  const last = args.at(-1) ?? '';
  const n = last.startsWith(STUB_ARG_PREFIX) && /^\d+$/.test(last.slice(STUB_ARG_PREFIX.length)) ? Number(last.slice(STUB_ARG_PREFIX.length)) : null;
  if (n === null) return { args, stub: 'older' };
  return { args: args.slice(0, -1), stub: n === STUB_FORMAT ? 'current' : n > STUB_FORMAT ? 'newer' : 'older' };
}

/** An older build's stub called: this build's stubs put in its place (launcher and chained hook kept). Never fails the hook. */
function refreshOlderStubs(repo: Repo): void {
  try {
    const done = refreshStubs(repo);
    if (done.length) process.stderr.write(`git-handoff: the git hooks here were an older build's; brought up to this one (${done.length} of them, as \`git handoff install --hooks\` does)\n`);
  } catch {
    /* the stubs stay as they were: `git handoff doctor` says so */
  }
}

const commit = () => require('./commit') as typeof import('./commit');
const HANDLERS: Record<string, { run: () => HookHandler; stdin: boolean }> = {
  'prepare-commit-msg': { run: () => commit().prepareCommitMsg, stdin: false },
  'commit-msg': { run: () => commit().commitMsg, stdin: false },
  'pre-commit': { run: () => commit().preCommit, stdin: false },
  'pre-push': { run: () => prePush, stdin: true },
  'reference-transaction': { run: () => referenceTransaction, stdin: true },
};

/** Whether `<old> <new> <ref>` lines name a handoff or archive ref. */
const namesHandoffRef = (input: string) => /^\S+ \S+ refs\/(handoffs|handoff-archive)\//m.test(input);

export async function runGithook(name: string, argv: string[]): Promise<number> {
  const { args, stub } = stubOf(argv);
  // The server's check (`install --server`, git-hooks/pre-receive) is the sync side's.
  if (name === 'pre-receive') return preReceiveHook();
  const handler = HANDLERS[name];
  if (!handler) return 0;
  let input = '';
  try {
    input = handler.stdin ? readFileSync(0, 'utf8') : '';
    const repo = openRepo();
    // the acting session from the environment; an invalid id is an error (never a person: that would drop the checks)
    let session: ReturnType<typeof resolveSession>;
    try {
      session = resolveSession(undefined, process.env);
    } catch (e) {
      // only `prepared` can stop a reference transaction; the other states are told nothing new
      if (name === 'reference-transaction' && args[0] !== 'prepared') return 0;
      process.stderr.write(
        `git-handoff (${name} hook): ${(e as Error).message.replace(/[\x00-\x1f\x7f]/g, '?')}.\n` +
          `A session id names who is committing; an invalid one is refused rather than taken for a person.\n` +
          `Set a valid id (letters, digits, . _ : -; at most 128), or unset it to commit as a person: unset GIT_HANDOFF_SESSION\n`,
      );
      return EXIT.usage;
    }
    let config: Config | null = null;
    const ctx: HookContext = { repo, args, input, session: session?.id ?? null, sessionSource: session?.source ?? null, client: session?.client ?? null, env: process.env, stub, config: () => (config ??= readConfig(repo)) };
    const refusal = await handler.run()(ctx);
    if (stub === 'older') refreshOlderStubs(repo);
    if (!refusal) return 0;
    const { formatRefusal } = require('./refusal') as typeof import('./refusal');
    if (process.env.GIT_HANDOFF_BYPASS === '1') {
      appendAudit(repo.commonDir, { source: 'githook', hook: name, args, session: ctx.session, refused: refusal.what, found: refusal.found, cwd: process.cwd() });
      process.stderr.write(`git-handoff (${name} hook): bypassed with GIT_HANDOFF_BYPASS=1 (recorded in ${auditFile(repo.commonDir)}): ${refusal.what}\n`);
      return 0;
    }
    noteRefusal(repo.commonDir, { by: `githook:${name}`, session: ctx.session, client: null, what: refusal.what, why: refusal.found[0] ?? refusal.what });
    // Only a person at this repository can set the variable: not an agent, not a pusher to a server.
    process.stderr.write(formatRefusal(name, refusal, !ctx.session && !repo.bare, auditFile(repo.commonDir)));
    return EXIT[refusal.kind];
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    // Handoff refs fail closed, as the server does: an unchecked move of one could hand it to anyone.
    if (name === 'reference-transaction' && args[0] === 'prepared' && namesHandoffRef(input)) {
      process.stderr.write(`git-handoff (${name} hook): could not check an update of handoff refs (${why}); refused, nothing moved. Run it again; if this persists, report it.\n`);
      return EXIT.integrity;
    }
    // Any other broken check must not brick git: say so, and let the operation through.
    process.stderr.write(`git-handoff (${name} hook): could not check (${why}); allowed\n`);
    return 0;
  }
}
