// src/guard/rules/rewrite.ts: amend, rebase and reset over another session's commit are refused naming both sessions
// and the commit; over one's own or a person's commits, and commands that move nothing, they pass.
import { expect, it } from 'vitest';
import { quickDescribe } from '../../helpers/sets';
import { makeRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload, shellCall as bash } from '../helpers';

quickDescribe('rewriting another session\'s commits', () => {
  function history() {
    const repo = makeRepo({ commit: true });
    const person = repo.commit('a person\'s commit', { 'a.txt': 'a' });
    const theirs = repo.commit(`their work\n\nClaude-Session-Id: ${OTHER}`, { 'b.txt': 'b' });
    return { repo, person, theirs };
  }

  it('refuses amend, rebase and reset over another session\'s commit, naming both sessions and the commit', async () => {
    const { repo, person, theirs } = history();
    for (const c of ['git commit --amend -m "mine now"', 'git commit -a --amend --no-edit', `git rebase -i ${person}`, 'git reset --hard HEAD~1', `git reset --soft ${person}`, 'git rebase --root']) {
      const reason = denial(await bash(repo, c));
      expect(reason, c).toContain(`session ${OTHER.slice(0, 8)}`);
      expect(reason, c).toContain(`you are session ${ME.slice(0, 8)}`);
      expect(reason, c).toContain(theirs.slice(0, 12));
      expect(reason, c).toMatch(/git worktree add/);
    }
  });

  it('allows them over one\'s own or a person\'s commits, and commands that move nothing', async () => {
    const { repo, person, theirs } = history();
    for (const c of ['git reset --hard HEAD', 'git reset a.txt', 'git reset', 'git reset HEAD~1 -- b.txt', 'git reset HEAD~1 b.txt', 'git rebase --continue', `git rebase ${theirs}`]) {
      expect(denial(await bash(repo, c)), c).toBeNull();
    }
    const own = repo.commit(`my work\n\nClaude-Session-Id: ${ME}`, { 'c.txt': 'c' });
    expect(denial(await bash(repo, 'git commit --amend -m better'))).toBeNull();
    expect(denial(await bash(repo, `git reset --hard ${theirs}`))).toBeNull();
    expect(own).toBeTruthy();
    repo.git(['reset', '-q', '--hard', person]);
    repo.commit('person again', { 'd.txt': 'd' });
    expect(denial(await bash(repo, 'git commit --amend -m better'))).toBeNull();
    expect(denial(await bash(repo, 'git reset --hard HEAD~1'))).toBeNull();
  });

  it('follows git -C into another repository', async () => {
    const { repo } = history();
    const outer = makeRepo({ commit: true });
    const r = await guard(outer, payload(outer, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: `git -C ${repo.dir} reset --hard HEAD~1` } }));
    expect(denial(r)).toContain(OTHER.slice(0, 8));
  });
});
