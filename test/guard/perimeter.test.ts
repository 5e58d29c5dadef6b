// src/guard/perimeter.ts and src/guard/path-programs.ts: the perimeter holds git-handoff itself — the package the guard
// runs from, each of its commands on PATH and the package it leads to, the clients' plugin and extension folders — and
// its own repositories (the loss record's witness): a write there, or a git command run in or pushing into one, is
// refused in every client shape and through the real front; reading them, and git in ordinary repositories, pass.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/repo';
import { expectShell5, expectWrite5, world5, type World5 } from './world-wired';
import { asClient } from './rules/helpers';

/** A second installation of git-handoff (as npm installs one: a package, and its commands linked from a bin folder at the end of PATH). */
function installed(w: World5): { pkg: string; bin: string } {
  const root = tempDir('gh-installed-');
  const pkg = path.join(root, 'lib', 'node_modules', 'git-handoff');
  const bin = path.join(root, 'bin');
  mkdirSync(path.join(pkg, 'bin'), { recursive: true });
  mkdirSync(path.join(pkg, 'dist'), { recursive: true });
  mkdirSync(bin);
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'git-handoff', bin: { 'git-handoff': 'bin/git-handoff', 'git-handoff-guard': 'bin/git-handoff-guard' } }));
  for (const b of ['git-handoff', 'git-handoff-guard']) {
    writeFileSync(path.join(pkg, 'bin', b), '#!/bin/sh\n', { mode: 0o755 });
    symlinkSync(path.join(pkg, 'bin', b), path.join(bin, b));
  }
  writeFileSync(path.join(pkg, 'dist', 'guard.cjs'), '// the guard\n');
  w.repo.env.PATH = `${w.repo.env.PATH}${path.delimiter}${bin}`;
  // the Gemini CLI extension's folder
  mkdirSync(path.join(w.home, '.gemini', 'extensions', 'git-handoff', 'bin'), { recursive: true });
  return { pkg, bin };
}

describe('git-handoff itself is in the perimeter', () => {
  it('its package, its commands on PATH, the extension folder and the package the guard runs from: writes and deletes refused, reads pass', async () => {
    const w = await world5();
    const { pkg, bin } = installed(w);
    const attacks = [
      `echo 'exit 0' > ${pkg}/bin/git-handoff-guard`,
      `sed -i 's/guard/true/' ${pkg}/dist/guard.cjs`,
      `rm -rf ${pkg}`,
      `rm -rf ${path.dirname(pkg)}`,
      `ln -sf /bin/true ${bin}/git-handoff-guard`,
      `cp /bin/true ${bin}/git-handoff`,
      `python3 -c "open('${pkg}/dist/guard.cjs', 'w').write('')"`,
      `rm -rf ~/.gemini/extensions/git-handoff`,
      `printf 'exit 0' > ~/.gemini/extensions/git-handoff/bin/git-handoff-guard`,
      `truncate -s 0 ${ROOT}/dist/guard.cjs`,
      `mv ${ROOT}/bin/git-handoff-guard /tmp/gh-front-away`,
    ];
    await expectShell5(w, attacks, 'deny');
    await expectWrite5(w, [[`${pkg}/bin/git-handoff-guard`, '#!/bin/sh\nexit 0\n'], [`${ROOT}/bin/git-handoff-guard`, 'exit 0\n']], 'deny');
    const before = readFileSync(path.join(pkg, 'bin', 'git-handoff-guard'), 'utf8');
    expect(asClient(w, attacks[0]).verdict).toBe('deny');
    expect(readFileSync(path.join(pkg, 'bin', 'git-handoff-guard'), 'utf8')).toBe(before);
    await expectShell5(w, [`cat ${pkg}/package.json`, `ls -la ${bin}`, `wc -l ${ROOT}/dist/guard.cjs > /dev/null`, `cp ${pkg}/package.json ${w.empty}/copy.json`], 'allow');
  });

  it('the witness and every repository of git-handoff’s own: git run there or pushing there is refused; reading, and pushing to an ordinary remote, pass', async () => {
    const w = await world5();
    const witness = path.join(w.home, '.local', 'state', 'git-handoff', 'witness', '0123456789abcdef');
    w.repo.git(['init', '-q', '--bare', witness]);
    const remote = path.join(w.empty, 'remote.git');
    w.repo.git(['init', '-q', '--bare', remote]);
    w.repo.git(['remote', 'add', 'origin', remote]);
    w.repo.git(['remote', 'add', 'keep', witness]);
    await expectShell5(
      w,
      [
        `git push ${witness} +HEAD:refs/witness/0123456789abcdef`,
        `git push file://${witness} +HEAD:refs/witness/x`,
        `git push keep +HEAD:refs/witness/x`,
        // the repository by --repo (the operand, when there is one, goes first: git's order)
        `git push --repo=${witness}`,
        `git push --repo keep -f`,
        `git push --repo=origin ${witness} +HEAD:refs/witness/x`,
        `git remote add w2 ${witness} && git push w2 +HEAD:refs/witness/x`,
        `git -C ${witness} update-ref refs/witness/x HEAD`,
        `cd ${witness} && git update-ref refs/witness/x HEAD`,
        `git --git-dir=${witness} update-ref refs/witness/x HEAD`,
        `git --git-dir=${witness} gc --prune=now`,
        `git send-pack ${witness} HEAD:refs/witness/x`,
      ],
      'deny',
    );
    await expectShell5(w, [`git --git-dir=${witness} log --oneline -1`, `git -C ${witness} for-each-ref`, 'git push origin HEAD:refs/heads/work', `git push ${remote} HEAD:refs/heads/other`, `git push --repo=${witness} origin HEAD:refs/heads/work`], 'allow');
    const r = asClient(w, 'git push -q origin HEAD:refs/heads/work');
    expect(r.status, r.out).toBe(0);
  });
});
