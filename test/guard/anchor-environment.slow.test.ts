// Issue 70, class 3: a git or git-handoff command run with HOME, XDG_* or PATH other than the hook's own
// (src/guard/rules/git-invocation.ts anchorEnvironmentProblem) is refused through every client's shape in-process and
// the real sh front, and a refused commit makes none; the same variables for other programs, and the hook's own values, pass.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/repo';
import { expectShell5, expectWrite5, world5 } from './world-wired';
import { asClient } from './rules/helpers';

describe('HOME, XDG_* and PATH given to git or git-handoff', () => {
  it('every spelling that changes them is refused, and a refused commit makes none', async () => {
    const w = await world5();
    // a user configuration the session wrote: no hooks, and a retention that prunes every archive entry
    const fake = path.join(w.empty, 'fakehome');
    mkdirSync(fake);
    writeFileSync(path.join(fake, '.gitconfig'), '[core]\n\thooksPath = /dev/null\n[handoff]\n\tarchiveRetention = 1s,0\n');
    const attacks = [
      `HOME=${fake} git commit --allow-empty -m x`,
      `HOME=${fake} git handoff gc`,
      `HOME=${fake} git-handoff gc`,
      `XDG_CONFIG_HOME=${fake} git commit --allow-empty -m x`,
      'XDG_CACHE_HOME=$EMPTY git commit --allow-empty -m x',
      'XDG_STATE_HOME=$EMPTY git handoff list',
      'XDG_DATA_HOME=$EMPTY git status',
      `env HOME=${fake} git commit --allow-empty -m x`,
      `command env HOME=${fake} git log -1`,
      `exec env XDG_CONFIG_HOME=${fake} git-handoff gc`,
      `export HOME=${fake}; git commit --allow-empty -m x`,
      `export HOME=${fake}; HOME=\${HOME} git commit --allow-empty -m x`,
      `export XDG_CONFIG_HOME=${fake} && git log -1`,
      `sh -c 'HOME=${fake} git commit --allow-empty -m x'`,
      `bash -c "export HOME=${fake}; git handoff gc"`,
      'PATH=$EMPTY:$PATH git commit --allow-empty -m x',
      'HOME= git commit --allow-empty -m x',
      'env -u HOME git commit --allow-empty -m x',
      'env -i git log -1',
      'env -i PATH=$PATH git status',
      'HOME=$(mktemp -d) git log -1',
      `HOME=${fake} node ${ROOT}/dist/cli.cjs gc`,
    ];
    await expectShell5(w, attacks, 'deny');
    const head = w.repo.git(['rev-parse', 'HEAD']).stdout;
    const refs = w.repo.git(['for-each-ref']).stdout;
    const r = asClient(w, attacks[0]);
    expect(r.verdict).toBe('deny');
    expect(r.out).toContain('without `HOME=…`');
    expect(asClient(w, attacks[1]).verdict).toBe('deny');
    expect(w.repo.git(['rev-parse', 'HEAD']).stdout).toBe(head);
    expect(w.repo.git(['for-each-ref']).stdout).toBe(refs);
  });

  it('the same variables for other programs, and the values the hook has, pass', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        'HOME=/tmp/x ls',
        'PATH=/x:$PATH npm test',
        'XDG_CONFIG_HOME=/x cat README.md',
        'env -u HOME ls',
        'XDG_CACHE_HOME=$EMPTY echo hi',
        'export PATH=$EMPTY:$PATH; ls',
        'HOME=$HOME git status',
        'HOME="${HOME}" git log -1',
        'HOME=~ git status',
        'env HOME=$HOME/ git log --oneline -1',
        'export PATH="$PATH"; git status',
        // directories after the hook's PATH, where node, git and the rest are found first
        'export PATH=$PATH:/usr/local/bin && git handoff list',
        'PATH=$PATH:$EMPTY git log -1',
      ],
      'allow',
    );
  });
});
