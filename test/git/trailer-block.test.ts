// git's trailer block found in this process (src/git/trailers.ts gitTrailerBlock, addTrailersInProcess) against git
// itself: the trailers an agent's commit gets (prepare-commit-msg) against `git interpret-trailers --in-place` with the
// same arguments, and a commit's `%(trailers)` against `git for-each-ref`, on hand-picked messages and on messages
// made of the lines that move git's reading (titles, blank and space-only lines, comments, a scissors line and a diff,
// `---` dividers, trailers in every spelling, continuations, git's own prefixes, an old Conflicts: block, CRLF, bytes
// that are not ASCII, a NUL). Every answer is git's, or null (git is asked then).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addTrailersInProcess, commitTrailerBlock } from '../../src/git/trailers';
import { isolatedEnv, tempDir } from '../helpers/repo';

const TRAILERS: Array<[string, string]> = [
  ['Claude-Session-Id', '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90'],
  ['Handoff-Client', 'claude-code'],
];
const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
const SCISSORS = '# ------------------------ >8 ------------------------';

const LINES = [
  'Fix the login redirect',
  'A body line that says why.',
  '',
  '',
  '   ',
  '\t',
  '# a comment git strips',
  '#',
  SCISSORS,
  '# Do not modify or remove the line above.',
  'diff --git a/x.ts b/x.ts',
  '---',
  '--- a/x.ts',
  '---x',
  '---: x',
  'Claude-Session-Id: 9b1e77d0-2c3d-4e5f-8a9b-0c1d2e3f4a5b',
  'Claude-Session-Id:other',
  'claude-session-id : spaced',
  'Handoff-Client: codex',
  'Handoff: h',
  'C: c',
  'Signed-off-by: A U Thor <a@example.com>',
  '(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)',
  'Reviewed-by: someone',
  'Key: value',
  'Key:value',
  'Key : value',
  'Key: value  ',
  'Key:',
  'Key: ',
  'key-x: v',
  'Multi word: not a trailer',
  'Bug #43',
  ': no token',
  '  continued value',
  '\tcontinued value',
  'Conflicts:',
  '\tpath/a.ts',
  `${utf8('Ünï')}: x`,
  utf8('Café au lait.'),
  'Key: value\r',
  'Fix\r',
];

/** A message of generated lines, each ended by LF (or CRLF), the last maybe not ended. */
const messages = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...LINES), fc.constantFrom('\n', '\n', '\n', '\n', '\r\n')), { minLength: 1, maxLength: 9 }),
    fc.boolean(),
    fc.integer({ min: 0, max: 40 }),
  )
  .map(([lines, ended, nul]) => {
    const text = lines.map(([l, end]) => l + end).join('');
    const cut = ended ? text : text.replace(/\r?\n$/, '');
    // now and then a NUL, which git reads as the message's end
    return nul === 0 ? `${cut.slice(0, 5)}\0${cut.slice(5)}` : cut;
  });

const HAND_PICKED = [
  'Fix the login redirect\n',
  'Fix the login redirect\n\nA body line that says why.\n',
  'Fix the login redirect\n\nSigned-off-by: A U Thor <a@example.com>\n',
  'Fix the login redirect\n\nReviewed-by: someone\nKey: value\n',
  `Fix the login redirect\n\n# Please enter the commit message for your changes.\n#\n`,
  `Fix the login redirect\n\nBody.\n\n${SCISSORS}\n# Do not modify or remove the line above.\ndiff --git a/x b/x\n`,
  "Merge branch 'side'\n",
  'Revert "x"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.\n',
];

function gitEnv(): NodeJS.ProcessEnv {
  const home = path.join(tempDir('gh-trailer-block-'), 'home');
  spawnSync('mkdir', ['-p', home]);
  return { ...isolatedEnv(home), LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' };
}

/** `git interpret-trailers --in-place` as prepare-commit-msg's handler runs it, on `message`'s bytes. */
function gitAdds(dir: string, env: NodeJS.ProcessEnv, message: string): string {
  const file = path.join(dir, 'COMMIT_EDITMSG');
  writeFileSync(file, Buffer.from(message, 'latin1'));
  const args = ['interpret-trailers', '--in-place', '--no-divider', '--where', 'end', '--if-exists', 'doNothing', ...TRAILERS.flatMap(([k, v]) => ['--trailer', `${k}: ${v}`]), file];
  const r = spawnSync('git', args, { cwd: dir, env });
  if (r.status !== 0) throw new Error(`git interpret-trailers failed: ${r.stderr}`);
  return readFileSync(file).toString('latin1');
}

describe("an agent's trailers written in this process", () => {
  it('hand-picked messages: written here, as git writes them', () => {
    const env = gitEnv();
    const dir = tempDir('gh-trailer-add-');
    for (const m of HAND_PICKED) {
      const own = addTrailersInProcess(m, TRAILERS);
      expect(own, JSON.stringify(m)).not.toBeNull();
      expect(own, JSON.stringify(m)).toBe(gitAdds(dir, env, m));
    }
  });

  it('generated messages: git\'s answer or none (then git writes them); most are written here', () => {
    const env = gitEnv();
    const dir = tempDir('gh-trailer-add-');
    let here = 0;
    let runs = 0;
    fc.assert(
      fc.property(messages, (raw) => {
        // the handler ends a message with a line feed before adding (git merge writes none)
        const m = raw.endsWith('\n') ? raw : `${raw}\n`;
        runs++;
        const own = addTrailersInProcess(m, TRAILERS);
        if (own === null) return;
        here++;
        expect(own).toBe(gitAdds(dir, env, m));
      }),
      { numRuns: 300, seed: 52 },
    );
    expect(here / runs).toBeGreaterThan(0.3);
  }, 120_000);

  it('leaves to git what it does not read as git would print it', () => {
    for (const m of ['Fix\n\nKey:value\n', 'Fix\n\nKey: v\n  more\n', 'Fix\n\nKey: v\n# c\nOther: w\n', 'Fix\0x\n', 'Fix']) {
      expect(addTrailersInProcess(m, TRAILERS), JSON.stringify(m)).toBeNull();
    }
    expect(addTrailersInProcess('Fix\n', [['Claude-Session-Id', ' spaced ']])).toBeNull();
  });
});

describe("a commit's trailer block read in this process", () => {
  it("is git's %(trailers) of for-each-ref for hand-picked and generated messages, or none", () => {
    const env = gitEnv();
    const dir = path.join(tempDir('gh-trailer-block-'), 'repo');
    spawnSync('git', ['init', '-q', dir], { env });
    const msgs = [...HAND_PICKED, 'lease: s1\n\nClaude-Session-Id: s1\nHandoff-Worktree: /w/a\n', ...fc.sample(messages, { numRuns: 250, seed: 39 })];
    // one fast-import for every commit, each under refs/t/<i>, each message as its bytes
    const stream = msgs.map((m, i) => {
      const data = Buffer.from(m, 'latin1');
      return Buffer.concat([Buffer.from(`commit refs/t/${i}\ncommitter A <a@example.com> 1700000000 +0000\ndata ${data.length}\n`), data, Buffer.from('\n')]);
    });
    const r = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, env, input: Buffer.concat(stream) });
    expect(r.status, String(r.stderr)).toBe(0);
    const out = spawnSync('git', ['for-each-ref', '--format=%(refname)%00%(trailers)%00'], { cwd: dir, env }).stdout.toString('latin1');
    const git = new Map<string, string>();
    for (const rec of out.split('\0\n')) {
      const [ref, block] = rec.split('\0');
      if (ref) git.set(ref, block);
    }
    let here = 0;
    msgs.forEach((m, i) => {
      const own = commitTrailerBlock(m);
      if (own === null) return;
      here++;
      expect(own, JSON.stringify(m)).toBe(git.get(`refs/t/${i}`));
    });
    expect(here / msgs.length).toBeGreaterThan(0.8);
  }, 120_000);
});
