// The hook stub (git-hooks/stub.sh) against its handlers, hook by hook: on generated messages, states and sessions the
// stub as git runs it (which hands what may concern git-handoff to `git-handoff githook`) ends as the handler alone
// does: the same refusal or none, the message file left byte for byte the same. Each run starts from the same state:
// the same commits, another session's lease, ledger and claim there or not, the same paths staged, the same message.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SESSION_VARS } from '../../src/clients/names';
import { claimsMarker } from '../../src/handoff/state/claims-marker';
import { STUB_ARG } from '../../src/git/hook-stub';
import { ledgerDir } from '../../src/handoff/state/ledger';
import { BIN, makeRepo, type TestRepo } from '../helpers/repo';
import { A, B, lease, ledgerWrite } from './helpers';

const SCISSORS = '# ------------------------ >8 ------------------------';
const KEYS = ['Claude-Session-Id', 'claude-session-id', 'CLAUDE-SESSION-ID', 'Claude-Session-ID', 'Claude-Session-Idle', 'X-Claude-Session-Id', 'Claude-Session'];
const SEPARATORS = [': ', ':', ' : ', ':\t', '\t: '];
const VALUES = [A, B, `${A} `, 'bad id', ''];

/** A commit message: paragraphs of subject and body lines, scissors and look-alikes, comments, trailer blocks in odd spellings, folded values. */
const message = fc
  .record({
    paragraphs: fc.array(
      fc.array(
        fc.oneof(
          fc.constantFrom('work', 'Merge branch side', 'body text', '-- >8 --', 'x -- >8 -- y', SCISSORS, '# a comment', '---', 'Signed-off-by: A U Thor <a@example.com>', 'Handoff-Client: codex', '  continued value', 'ü'),
          fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...SEPARATORS), fc.constantFrom(...VALUES), fc.boolean()).map(([k, s, v, folded]) => `${k}${s}${v}${folded ? '\n  and more' : ''}`),
        ),
        { minLength: 1, maxLength: 4 },
      ),
      { minLength: 0, maxLength: 4 },
    ),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(({ paragraphs, crlf, finalNewline }) => {
    const text = paragraphs.map((p) => p.join('\n')).join('\n\n') + (finalNewline ? '\n' : '');
    return crlf ? text.replace(/\n/g, '\r\n') : text;
  });

/** Who commits: a person, GIT_HANDOFF_SESSION, each client's own variable, an id node refuses. */
const sessionEnv = fc.constantFrom<Record<string, string>>({}, { GIT_HANDOFF_SESSION: A }, ...SESSION_VARS.map(([v]) => ({ [v]: A })), { GIT_HANDOFF_SESSION: 'bad id' }, { CLAUDE_CODE_SESSION_ID: B });

/** What the repository holds besides its commits: another session's lease, ledger, claim; what is staged. */
const state = fc.record({
  lease: fc.constantFrom('none', 'live', 'stale'),
  ledger: fc.constantFrom('none', 'live', 'old'),
  claim: fc.boolean(),
  // handoff.claims=enforce: a staged claimed path is refused, not only named
  enforce: fc.boolean(),
  staged: fc.subarray(['own.txt', 'shared.txt', 'ledgered.txt', 'claimed.txt']),
  // a `git commit` (git gives its hooks the author's date) or merge and the sequencer (none)
  commit: fc.boolean(),
});
type State = typeof state extends fc.Arbitrary<infer T> ? T : never;

interface World {
  repo: TestRepo;
  hooks: string;
  gitDir: string;
  /** oids: the base before B's commit, B's commit (HEAD), a child of HEAD, a sibling of HEAD (drops B's) */
  oid: { base: string; theirs: string; child: string; sibling: string };
}

function world(): World {
  const repo = makeRepo({ commit: true });
  repo.write('shared.txt', 'v1\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'base']);
  const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  repo.write('shared.txt', 'v2 by B\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', `B's work\n\nClaude-Session-Id: ${B}\nHandoff-Client: codex`]);
  const theirs = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  const tree = repo.git(['rev-parse', 'HEAD^{tree}']).stdout.trim();
  const child = repo.git(['commit-tree', tree, '-p', theirs, '-m', 'child']).stdout.trim();
  const sibling = repo.git(['commit-tree', tree, '-p', base, '-m', 'sibling']).stdout.trim();
  const r = spawnSync(BIN, ['install', '--hooks'], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return { repo, hooks: path.join(repo.dir, '.git', 'hooks'), gitDir: path.join(repo.dir, '.git'), oid: { base, theirs, child, sibling } };
}

/** Puts the repository in `s` (from any earlier state): nothing else of another session's, the same paths staged. */
function arrange(w: World, s: State): void {
  const { repo } = w;
  repo.git(['reset', '-q']);
  for (const f of ['own.txt', 'ledgered.txt', 'claimed.txt']) rmSync(path.join(repo.dir, f), { force: true });
  repo.write('shared.txt', 'v2 by B\n');
  rmSync(path.join(ledgerDir(w.gitDir), `${B}.jsonl`), { force: true });
  rmSync(claimsMarker(w.gitDir), { force: true });
  rmSync(path.join(w.gitDir, 'handoff-refused-reset.json'), { force: true });
  for (const ref of repo.git(['for-each-ref', '--format=%(refname)', 'refs/handoff-leases/']).stdout.split('\n').filter(Boolean)) repo.git(['update-ref', '-d', ref]);
  if (s.lease !== 'none') lease(repo, B, s.lease === 'live' ? 0 : 3 * 3_600_000);
  if (s.ledger !== 'none') ledgerWrite(repo, B, ['ledgered.txt'], s.ledger === 'live' ? 0 : 3 * 3_600_000);
  if (s.enforce) repo.git(['config', 'handoff.claims', 'enforce']);
  else repo.git(['config', '--unset', 'handoff.claims'], { allowFail: true });
  if (s.claim) {
    mkdirSync(path.dirname(claimsMarker(w.gitDir)), { recursive: true });
    const now = Math.floor(Date.now() / 1000);
    writeFileSync(claimsMarker(w.gitDir), JSON.stringify({ claims: [{ session: B, paths: ['claimed.txt'], since: now - 60, expires: now + 3600, branch: 'main', where: 'local' }] }) + '\n');
  }
  for (const f of s.staged) {
    // shared.txt staged as before B's commit: B's work taken back
    repo.write(f, f === 'shared.txt' ? 'v1\n' : `${f}\n`);
    repo.git(['add', f]);
  }
}

interface Outcome {
  /** 0, or the refusal's code (2, 3, 6) */
  status: number;
  /** the message file after, where the hook has one */
  message: string | null;
  /** it told the person something (a refusal, a claim named) */
  told: boolean;
}

/** The refusal codes the stub passes to git; anything else is allowed (as the stub does with the handler's). */
const code = (status: number | null) => ([2, 3, 6].includes(status ?? -1) ? status! : 0);

/** One run: the hook as git runs it (the stub), or the handler alone (`git-handoff githook`, as this build's stub calls it), from the same files. */
function run(w: World, how: 'stub' | 'handler', hook: string, args: string[], env: Record<string, string>, input: string, msg: { file: string; text: Buffer } | null): Outcome {
  if (msg) writeFileSync(msg.file, msg.text);
  const e = { ...w.repo.env, ...env };
  const r =
    how === 'stub'
      ? spawnSync(path.join(w.hooks, hook), args, { cwd: w.repo.dir, env: e, input, encoding: 'utf8' })
      : spawnSync(BIN, ['githook', hook, ...args, STUB_ARG], { cwd: w.repo.dir, env: e, input, encoding: 'utf8' });
  return { status: how === 'stub' ? (r.status ?? -1) : code(r.status), message: msg ? readFileSync(msg.file, 'latin1') : null, told: r.stderr !== '' };
}

/** The stub and the handler on one hook call from the same start; a description where they differ. */
function differs(w: World, hook: string, args: string[], env: Record<string, string>, input = '', msg: { file: string; text: Buffer } | null = null): string | null {
  const stub = run(w, 'stub', hook, args, env, input, msg);
  const handler = run(w, 'handler', hook, args, env, input, msg);
  if (stub.status === handler.status && stub.message === handler.message && stub.told === handler.told) return null;
  return `${hook} ${args.join(' ')} ${JSON.stringify(env)} ${JSON.stringify(msg?.text.toString('latin1') ?? input)}: stub ${JSON.stringify(stub)}, handler ${JSON.stringify(handler)}`;
}

/** Gives vitest's worker a turn between runs: a property of synchronous spawns would starve its RPC on a loaded machine. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const authored = (s: State, env: Record<string, string>) => ({ ...env, ...(s.commit ? { GIT_AUTHOR_DATE: '@1700000000 +0000', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com' } : {}) });

describe('the hook stub ends each hook as its handler alone does', () => {
  it('prepare-commit-msg and commit-msg: messages with scissors lines, trailers in odd spellings, folded lines, several paragraphs; every session and state', async () => {
    const w = world();
    const file = path.join(w.gitDir, 'COMMIT_EDITMSG');
    const wrong: string[] = [];
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(message, sessionEnv, state, fc.boolean(), fc.constantFrom('message', 'template', 'commit', 'merge'), async (text, who, s, edited, source) => {
        await turn();
        arrange(w, s);
        const env = authored(s, who);
        const msg = { file, text: Buffer.from(text, 'latin1') };
        const prepared = differs(w, 'prepare-commit-msg', ['.git/COMMIT_EDITMSG', source], env, '', msg);
        if (prepared) wrong.push(prepared);
        // commit-msg as git runs it next: after prepare-commit-msg's handler made its message (and its copy), then as it
        // is, or changed by an editor
        const after = run(w, 'handler', 'prepare-commit-msg', ['.git/COMMIT_EDITMSG', source], env, '', msg);
        if (after.status) refused++;
        const next = { file, text: Buffer.from(after.message! + (edited ? 'edited in the editor\n' : ''), 'latin1') };
        const committed = differs(w, 'commit-msg', ['.git/COMMIT_EDITMSG'], env, '', next);
        if (committed) wrong.push(committed);
        // and with no prepare-commit-msg before it (its copy gone)
        for (const f of [A, B].map((x) => path.join(w.gitDir, `handoff-decided-msg.${x}`))) rmSync(f, { force: true });
        const alone = differs(w, 'commit-msg', ['.git/COMMIT_EDITMSG'], env, '', msg);
        if (alone) wrong.push(alone);
      }),
      { numRuns: 60 },
    );
    console.log(`stub vs handler, commit messages: ${wrong.length} disagreements, ${refused} refused by prepare-commit-msg`);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(0);
  }, 600_000);

  it("pre-commit: another session's lease, ledger and claim there or not, its paths staged or not, its commit taken back; every session", async () => {
    const w = world();
    const wrong: string[] = [];
    await fc.assert(
      fc.asyncProperty(sessionEnv, state, async (who, s) => {
        await turn();
        arrange(w, s);
        const d = differs(w, 'pre-commit', [], authored(s, who));
        if (d) wrong.push(`${JSON.stringify(s)} ${d}`);
      }),
      { numRuns: 40 },
    );
    expect(wrong).toEqual([]);
  }, 600_000);

  it('reference-transaction: updates of branches (forward, back over another session\'s commit, created, deleted), of handoff, receipt, replace and other refs; each state', async () => {
    const w = world();
    const { base, theirs, child, sibling } = w.oid;
    const Z = '0'.repeat(40);
    const line = fc.constantFrom(
      `${theirs} ${child} refs/heads/main`,
      `${theirs} ${sibling} refs/heads/main`,
      `${Z} ${sibling} refs/heads/main`,
      `${Z} ${child} refs/heads/side`,
      `${theirs} ${Z} refs/heads/main`,
      `${theirs} ${child} HEAD`,
      `${Z} ${child} refs/handoffs/main/some-topic`,
      `${Z} ${base} refs/handoff-archive/main/some-topic`,
      `${Z} ${child} refs/notes/handoff-reads`,
      `${Z} ${child} refs/replace/${theirs}`,
      `${Z} ${child} refs/tags/v1`,
      `${Z} ${child} refs/remotes/origin/main`,
      `${Z} ${child} refs/handoff-leases/x`,
    );
    const wrong: string[] = [];
    await fc.assert(
      fc.asyncProperty(sessionEnv, fc.constantFrom('prepared', 'committed', 'aborted'), fc.array(line, { minLength: 1, maxLength: 3 }), state, async (who, phase, lines, s) => {
        await turn();
        arrange(w, s);
        const d = differs(w, 'reference-transaction', [phase], who, `${lines.join('\n')}\n`);
        if (d) wrong.push(d);
      }),
      { numRuns: 60 },
    );
    expect(wrong).toEqual([]);
  }, 600_000);

  it('pre-push: every push is the handler\'s', () => {
    const w = world();
    const Z = '0'.repeat(40);
    for (const who of [{}, { GIT_HANDOFF_SESSION: A }] as Array<Record<string, string>>) {
      expect(differs(w, 'pre-push', ['origin', 'file:///nowhere'], who, `refs/heads/main ${w.oid.theirs} refs/heads/main ${Z}\n`)).toBeNull();
    }
    expect(existsSync(path.join(w.hooks, 'pre-push'))).toBe(true);
  }, 120_000);
});
