// The shell classifier is total (issue 13, item 4): command lines built from the pieces that used to make a rule
// throw (unescaped globs, a .git naming a missing directory, NUL bytes, unbalanced quotes, braces and substitutions,
// long runs, aliases, wrappers) go straight into the rules, in a worktree where another live session has claims,
// so every throw site is reached. The rules never throw; the guard's fail-closed net never has to catch.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectClient } from '../../../src/clients/index';
import { GuardContext } from '../../../src/guard/context';
import { globMatch } from '../../../src/guard/glob';
import { preTool } from '../../../src/guard/rules/pre-tool';
import { appendLedger } from '../../../src/handoff/state/ledger';
import { foreignWorld, ME, OTHER, SHELL_CLIENTS } from '../world';

const ATOMS = [
  'git', 'git add', 'git checkout', 'git reset --hard', 'git clean -f', 'git restore', 'git rm -f', 'git stash', 'git commit -a',
  'git read-tree -u --reset', 'git checkout-index -f', 'git -C broken', 'git -c alias.x=update-ref x', 'git -c alias.y=!sh', 'git update-ref',
  'git push -f', 'git fetch', 'git config', 'git handoff write t --session', 'find . -name', '-delete', 'rm -rf', 'tee', 'sort -o', 'cd', 'node',
  'x[', "'x['", '[', ']', '[!a]', '*', '**', '?', '{a,b}', '{', '}', '{,}', '$(', ')', '`', '"', "'", '\\', '$f', '${f}', 'f=', '\0', '\n',
  '>', '>>', '<', '<<EOF', '|', ';', '&&', '||', '&', 'src/theirs.ts', 'src', ':/', ':(top)', ':!x', 'memory/handoff-main-auth-refactor.md',
  'refs/handoffs/main/auth-refactor', '.git/handoff/audit.jsonl', '--pathspec-from-file=-', '--output=x', '-ffff!', '1'.repeat(300),
  'a'.repeat(200) + '!', 'setsid -w', 'flock l -c', 'eval', 'sh -c', 'xargs', 'env -C', '.', '..', '/', '~',
];

describe('classifier totality', () => {
  it('no generated command line makes a rule throw (every throw site reached: globs, broken .git, claims, NUL, nesting)', async () => {
    const repo = await foreignWorld();
    mkdirSync(path.join(repo.dir, 'broken'));
    writeFileSync(path.join(repo.dir, 'broken', '.git'), 'gitdir: /nonexistent/gitdir\n');
    repo.write('src/theirs.ts', 'their uncommitted work\n');
    appendLedger(path.join(repo.dir, '.git'), { t: Date.now(), session: OTHER, worktree: repo.dir, paths: ['src/theirs.ts'] });
    const { make } = SHELL_CLIENTS[0];
    const failures: string[] = [];
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...ATOMS), { minLength: 1, maxLength: 8 }), async (words) => {
        const command = words.join(' ');
        const p = make(repo, command);
        const event = detectClient(p).parse(p);
        runs++;
        try {
          await preTool(new GuardContext(event, { ...process.env, GIT_HANDOFF_SESSION: ME }));
        } catch (e) {
          failures.push(`${JSON.stringify(command)}: ${(e as Error).message}`);
        }
      }),
      { numRuns: 1500, seed: 13 },
    );
    expect(failures, failures.join("\n")).toEqual([]);
    expect(runs).toBe(1500);
  });

  it('globs match as the shell would, whatever the pattern (never throws, linear on long runs of stars)', () => {
    expect(globMatch('handoff-*.md', 'handoff-main-x.md')).toBe(true);
    expect(globMatch('x[', 'x[')).toBe(true);
    expect(globMatch('x[ab]', 'xa')).toBe(true);
    expect(globMatch('src/*', 'src/a/b.ts')).toBe(true);
    expect(globMatch('a?c', 'abc')).toBe(true);
    expect(globMatch('a?c', 'ac')).toBe(false);
    expect(globMatch('*'.repeat(100_000) + 'x', 'a'.repeat(5000))).toBe(false);
    expect(globMatch('*a'.repeat(50_000), 'a'.repeat(1000) + 'b')).toBe(false);
    fc.assert(fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), (p, t) => typeof globMatch(p, t) === 'boolean'));
  });
});
