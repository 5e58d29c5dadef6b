// Every commit the product makes: a version, a rewrite keeping its headers, a bookkeeping commit, the loss record's.
// Only tx holds the port's key to write a commit.
import { HandoffError } from '../../../errors';
import { FALLBACK_IDENTITY, identityEnv } from '../../../git/config-values';
import { setting } from '../../../config-keys';
import { WRITE_COMMIT, type Config, type Storage } from '../../../git/storage';
import { buildMessage, type MessageInput } from '../document';

/** A handoff version (write, archive, restore, the resolve merge): signed when handoff.sign is true. */
export function commitVersion(repo: Storage, tree: string, parents: string[], message: MessageInput, config: Config = repo.config()): string {
  return signedCommit(repo, tree, parents, buildMessage(message), identityEnv(config), setting(config, 'sign'));
}

/** `writeCommit`, a signing failure said as one: nothing was written, and how to fix or turn signing off. */
function signedCommit(repo: Storage, tree: string, parents: string[], message: string, env: NodeJS.ProcessEnv, sign: boolean): string {
  try {
    return repo[WRITE_COMMIT]({ tree, parents, message, env, sign });
  } catch (e) {
    if (!sign || !(e instanceof HandoffError) || e.code !== 'git-failed') throw e;
    throw new HandoffError(
      'environment',
      'signing-failed',
      `handoff.sign is true but git could not sign the handoff commit; nothing was written:\n  ${String(e.data.stderr ?? e.message).trim()}\n` +
        `Fix the signing setup (gpg.format, user.signingKey) or turn signing off: git config handoff.sign false`,
    );
  }
}

/** A bookkeeping commit that is not a version (a lease, a receipts notes commit): same identity rule, never signed. */
export function commitRecord(repo: Storage, tree: string, parents: string[], message: string, config: Config = repo.config()): string {
  return repo[WRITE_COMMIT]({ tree, parents, message, env: identityEnv(config) });
}

/** The environment that makes git write an `author`/`committer` header line as it is (`Name <email> <time> <zone>`). */
function identityOfHeaders(headers: string[]): NodeJS.ProcessEnv | null {
  const env: NodeJS.ProcessEnv = {};
  for (const h of headers) {
    const m = /^(author|committer) (.*) <([^<>]*)> (\d+) ([+-]\d{4})$/.exec(h);
    if (!m) return null;
    const who = m[1] === 'author' ? 'AUTHOR' : 'COMMITTER';
    Object.assign(env, { [`GIT_${who}_NAME`]: m[2], [`GIT_${who}_EMAIL`]: m[3], [`GIT_${who}_DATE`]: `@${m[4]} ${m[5]}` });
  }
  return env.GIT_AUTHOR_NAME !== undefined && env.GIT_COMMITTER_NAME !== undefined ? env : null;
}

/**
 * A version rewritten by `redact`: its own headers (author, committer, dates) kept, tree, parents and message new;
 * signed anew when handoff.sign is true (the old signature signed the old content), else written as it was.
 */
export function commitRewrite(repo: Storage, headers: string[], tree: string, parents: string[], message: string, config: Config = repo.config()): string {
  if (setting(config, 'sign')) {
    const env = identityOfHeaders(headers);
    if (!env) throw new HandoffError('integrity', 'unsignable-rewrite', `handoff.sign is true but a version to redact carries headers git cannot sign again (${headers.join('; ')}); nothing was changed`);
    return signedCommit(repo, tree, parents, message, env, true);
  }
  const head = [`tree ${tree}`, ...parents.map((p) => `parent ${p}`), ...headers];
  return repo[WRITE_COMMIT]({ raw: `${head.join('\n')}\n\n${message}` });
}

// bookkeeping of the product's own, not a version: one fixed identity, so no configuration is read for it
const { name, email } = FALLBACK_IDENTITY;
const FIXED_IDENTITY = { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };

/** A commit of the loss record: the fixed identity git-handoff <git-handoff@localhost>, never signed; dated `at` (unix seconds) when given, else now. */
export function commitFixed(repo: Storage, tree: string, parents: string[], message: string, at?: number): string {
  if (at === undefined) return repo[WRITE_COMMIT]({ tree, parents, message, env: FIXED_IDENTITY });
  // written as it is, in this process (a date in git's environment takes a commit-tree process per commit)
  const who = `${name} <${email}> ${at} +0000`;
  return repo[WRITE_COMMIT]({ raw: [`tree ${tree}`, ...parents.map((p) => `parent ${p}`), `author ${who}`, `committer ${who}`, '', `${message}\n`].join('\n') });
}
