// Turns file-based handoffs into refs (SPEC 4 `import`): seed files (owner kept from their marker), `handover.md`,
// `.handover/current.md`, frontmatter files, or a directory of them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { HandoffError, toHandoffError } from '../../errors';
import type { Storage } from '../../git/storage';
import { validateBody, type HandoffState } from '../store/document';
import { parseFrontmatterHandoff } from './frontmatter';
import { assertTopic, handoffRef, isValidTopic } from '../store/names';
import { branchSlug, markerOf, SEED_NAME_RE } from './seed-file';
import { assertSession, NO_SESSION_HELP, type SessionRef } from '../state/session';
import { SEED_MARKER_CLIENT } from '../../clients/names';
import { assertTakeover, readTip, resolveBranch, writeHandoff } from '../store/store';

/** The topic a `handover.md` gets when no --topic is given. */
export const HANDOVER_TOPIC = 'session-handover';

interface ImportOptions {
  branch?: string;
  topic?: string;
  /** the owner of files without a marker */
  session?: SessionRef | null;
}

export interface ImportPlan {
  file: string;
  branch: string;
  topic: string;
  ref: string;
  owner: SessionRef;
  ownerFrom: 'marker' | 'session';
  body: string;
  /** a frontmatter file's addressing */
  address?: { to: string[]; tags: string[]; refs: string[]; importedFrom: string };
  /** set by the secret scan: the state and trailers it checked */
  state?: HandoffState;
  trailers?: string[];
}

const SKIP_DIRS = new Set(['.git', 'node_modules', 'handoff-archive']);

function kindOf(file: string): 'seed' | 'handover' | 'other' {
  const base = path.basename(file);
  if (SEED_NAME_RE.test(base)) return 'seed';
  if (base === 'handover.md' || (base === 'current.md' && path.basename(path.dirname(path.resolve(file))) === '.handover')) return 'handover';
  return 'other';
}

/** The files an argument stands for: itself, or the handoff files found under a directory (archives skipped). */
function expandArg(arg: string): string[] {
  let st;
  try {
    st = statSync(arg);
  } catch {
    throw new HandoffError('usage', 'file-not-found', `${arg}: no such file or directory`, { file: arg });
  }
  if (!st.isDirectory()) return [arg];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(p);
      } else if (e.isFile() && kindOf(p) !== 'other') found.push(p);
    }
  };
  walk(arg);
  if (found.length === 0) {
    throw new HandoffError('usage', 'nothing-to-import', `${arg}: no handoff files in it (handoff-<branch>-<topic>.md, handover.md, .handover/current.md)`, { file: arg });
  }
  return found;
}

function localBranches(repo: Storage): string[] {
  const names = repo.listRefNames(['refs/heads/']).map((r) => r.ref.slice('refs/heads/'.length));
  if (repo.branch && !names.includes(repo.branch)) names.push(repo.branch);
  return names;
}

const askForNames = (file: string, why: string) =>
  new HandoffError('usage', 'cannot-parse-name', `${file}: ${why}; pass --branch <branch> and --topic <topic> to say where it goes`, { file });

/**
 * Splits `<branch>-<topic>` of a seed file name. Branch names hold dashes too, so each split is tried against
 * the local branches (by their slug); one match wins, several are settled by the current branch, else ask.
 */
function splitSeedName(rest: string, file: string, branches: string[], current: string | null, o: ImportOptions): { branch: string; topic: string } {
  if (o.branch !== undefined && o.topic !== undefined) return { branch: o.branch, topic: o.topic };
  const pool = o.branch !== undefined ? [o.branch] : branches;
  const found: Array<{ branch: string; topic: string }> = [];
  for (const branch of pool) {
    const slug = branchSlug(branch);
    if (!rest.startsWith(slug + '-')) continue;
    const topic = rest.slice(slug.length + 1);
    if (o.topic !== undefined ? topic === o.topic : isValidTopic(topic)) found.push({ branch, topic });
  }
  if (found.length === 1) return found[0];
  if (found.length > 1) {
    const here = found.filter((f) => f.branch === current);
    if (here.length === 1) return here[0];
    throw askForNames(file, `the name fits several branches (${found.map((f) => `${f.branch} + ${f.topic}`).join(', ')})`);
  }
  if (o.branch !== undefined) throw askForNames(file, `the name does not start with branch ${o.branch} followed by a valid topic`);
  throw askForNames(file, `no local branch matches the start of "handoff-${rest}.md" followed by a valid topic`);
}

/** validateBody, with the file named in the refusal. */
function bodyOf(file: string, content: string | Buffer): string {
  try {
    return validateBody(content);
  } catch (e) {
    const err = toHandoffError(e);
    const why = err.code === 'body-empty' ? 'it holds no handoff text (after its marker line)' : err.message;
    throw new HandoffError(err.kind, err.code, `${file}: ${why}; nothing was imported`, { ...err.data, file });
  }
}

function readRaw(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new HandoffError('usage', 'file-unreadable', `cannot read ${file}: ${(e as Error).message}`, { file });
  }
}

/** One file's owner marker (line 1, not kept in the body) and its body. */
function readHandoffFile(file: string, raw: Buffer, fallback: SessionRef | null | undefined): { owner: SessionRef; ownerFrom: 'marker' | 'session'; body: string } {
  const text = bodyOf(file, raw).replace(/^\uFEFF/, '');
  const nl = text.indexOf('\n');
  const marker = markerOf(text);
  if (marker !== null) {
    const id = assertSession(marker, `the claude-session marker of ${file}`);
    const body = nl < 0 ? '' : text.slice(nl + 1).replace(/^(\s*\n)+/, '');
    return { owner: { id, client: SEED_MARKER_CLIENT, source: `marker:${file}` }, ownerFrom: 'marker', body: bodyOf(file, body) };
  }
  if (!fallback) throw new HandoffError('noSession', 'no-session', `${file} has no <!-- claude-session: ID --> first line to say who owns it; ${NO_SESSION_HELP}`, { file });
  return { owner: fallback, ownerFrom: 'session', body: text };
}

/** Everything to import, resolved and read before anything is written, so a bad argument changes nothing. */
export function planImport(repo: Storage, args: string[], o: ImportOptions = {}): ImportPlan[] {
  if (args.length === 0) throw new HandoffError('usage', 'nothing-to-import', 'name at least one file or directory to import');
  const files = args.flatMap(expandArg);
  if (o.topic !== undefined && files.length > 1) {
    throw new HandoffError('usage', 'topic-for-many', `--topic names one handoff, and ${files.length} files were given: import them one at a time`);
  }
  let branches: string[] | null = null;
  const plans: ImportPlan[] = [];
  for (const file of files) {
    const raw = readRaw(file);
    const text = raw.toString('utf8').replace(/^\uFEFF/, '');
    const fm = text.startsWith('---') ? parseFrontmatterHandoff(file, text) : null;
    if (fm) {
      const branch = resolveBranch(repo, o.branch);
      const topic = assertTopic(o.topic ?? fm.topic);
      if (!o.session) throw new HandoffError('noSession', 'no-session', `${file} is imported as your handoff (its "from" is kept as Handoff-Imported-From); ${NO_SESSION_HELP}, or pass --person`, { file });
      const address = { to: fm.to, tags: fm.tags, refs: fm.refs, importedFrom: fm.from };
      plans.push(planOf(plans, file, branch, topic, { owner: o.session, ownerFrom: 'session', body: bodyOf(file, fm.body), address }));
      continue;
    }
    const kind = kindOf(file);
    let branch = o.branch;
    let topic: string;
    if (kind === 'seed') {
      branches ??= localBranches(repo);
      ({ branch, topic } = splitSeedName(SEED_NAME_RE.exec(path.basename(file))![1], file, branches, repo.branch, o));
    } else if (kind === 'handover') topic = o.topic ?? HANDOVER_TOPIC;
    else if (o.topic === undefined) throw askForNames(file, 'the name is neither handoff-<branch>-<topic>.md nor handover.md');
    else topic = o.topic;
    plans.push(planOf(plans, file, resolveBranch(repo, branch), assertTopic(topic), readHandoffFile(file, raw, o.session)));
  }
  return plans;
}

/** One plan, refused when an earlier file of the same import goes to the same ref. */
function planOf(plans: ImportPlan[], file: string, branch: string, topic: string, read: Pick<ImportPlan, 'owner' | 'ownerFrom' | 'body' | 'address'>): ImportPlan {
  const ref = handoffRef(branch, topic);
  const clash = plans.find((p) => p.ref === ref);
  if (clash) throw new HandoffError('usage', 'same-target', `${clash.file} and ${file} would both go to ${ref}: import them one at a time with --topic`, { ref });
  return { file, branch, topic, ref, ...read };
}

/** The version of a handoff whose body is exactly `body`, if any (one hash-object, one rev-list, one cat-file). */
function versionWithBody(repo: Storage, ref: string, body: string): string | null {
  if (!repo.readRef(ref)) return null;
  const blob = repo.blobId(body);
  const versions = repo.commits({ from: [ref] });
  const i = repo.objectInfo(versions.map((v) => `${v}:handoff.md`)).findIndex((o) => o?.oid === blob);
  return i >= 0 ? versions[i] : null;
}

/**
 * Writes each plan (a body already stored as a version is not written again): a new handoff as the file's owner, an
 * existing one as the importing session, so a marker never lets one session write as another (SPEC 4 `import`).
 */
export function runImport(repo: Storage, plans: ImportPlan[], o: { importer?: SessionRef | null; takeover?: { reason: string } | null } = {}) {
  assertTakeover(o.takeover);
  // each file's result: `session` is the one written as, or for `unchanged` the handoff's current owner; `oid` the version
  // written, or the existing version with the same body
  return plans.map((p) => {
    const base = { file: p.file, ref: p.ref, branch: p.branch, topic: p.topic, session: p.owner.id, ownerFrom: p.ownerFrom, warnings: [] as string[] };
    try {
      const same = versionWithBody(repo, p.ref, p.body);
      if (same) return { ...base, session: readTip(repo, p.ref)?.session ?? p.owner.id, status: 'unchanged' as const, oid: same, previous: same, error: undefined };
      const exists = readTip(repo, p.ref) !== null;
      const writer = exists && o.importer ? o.importer : p.owner;
      if (o.takeover && !o.importer) throw new HandoffError('noSession', 'no-session', `--take-over names who takes over: ${NO_SESSION_HELP}`);
      const w = writeHandoff(repo, { topic: p.topic, body: p.body, branch: p.branch, session: writer, takeover: exists ? o.takeover ?? null : null, ...p.address, state: p.state, trailers: p.trailers });
      return { ...base, session: writer.id, status: w.created ? ('created' as const) : ('updated' as const), oid: w.oid, previous: w.previous, warnings: w.warnings, error: undefined };
    } catch (e) {
      const err = toHandoffError(e);
      if (err.kind === 'internal') throw e;
      return { ...base, status: 'refused' as const, oid: null, previous: null, error: { code: err.code, message: err.message, exitCode: err.exitCode } };
    }
  });
}
