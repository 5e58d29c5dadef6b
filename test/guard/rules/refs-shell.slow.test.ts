// src/guard/rules/refs.ts: raw handoff ref writes from the shell — every way around `git handoff` — are refused, and
// reads and ordinary git allowed.
import { expect, it } from 'vitest';
import { slowDescribe } from '../../helpers/sets';
import { makeRepo, refOf } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload, shellCall as bash, writeHandoff } from '../helpers';

slowDescribe('raw handoff ref writes', () => {
  it('refuses every way around git handoff, and allows reads and ordinary git', async () => {
    const repo = makeRepo({ commit: true });
    await writeHandoff(repo, 'auth-refactor', 'body', OTHER);
    // the remote the person configured, which the allowed fetch names
    repo.git(['remote', 'add', 'origin', 'https://example.com/x.git']);
    const refused = [
      'git update-ref -d refs/handoffs/main/auth-refactor',
      'git -C . update-ref refs/handoffs/main/auth-refactor HEAD',
      'git --git-dir=.git update-ref refs/handoff-archive/main/auth-refactor/1-abc HEAD',
      'echo "delete refs/handoffs/main/auth-refactor" | git update-ref --stdin',
      'git for-each-ref --format="%(refname)" refs/handoffs | xargs -n1 git update-ref -d',
      'env GIT_DIR=.git git update-ref -d refs/handoff-leases/x',
      'cd src; git update-ref -d refs/handoffs/main/auth-refactor',
      "bash -lc 'set -e; git update-ref -d refs/handoffs/main/auth-refactor'",
      'sh -c "sh -c \\"git update-ref -d refs/handoffs/main/auth-refactor\\""',
      'echo $(git update-ref -d refs/handoffs/main/auth-refactor)',
      'echo `git update-ref -d refs/handoffs/main/auth-refactor`',
      'true\ngit update-ref -d refs/handoffs/main/auth-refactor',
      'git push origin +refs/handoffs/main/auth-refactor',
      'git push --force origin refs/handoffs/*:refs/handoffs/*',
      'git push origin :refs/handoffs/main/auth-refactor',
      'git push --mirror origin',
      'git fetch origin +refs/handoffs/*:refs/handoffs/*',
      'echo 0000 > .git/refs/handoffs/main/auth-refactor',
      'rm -rf .git/refs/handoffs',
      'sed -i /handoffs/d .git/packed-refs',
      'git pack-refs --all && echo x >> .git/packed-refs',
    ];
    // An argv-style command (Codex's shell tool) is read back with its quoting intact.
    const argv = await guard(repo, payload(repo, 'codex/pre-tool-use-bash.json', { tool_name: 'shell', tool_input: { command: ['bash', '-lc', 'git update-ref -d refs/handoffs/main/auth-refactor'] } }));
    expect(denial(argv)).toBeTruthy();
    for (const c of refused) {
      const r = await bash(repo, c);
      expect(denial(r), c).toBeTruthy();
    }
    for (const c of [
      'git log --oneline',
      'git show refs/handoffs/main/auth-refactor',
      'git for-each-ref refs/handoffs',
      'git push origin main',
      'git push --force origin feature',
      'git fetch origin',
      'git fetch origin +refs/handoffs/*:refs/remotes/origin/handoffs/*',
      'git update-ref refs/heads/topic HEAD',
      'git handoff archive auth-refactor',
      'cat .git/packed-refs',
      'npm test > out.log 2>&1',
    ]) {
      expect(denial(await bash(repo, c, { GIT_HANDOFF_SESSION: ME })), c).toBeNull();
    }
    expect(refOf(repo, 'refs/handoffs/main/auth-refactor')).not.toBeNull();
  });
});
