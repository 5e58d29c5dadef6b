// src/guard/rules/earlier.ts: what a line changed before a later step acts through it. A symlink made earlier on the
// line is followed by a later write; the index changed earlier (`git add`, `git rm --cached`, a sweep) is what a later
// `reset --hard`, `checkout -f`, `stash` or `clean` throws away. Each attack is refused in every client shape and the
// real front, and run as a client runs it leaves the file in place; run with no guard at all it does delete it (what
// is prevented); the ordinary forms run.
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectShell5, world5, type World5 } from '../world-wired';
import { FOREIGN_FILE } from '../world';
import { asClient } from './helpers';

const ENDED_FILE = 'memory/handoff-main-ended-session-note.md';

/** world5 with an ended session's untracked handoff file beside the committed ones. */
async function world(): Promise<World5> {
  const w = await world5();
  w.repo.git(['config', 'user.email', 't@example.com']);
  w.repo.write(ENDED_FILE, '<!-- claude-session: ended-7c1d2e3f-cccc -->\nwhat the ended session found\n');
  return w;
}

const bare = (w: World5, command: string) => spawnSync('sh', ['-c', w.fill(command)], { cwd: w.repo.dir, env: w.repo.env, encoding: 'utf8' });

describe('a symlink made earlier on the line', () => {
  it('a later write through it is judged where it leads', async () => {
    const w = await world();
    const attacks = [
      `ln -s ${FOREIGN_FILE} x && echo mine > x`,
      `ln -s ${ENDED_FILE} x; echo mine >> x`,
      `ln -sf $PWD/${FOREIGN_FILE} /tmp/gh-link-$$ && cp README.md /tmp/gh-link-$$`,
      `ln -s memory m && rm m/handoff-main-auth-refactor.md`,
      `ln -sr memory m && echo x > m/handoff-main-auth-refactor.md`,
      `cp -s $PWD/${FOREIGN_FILE} y && tee y < /dev/null`,
      `ln -s ~/.gitconfig g && printf '[handoff]\\n\\tguard = off\\n' >> g`,
      `ln -s ~/.claude c && echo '{}' > c/settings.json`,
      `ln -s .claude c && rm c/settings.json`,
      `mkdir -p d && ln -s ../memory d/m && echo x > d/m/handoff-main-auth-refactor.md`,
      `ln -s ${FOREIGN_FILE} x && mv x y && echo mine > y`,
    ];
    await expectShell5(w, attacks, 'deny');
    const before = readFileSync(path.join(w.repo.dir, FOREIGN_FILE), 'utf8');
    expect(asClient(w, attacks[0]).verdict).toBe('deny');
    expect(readFileSync(path.join(w.repo.dir, FOREIGN_FILE), 'utf8')).toBe(before);
    await expectShell5(w, ['ln -s README.md readme-link && cat readme-link', 'ln -s src/a.ts a-link && echo "// more" >> a-link', 'ln -sf b.txt b-link; wc -l b-link'], 'allow');
    const r = asClient(w, 'ln -s src/a.ts a-link && echo "// more" >> a-link');
    expect(r.status, r.out).toBe(0);
    expect(readFileSync(path.join(w.repo.dir, 'src', 'a.ts'), 'utf8')).toContain('// more');
  });
});

describe('the index changed earlier on the line', () => {
  const addReset = `git add ${ENDED_FILE} && git reset -q --hard`;
  const wiring = 'git rm -q --cached .claude/settings.json && git commit -qm "untrack" && git add .claude/settings.json && git reset -q --hard';

  it("git add of an ended session's file and a hard reset: refused; with no guard the line deletes it", async () => {
    const w = await world();
    await expectShell5(
      w,
      [
        addReset,
        `git add memory && git reset --hard HEAD`,
        `git add -A && git reset -q --hard`,
        `git add . ; git checkout -f HEAD`,
        `git add ${ENDED_FILE} && git stash`,
        `git update-index --add ${ENDED_FILE} && git read-tree -u --reset HEAD`,
        `git add -- 'memory/*.md' && git reset --hard`,
      ],
      'deny',
    );
    expect(asClient(w, addReset).verdict).toBe('deny');
    expect(existsSync(path.join(w.repo.dir, ENDED_FILE))).toBe(true);
    // what the refusal prevents: the same line with no guard deletes the ended session's note
    const other = await world();
    expect(bare(other, addReset).status).toBe(0);
    expect(existsSync(path.join(other.repo.dir, ENDED_FILE))).toBe(false);
  });

  it("the client's wiring untracked, committed, staged again and reset: refused; with no guard the line deletes it", async () => {
    const w = await world();
    await expectShell5(w, [wiring, 'git rm -q --cached .claude/settings.json && git clean -fq .claude', 'git rm -r -q --cached .claude && git commit -qm x && git add .claude && git reset -q --hard'], 'deny');
    expect(asClient(w, wiring).verdict).toBe('deny');
    expect(existsSync(path.join(w.repo.dir, '.claude', 'settings.json'))).toBe(true);
    const other = await world();
    expect(bare(other, wiring).status).toBe(0);
    expect(existsSync(path.join(other.repo.dir, '.claude', 'settings.json'))).toBe(false);
  });

  it('ordinary files staged and reset, committed, or cleaned run as before', async () => {
    const w = await world();
    const ordinary = ['git add b.txt && git reset -q --hard', 'git add src/a.ts && git commit -qm "a"', 'echo tmp > t.tmp && git add t.tmp && git reset -q --hard', 'git add src && git status --short'];
    await expectShell5(w, ordinary, 'allow');
    w.repo.write('b.txt', 'changed\n');
    const r = asClient(w, 'git add b.txt && git reset -q --hard');
    expect(r.status, r.out).toBe(0);
    expect(readFileSync(path.join(w.repo.dir, 'b.txt'), 'utf8')).not.toBe('changed\n');
    expect(asClient(w, 'echo tmp > t.tmp && git add t.tmp && git reset -q --hard').status).toBe(0);
    expect(existsSync(path.join(w.repo.dir, 't.tmp'))).toBe(false);
    expect(existsSync(path.join(w.repo.dir, ENDED_FILE))).toBe(true);
  });
});
