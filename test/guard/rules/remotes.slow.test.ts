// Remotes are the person's (src/guard/rules/git-config.ts remoteSettingProblem, rules/refs.ts `git remote`,
// rules/anchors.ts handoffSource): a session may not add, repoint, rename or remove a remote in any configuration git
// reads, nor take handoffs from a repository that is not a configured remote, nor run git with git-handoff's own
// settings changed for one command; reading remotes and fetching from a configured one stay allowed. The attack of
// issue 70 (a forged version of another session's handoff planted in a bare repository, then synced) is run for real.
import { spawnSync } from 'node:child_process';
import { mkdirSync, copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../../helpers/repo';
import { expectShell5, world5 } from '../world-wired';
import { bash, denial, ME, OTHER, writeHandoff } from '../helpers';

describe('remotes are the person’s', () => {
  it('refuses changing remotes in every scope and spelling, handoffs from a repository that is not a remote, and one-off handoff.* settings', async () => {
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
        'git config handoff.remote evil',
        // which remotes there are and where they lead
        'git remote add backup $EVILREPO',
        'git remote add upstream https://example.com/x.git',
        'git remote set-url origin /tmp/evil',
        'git remote set-url --push origin /tmp/evil',
        'git remote rename origin old',
        'git remote remove origin',
        'git remote rm origin',
        'git remote set-branches origin main',
        'git config remote.backup.url $EVILREPO',
        'git config --add remote.origin.pushurl /tmp/evil',
        'git config set remote.origin.url /tmp/evil',
        "git config --add remote.origin.fetch '+refs/handoffs/*:refs/handoff-remotes/origin/handoffs/*'",
        'git config --unset remote.origin.url',
        'git config --remove-section remote.origin',
        'git config --rename-section remote.origin remote.old',
        'git config url.$EVILREPO.insteadOf origin',
        'git config url./tmp/evil.pushInsteadOf $EVILREPO',
        'git config --global url./tmp/evil.insteadOf https://example.com/',
        'git config --file $HOME/.gitconfig remote.backup.url /tmp/evil',
        'git config --file .git/config remote.backup.url /tmp/evil',
        'git config --file ~/extra.gitconfig remote.backup.url /tmp/evil',
        'git config branch.main.remote backup',
        'git config branch.main.pushRemote backup',
        'git config remote.pushDefault backup',
        "printf '[remote \"backup\"]\\n\\turl = /tmp/evil\\n' >> .git/config",
        // one command's remote repointed
        'git -c remote.origin.url=$EVILREPO fetch',
        'git -c url.$EVILREPO.insteadOf=origin pull',
        'git -c remote.origin.url=$EVILREPO handoff sync',
        'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=/tmp/evil git fetch origin',
        // handoffs from a repository that is not a configured remote
        'git handoff sync $EVILREPO',
        'git handoff fetch file://$EVILREPO',
        'git handoff sync backup',
        'git handoff sync --resolve a-b --keep local $EVILREPO',
        "git fetch $EVILREPO 'refs/handoffs/*:refs/handoff-remotes/origin/handoffs/*'",
        'git fetch $EVILREPO refs/handoffs/main/auth-refactor',
        'git pull $EVILREPO handoffs/main/auth-refactor',
      ],
      'deny',
    );
  });

  it('allows reading remotes, fetching from a configured one, another file, and a one-off setting for a reading verb', async () => {
    const w = await world5();
    w.repo.git(['remote', 'add', 'origin', w.evilRepo]);
    await expectShell5(
      w,
      [
        'git remote',
        'git remote -v',
        'git remote show origin',
        'git remote get-url origin',
        'git config remote.origin.url',
        'git config --get remote.origin.url',
        'git config --get-regexp remote',
        'git config --file /tmp/other.config remote.x.url /tmp/y',
        'git fetch origin',
        'git pull',
        'git fetch $EVILREPO main',
        'git handoff sync',
        'git handoff sync origin',
        'git handoff fetch origin',
        'git -c handoff.guard=off log -1',
        'git -c remote.origin.url=/tmp/x ls-remote origin',
      ],
      'allow',
    );
  });

  it('the planted-version attack, each step run only where the guard allows it, changes neither the remotes nor the handoff', async () => {
    const repo = makeRepo({ commit: true });
    await writeHandoff(repo, 'release-plan', 'S1 text', OTHER);
    const branch = repo.git(['branch', '--show-current']).stdout.trim();
    const ref = `refs/handoffs/${branch}/release-plan`;
    const before = repo.git(['rev-parse', ref]).stdout.trim();
    const shown = async () => String((await repo.cli(['show', 'release-plan'])).stdout);
    const shownBefore = await shown();
    const dir = tempDir('gh-remotes-');
    const x = path.join(dir, 'x.git');
    const scratch = path.join(dir, 'scratch');
    /** A Claude Code Bash call by session ME: the guard first, the command only when it allows. */
    const call = async (command: string) => {
      const reason = denial(await bash(repo, command));
      if (reason === null) {
        const r = spawnSync('sh', ['-c', command], { cwd: repo.dir, env: { ...repo.env, CLAUDE_CODE_SESSION_ID: ME }, encoding: 'utf8' });
        expect(r.status, `${command}: ${r.stderr}`).toBe(0);
      }
      return reason;
    };
    // a version naming OTHER, made in a scratch clone without hooks, planted under refs/handoffs in a bare repository
    writeFileSync(path.join(dir, 'msg'), `handoff(release-plan): attacker text\n\nClaude-Session-Id: ${OTHER}\nHandoff-Branch: ${branch}\nHandoff-Topic: release-plan\n`);
    for (const step of [
      `git init -q --bare ${x}`,
      `git init -q ${scratch}`,
      `git -C ${scratch} fetch -q ${repo.dir} ${ref}:refs/heads/main`,
      `git -C ${scratch} checkout -q main`,
      `echo 'attacker text' > ${scratch}/handoff.md`,
      `git -C ${scratch} add handoff.md`,
      `git -C ${scratch} commit -q -F ${dir}/msg`,
      `git -C ${scratch} push -q ${x} main`,
    ]) {
      expect(await call(step), step).toBeNull();
    }
    mkdirSync(path.join(x, 'refs', 'handoffs', branch), { recursive: true });
    copyFileSync(path.join(x, 'refs', 'heads', 'main'), path.join(x, 'refs', 'handoffs', branch, 'release-plan'));
    expect(await call(`git remote add backup ${x}`)).toMatch(/remotes are the person's/);
    expect(await call('git handoff sync backup')).toMatch(/not a remote the person configured \(this repository has none\)/);
    expect(await call(`git handoff sync ${x}`)).toMatch(/not a remote the person configured/);
    expect(await call(`git fetch ${x} ${ref}`)).toMatch(/not a remote the person configured/);
    expect(repo.git(['remote']).stdout.trim()).toBe('');
    expect(repo.git(['rev-parse', ref]).stdout.trim()).toBe(before);
    expect(await shown()).toBe(shownBefore);
    expect(shownBefore).toContain('S1 text');
  });
});
