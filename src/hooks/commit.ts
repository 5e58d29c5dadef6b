// The commit hooks: the session's trailers, one session per message, no taking another live session's files or
// commits (prepare-commit-msg, which --no-verify does not skip), live claims named to a person (pre-commit).
import { appendFileSync, existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { claimedSessions, TRAILER } from '../handoff/store/document';
import type { HookContext } from './handler';
import { listLeases } from '../handoff/store/leases';
import { sessionStaged as stagedOfSession, stagedClaims } from './staged';
import { refusedResetFile, type Refusal } from './refusal';
import { short as shortSession } from '../handoff/state/session';
import { ledgerDir } from '../handoff/state/ledger';
import { encodeBranch, LEASE_PREFIX } from '../handoff/store/names';
import { addTrailersInProcess, trailerReader } from '../git/trailers';
import { messageFileTrailerLines } from '../git/trailer-reads';
import { configValue } from '../git/config';
import { readConfigInProcess } from '../git/config-read';
import { listRefsInProcess } from '../git/refs-read';
import { DECIDED_PREFIX } from '../git/hook-stub';
import { hookGitArgv } from './renamed-branch';

/** A line holding the session trailer's key, in any case: without one, git reads no session id from a message. */
const KEYED = new RegExp(TRAILER.session.replace(/[^A-Za-z0-9]/g, '\\$&'), 'i');

/** The session ids of a message file (content `bytes`) as git reads them; none, without asking git, where no line holds the key. */
const idsOfFile = (c: HookContext, file: string, bytes: Buffer): string[] => (KEYED.test(bytes.toString('latin1')) ? claimedSessions(messageFileTrailerLines(c.repo, file)) : []);

/** The lines git may take for comments where core.commentChar is `auto` (builtin/commit.c adjust_comment_line_char). */
const AUTO_COMMENT = '#;@!$%^&|:';

/**
 * How git will clean this message up: `default` and `scissors` strip comments only where an editor opens (GIT_EDITOR
 * is `:` when none does; a message git made for the editor, source none or `template`, counts as edited).
 */
function cleanupMode(c: HookContext, source?: string): 'strip' | 'whitespace' | 'verbatim' | 'scissors' {
  const set = commandLineCleanup() ?? messageConfig(c).cleanup;
  const edited = c.env.GIT_EDITOR !== ':' || source === '' || source === 'template';
  if (set === 'verbatim' || set === 'whitespace' || set === 'strip') return set;
  return edited ? (set === 'scissors' ? 'scissors' : 'strip') : 'whitespace';
}

/** `git commit --cleanup=<mode>` from the git command line running this hook (git tells its hooks nothing of it). */
let givenCleanup: string | null | undefined;
function commandLineCleanup(): string | undefined {
  if (givenCleanup === undefined) {
    givenCleanup = null;
    const argv = hookGitArgv() ?? [];
    const args = argv.includes('commit') ? argv.slice(argv.indexOf('commit') + 1) : [];
    for (let i = 0; i < args.length && args[i] !== '--'; i++) {
      const m = /^--(cl[a-z]*)(?:=(.*))?$/.exec(args[i]);
      if (m && 'cleanup'.startsWith(m[1])) givenCleanup = m[2] ?? args[++i] ?? null;
    }
  }
  return givenCleanup ?? undefined;
}

/** The character git's comment lines begin with: core.commentChar, where `auto` the one git wrote its own lines with. */
function commentOf(c: HookContext, body: string, scissors: string | undefined): string {
  const set = messageConfig(c).comment?.trim() || '#';
  if (set !== 'auto') return set;
  const last = scissors ?? body.trimEnd().split('\n').at(-1) ?? '';
  return AUTO_COMMENT.includes(last[0]) ? last[0] : '#';
}

/** True when git keeps text of the message by its cleanup mode: a trailer must not turn an aborted commit into one. */
function hasContent(c: HookContext, bytes: Buffer, source?: string): boolean {
  const mode = cleanupMode(c, source);
  const text = bytes.toString('utf8');
  const cut = mode === 'strip' || mode === 'scissors' ? text.search(/^. -+ >8 -+$/m) : -1;
  const body = cut === -1 ? text : text.slice(0, cut);
  const comment = mode === 'strip' ? commentOf(c, body, cut === -1 ? undefined : text.slice(cut, cut + 1)) : null;
  return body.split('\n').some((l) => l.trim() !== '' && (comment === null || !l.startsWith(comment)));
}

/** core.commentChar, commit.cleanup and whether trailers are read by git's defaults (addTrailersInProcess): one read a hook. */
type MessageConfig = { comment: string | undefined; cleanup: string | undefined; defaultTrailers: boolean };
const messageConfigs = new WeakMap<HookContext, MessageConfig>();
function messageConfig(c: HookContext): MessageConfig {
  let m = messageConfigs.get(c);
  if (!m) {
    const comment = configValue(c.config(), 'core.commentChar');
    // no trailer.* key, as far as this process can tell (else git writes the trailers)
    const trailers = readConfigInProcess(c.repo, /^trailer\./);
    m = { comment, cleanup: configValue(c.config(), 'commit.cleanup'), defaultTrailers: trailers?.size === 0 && (comment === undefined || comment === '#') };
    messageConfigs.set(c, m);
  }
  return m;
}

/** The session's trailers (its id, its client: SPEC 3) added to the message file; answers the file's content after. */
function addSessionTrailer(c: HookContext, file: string, bytes: Buffer, source?: string): Buffer {
  // git merge writes its message without a final newline, and interpret-trailers would then glue the trailer to the subject.
  const text = bytes.toString('latin1');
  const ended = text && !text.endsWith('\n') ? `${text}\n` : text;
  const trailers: Array<[string, string]> = [[TRAILER.session, c.session!], ...(c.client ? [[TRAILER.client, c.client] as [string, string]] : [])];
  // where git keeps every line (no editor), interpret-trailers must take none for a comment: a comment character none begins
  const plain = cleanupMode(c, source) === 'strip' ? undefined : [...`${AUTO_COMMENT}~`].find((ch) => !ended.split('\n').some((l) => l.startsWith(ch)));
  // in this process where that is interpret-trailers' answer; else git writes them
  const own = messageConfig(c).defaultTrailers && (plain === undefined || plain === '#') ? addTrailersInProcess(ended, trailers) : null;
  if (own !== null) {
    const out = Buffer.from(own, 'latin1');
    writeFileSync(file, out);
    return out;
  }
  if (ended !== text) appendFileSync(file, '\n');
  c.repo.out([...(plain ? ['-c', `core.commentChar=${plain}`] : []), 'interpret-trailers', '--in-place', '--no-divider', '--where', 'end', '--if-exists', 'doNothing', ...trailers.flatMap(([k, v]) => ['--trailer', `${k}: ${v}`]), file]);
  return readFileSync(file);
}

/** The copy of a message prepare-commit-msg judged whole for `session`: the stub's commit-msg compares with it (`decided`). */
export const decidedCopy = (messageFile: string, session: string) => path.join(path.dirname(messageFile), `${DECIDED_PREFIX}${session}`);

const rebaseInProgress = (c: HookContext) => ['rebase-merge', 'rebase-apply'].some((d) => existsSync(path.join(c.repo.gitDir, d)));

/**
 * prepare-commit-msg <file> [source [sha]], for a session: the staged changes checked, the trailers added, and
 * commit-msg's answer given ahead (decidedCopy). A person's commit: nothing.
 */
export function prepareCommitMsg(c: HookContext): Refusal | null {
  const file = c.args[0];
  if (!c.session || !file) return null;
  // whatever happens next, no earlier copy stands for this message
  const copy = decidedCopy(file, c.session);
  // (a look first: most often there is none, and a failed unlink costs an exception)
  if (existsSync(copy)) unlinkSync(copy);
  // A rebase replays commits someone already made; it does not author them.
  if (rebaseInProgress(c)) return null;
  // git commit gives its hooks the author it will write (GIT_AUTHOR_DATE); merge and the sequencer (cherry-pick, revert)
  // give none and run no pre-commit
  if (c.env.GIT_AUTHOR_DATE !== undefined) {
    const refused = sessionStaged(c);
    if (refused) return refused;
  }
  let message: Buffer = readFileSync(file);
  let ids = idsOfFile(c, file, message);
  // no content: the editor will open, and commit-msg adds the trailers once there is a message
  if (ids.length === 0 && hasContent(c, message, c.args[1] ?? '')) {
    message = addSessionTrailer(c, file, message, c.args[1] ?? '');
    ids = [c.session];
  }
  // a message claiming another session (`--trailer`, -C/-c/-F, a cherry-pick's or a merge's) is refused here, where
  // --no-verify does not reach and the sequencer calls no commit-msg
  const refused = idsRefusal(c, [...new Set(ids)]);
  if (refused) return refused;
  writeFileSync(decidedCopy(file, c.session), message);
  return null;
}

/** The refusal of a message whose session ids are `distinct`: two sessions, or (a session committing) another's. */
function idsRefusal(c: HookContext, distinct: string[]): Refusal | null {
  if (distinct.length > 1) {
    return {
      kind: 'integrity',
      what: 'this commit message carries the ids of two sessions; a commit belongs to one session',
      found: [
        `Claude-Session-Id values: ${distinct.map((s) => shortSession(s, [...distinct, c.session])).join(', ')}`,
        c.session ? `committing session: ${shortSession(c.session, distinct)} (from ${c.sessionSource})` : 'committing session: none (a person)',
      ],
      steps: [
        `edit the message so that it keeps one Claude-Session-Id trailer${c.session ? ` (yours: ${c.session})` : ''} and commit again (git commit -e, or git commit --amend to fix an earlier one)`,
        'if the change really mixes two sessions\' work, split it: stage and commit each session\'s files separately',
      ],
      data: { sessions: distinct },
    };
  }
  if (c.session && distinct.length === 1 && distinct[0] !== c.session) {
    return {
      kind: 'owned',
      what: `this commit message claims session ${shortSession(distinct[0], [c.session])}, but session ${shortSession(c.session, distinct)} is committing`,
      found: [`Claude-Session-Id: ${shortSession(distinct[0], [c.session])} in the message`, `committing session: ${shortSession(c.session, distinct)} (from ${c.sessionSource})`],
      steps: [
        `if you are amending session ${shortSession(distinct[0], [c.session])}'s commit, do not: leave it as it is and make a new commit on top (git commit without --amend)`,
        `if the trailer was copied by mistake, remove the Claude-Session-Id line from your message (this hook adds yours) and commit again`,
      ],
      data: { claimed: distinct[0], session: c.session },
    };
  }
  return null;
}

/** commit-msg <file>: one session per message, and an agent's commits carry its own id (added when missing). */
export function commitMsg(c: HookContext): Refusal | null {
  const file = c.args[0];
  if (!file) return null;
  const message = readFileSync(file);
  const distinct = [...new Set(idsOfFile(c, file, message))];
  const refused = idsRefusal(c, distinct);
  if (refused || !c.session) return refused;
  if (distinct.length === 0 && hasContent(c, message)) addSessionTrailer(c, file, message);
  return null;
}

/** pre-commit: a person's commit of paths a live claim names; a session's only when an older build's stub calls. */
export function preCommit(c: HookContext): Refusal | null {
  if (c.session) return c.stub === 'current' ? null : sessionStaged(c);
  return c.repo.worktree ? stagedClaims(c) : null;
}

/** Whether another session may be known here (its ledger file, its lease, a refused reset's note): else nothing to compare. */
function othersKnown(c: HookContext): boolean {
  const own = `${encodeBranch(c.session!)}.jsonl`;
  let names: string[] = [];
  const ledgers = ledgerDir(c.repo.commonDir);
  try {
    if (existsSync(ledgers)) names = readdirSync(ledgers);
  } catch {
    /* not a directory: no ledger */
  }
  if (names.some((n) => n.endsWith('.jsonl') && n !== own) || existsSync(refusedResetFile(c.repo))) return true;
  // the leases read in this process where that is git's answer (most often there is none, or this session's own): a
  // lease whose block names another holder, or none this reading is sure of, may be another session's
  const recs = listRefsInProcess(c.repo, [LEASE_PREFIX]);
  if (recs) return recs.some((r) => leaseHolder.block(r.block).session !== c.session);
  return listLeases(c.repo).some((l) => l.session !== c.session);
}
/** The holder a lease's trailer block names, read by the one parser as leases.ts reads it (null: ambiguous or none). */
const leaseHolder = trailerReader({ session: TRAILER.session }, {}, { controlsInValues: true });

/** A session's `git commit`: its staged changes checked where a live claim or another session could concern them. */
const sessionStaged = (c: HookContext): Refusal | null => (c.repo.worktree ? stagedOfSession(c, othersKnown(c)) : null);
