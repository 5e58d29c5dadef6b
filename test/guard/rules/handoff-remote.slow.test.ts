// src/guard/rules/refs.ts (repointedRemote) and rules/git-invocation.ts (oneOffKeysProblem): a session may not repoint
// the handoff remote (its URL, its name, an insteadOf) nor run git with git-handoff's own settings changed for one
// command (`git -c handoff.guard=off commit`); another remote, and reading, stay allowed.
import { describe, it } from 'vitest';
import { expectShell5, world5 } from '../world-wired';

describe('the handoff remote and one-off handoff settings', () => {
  it('refuses repointing the handoff remote and one-off handoff.* settings, in every client shape', async () => {
    const w = await world5();
    w.repo.git(['remote', 'add', 'origin', w.evilRepo]);
    await expectShell5(
      w,
      [
        'git -c handoff.guard=off commit -m x',
        'git -c handoff.claims=tell commit -m x',
        'git -c handoff.remote=evil handoff sync',
        'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=handoff.guard GIT_CONFIG_VALUE_0=off git commit -m x',
        'git -c core.hooksPath=/tmp/x commit -m x',
        'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/tmp/x git commit -m x',
        'git config handoff.remote evil',
        'git remote add evil /tmp/evil && git config handoff.remote evil',
        'git remote set-url origin /tmp/evil',
        'git remote set-url --push origin /tmp/evil',
        'git remote rename origin old && git remote add origin /tmp/evil',
        'git remote remove origin',
        'git config remote.origin.url /tmp/evil',
        'git config --add remote.origin.pushurl /tmp/evil',
        'git config url./tmp/evil.insteadOf $EVILREPO',
      ],
      'deny',
    );
  });

  it('allows another remote, reading the settings, and a one-off handoff setting for a reading verb', async () => {
    const w = await world5();
    w.repo.git(['remote', 'add', 'origin', w.evilRepo]);
    await expectShell5(
      w,
      [
        'git remote -v',
        'git remote add upstream https://example.com/x.git',
        'git remote add upstream /x && git remote set-url upstream /y',
        'git config remote.origin.url',
        'git config branch.main.remote origin',
        'git -c handoff.guard=off log -1',
      ],
      'allow',
    );
  });
});
