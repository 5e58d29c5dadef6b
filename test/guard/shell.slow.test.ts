// The shell classifier on its own: simple commands, wrappers, nesting, targets; it never throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { surelyHarmless, firstParse } from '../../src/guard/allow';
import { LexBound } from '../../src/guard/shell/lex';
import { gitInvocation } from '../../src/guard/shell/git';
import { parseShell } from '../../src/guard/shell/parse';
import { writeTargets } from '../../src/guard/shell/writes';

const mayConcernHandoffs = (command: string) => !surelyHarmless({ type: 'shell', command, cwd: null }, firstParse(command, process.cwd()));

const argvs = (s: string) => parseShell(s, '/repo').map((c) => c.argv);
const targets = (s: string) => parseShell(s, '/repo').flatMap(writeTargets).map((t) => `${t.kind}:${t.path}`);

describe('parseShell', () => {
  it('splits chains, subshells, substitutions and lines into simple commands', () => {
    expect(argvs('a && b || c; d | e & f')).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], ['f']]);
    expect(argvs('(cd x; rm y) | tee z')).toEqual([['cd', 'x'], ['rm', 'y'], ['tee', 'z']]);
    // A $(…) or `…` stays in its word as text (not literal), and its script is read as commands of their own.
    expect(argvs('echo $(git push) `git fetch`')).toEqual([['echo', '$(git push)', '`git fetch`'], ['git', 'push'], ['git', 'fetch']]);
    expect(argvs('$(which git) update-ref -d r').slice(0, 2)).toEqual([['$(which git)', 'update-ref', '-d', 'r'], ['which', 'git']]);
    expect(argvs('echo "x $(git update-ref -d r)"')).toContainEqual(['git', 'update-ref', '-d', 'r']);
    expect(argvs('one\ntwo "three\nfour"')).toEqual([['one'], ['two', 'three\nfour']]);
    expect(argvs('cat <<EOF > f\ngit update-ref -d x\nEOF\nls')).toEqual([['cat'], ['ls']]);
  });

  it('unwraps assignments, env, sudo, timeout, xargs and sh -c', () => {
    const [c] = parseShell('A=1 env -u B FOO=2 sudo -u root timeout 5 git status', '/repo');
    expect(c.argv).toEqual(['git', 'status']);
    expect(c.assigns).toMatchObject({ A: '1', FOO: '2' });
    expect(parseShell('find . | xargs -0 -n 1 rm', '/repo')[1]).toMatchObject({ argv: ['rm'], xargs: true });
    expect(argvs(`bash -lc 'cd sub && sh -c "git reset --hard"'`).filter((a) => a.length)).toEqual([['cd', 'sub'], ['git', 'reset', '--hard']]);
  });

  it('tracks cd and git -C', () => {
    const cmds = parseShell('cd a && git -C ../b commit --amend', '/repo');
    expect(cmds[1].cwd).toBe('/repo/a');
    expect(gitInvocation(cmds[1])).toMatchObject({ sub: 'commit', args: ['--amend'], cwd: '/repo/b' });
    expect(gitInvocation(parseShell('git --git-dir=.git -c a=b --no-pager update-ref -d r')[0])).toMatchObject({ sub: 'update-ref', gitDir: '.git', args: ['-d', 'r'] });
  });

  it('finds the files a command writes', () => {
    expect(targets('a > f1 2>&1 >> f2 &> f3')).toEqual(['write:f1', 'append:f2', 'write:f3']);
    expect(targets('x | tee -a t1 t2')).toEqual(['append:t1', 'append:t2']);
    expect(targets("sed -i 's/a/b/' s1 && sed -i.bak -e x s2")).toEqual(['write:s1', 'write:s2']);
    expect(targets('cp a b dir && mv m n && rm -rf r1 r2')).toEqual(['write:dir', 'write:dir/a', 'write:dir/b', 'write:n', 'write:n/m', 'delete:m', 'delete:r1', 'delete:r2']);
    expect(targets('dd if=x of=o && touch t && echo > /dev/null')).toEqual(['write:o', 'write:t']);
  });

  it('the cheap first look never skips a command that has a write target or a git step', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('npm', 'test', 'ls', '-la', 'x', '>', '|', ';', '&&', 'tee', 'git', 'rm', 'cp', 'a b', "'q'", 'sed', '-i', 'f.md', 'sh', '-c', '$(', ')'), { maxLength: 12 }), (words) => {
        const cmd = words.join(' ');
        const relevant = parseShell(cmd, '/repo').some((c) => writeTargets(c).length > 0 || gitInvocation(c) !== null);
        if (relevant) expect(mayConcernHandoffs(cmd)).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(mayConcernHandoffs('npm test')).toBe(false);
    expect(mayConcernHandoffs('npm run build -- --watch')).toBe(false);
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        let cmds: ReturnType<typeof parseShell> = [];
        try {
          cmds = parseShell(s, '/repo');
        } catch (e) {
          // a bound of the reader is the one error it may give (the caller refuses what names protected things)
          expect(e).toBeInstanceOf(LexBound);
        }
        for (const c of cmds) {
          writeTargets(c);
          gitInvocation(c);
        }
      }),
      { numRuns: 500 },
    );
  });
});
