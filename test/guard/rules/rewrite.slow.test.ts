// src/guard/rules/rewrite.ts: amend, rebase and reset over another session's commit are refused naming both sessions
// and the commit; over one's own or a person's commits, and commands that move nothing, they pass.
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload, shellCall as bash } from '../helpers';

describe('rewriting another session\'s commits', () => {
  function history() {
    const repo = makeRepo({ commit: true });
    const person = repo.commit('a person\'s commit', { 'a.txt': 'a' });
    const theirs = repo.commit(`their work\n\nClaude-Session-Id: ${OTHER}`, { 'b.txt': 'b' });
    return { repo, person, theirs };
  }

  it('refuses amend, rebase and reset over another session\'s commit, naming both sessions and the commit', async () => {
    const { repo, person, theirs } = history();
    for (const c of ['git commit --amend -m "mine now"', 'git commit -a --amend --no-edit', `git rebase -i ${person}`, `git rebase --exec true ${person}`, 'git reset --hard HEAD~1', `git reset --soft ${person}`, 'git rebase --root']) {
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

  it("refuses deleting, overwriting or re-pointing a branch that holds another session's commits only there", async () => {
    const repo = makeRepo({ commit: true });
    const person = repo.commit("a person's commit", { 'a.txt': 'a' });
    repo.git(['checkout', '-q', '-b', 'x']);
    const onX = repo.commit(`theirs on x\n\nClaude-Session-Id: ${OTHER}`, { 'b.txt': 'b' });
    repo.git(['checkout', '-q', '-b', 'p', person]);
    const onP = repo.commit(`theirs on p\n\nClaude-Session-Id: ${OTHER}`, { 'c.txt': 'c' });
    repo.git(['checkout', '-q', '-b', 'mine', person]);
    repo.commit(`mine\n\nClaude-Session-Id: ${ME}`, { 'd.txt': 'd' });
    repo.git(['checkout', '-q', 'main']);
    const onMain = repo.commit(`theirs on main\n\nClaude-Session-Id: ${OTHER}`, { 'e.txt': 'e' });
    const bare = makeRepo({ commit: false, init: ['--bare'] });
    repo.git(['remote', 'add', 'origin', bare.dir]);
    repo.git(['push', '-q', 'origin', 'main', 'p']);
    const refused: Array<[string, string]> = [
      ['git branch -D x', onX],
      // short options in one cluster, read as git reads them
      ['git branch -qD x', onX],
      ['git branch --delete --force x', onX],
      ['git update-ref -d refs/heads/x', onX],
      ['git push . :x', onX],
      ['git push . --delete x', onX],
      ['git branch -M mine main', onMain],
      ['git branch -C x main', onMain],
      ['git branch -m -f mine x', onX],
      ['git symbolic-ref HEAD refs/heads/x', onX],
      ['git symbolic-ref refs/heads/main refs/heads/mine', onMain],
      [`git update-ref refs/heads/main ${person}`, onMain],
      [`git commit-tree -p ${person} -m x HEAD^{tree} | xargs git update-ref refs/heads/x`, ''],
      ['git push --force origin mine:main', onMain],
      ['git push -fq origin mine:main', onMain],
      ['git push origin +HEAD~1:main', onMain],
      ['git push --force-with-lease origin mine:p', onP],
      ['git push origin :p', onP],
      ['git push origin --delete main', onMain],
    ];
    for (const [c, commit] of refused) {
      const reason = denial(await bash(repo, c));
      expect(reason, c).not.toBeNull();
      if (commit) expect(reason, c).toContain(commit.slice(0, 12));
    }
    // a branch held elsewhere too, one's own, a new name, a fast-forward: allowed
    repo.git(['branch', 'x-copy', 'x']);
    for (const c of ['git branch -D x', 'git branch -D p', 'git branch -D mine', 'git branch -m x z', 'git branch -M mine newname', 'git symbolic-ref HEAD refs/heads/newbranch', 'git symbolic-ref HEAD', `git update-ref refs/heads/mine ${onMain}`, 'git push . main:x9', 'git push origin main', 'git push -f origin mine']) {
      expect(denial(await bash(repo, c)), c).toBeNull();
    }
  });

  it('refuses a plumbing commit whose message claims another session or cannot be read before it runs; its own or none pass', async () => {
    const repo = makeRepo({ commit: true });
    repo.write('msg.txt', `forged\n\nClaude-Session-Id: ${OTHER}\n`);
    repo.write('commit.txt', `tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor a <a@b> 0 +0000\ncommitter a <a@b> 0 +0000\n\nx\n\nClaude-Session-Id: ${OTHER}\n`);
    for (const c of [
      `git commit-tree -m "Claude-Session-Id: ${OTHER}" HEAD^{tree}`,
      `git commit-tree -p HEAD -m x -m "Claude-Session-Id: ${OTHER}" HEAD^{tree} | xargs git update-ref refs/heads/main`,
      'git commit-tree -F msg.txt HEAD^{tree}',
      'git commit-tree HEAD^{tree} < msg.txt',
      `printf 'x\\n\\nClaude-Session-Id: ${OTHER}\\n' | git commit-tree HEAD^{tree}`,
      'git hash-object -t commit -w commit.txt',
    ]) {
      expect(denial(await bash(repo, c)), c).toContain(`claims session ${OTHER.slice(0, 8)}`);
    }
    // a message the guard cannot read whole before the line runs could claim anyone
    for (const c of [
      'git commit-tree -F "$MSG" HEAD^{tree}',
      'git commit-tree -m "$(cat msg.txt)" HEAD^{tree}',
      `printf 'x\\n\\nClaude-Session-Id: ${OTHER}\\n' > later.txt && git commit-tree -p HEAD -F later.txt HEAD^{tree} | xargs git update-ref refs/heads/main`,
      'base64 -d < m.b64 | git commit-tree HEAD^{tree}',
      'git commit-tree -F - HEAD^{tree}',
    ]) {
      expect(denial(await bash(repo, c)), c).toContain('from a message the guard cannot read before it runs');
    }
    repo.write('plain.txt', 'a plain message\n');
    for (const c of [
      `git commit-tree -m "Claude-Session-Id: ${ME}" HEAD^{tree}`,
      'git commit-tree -m plain HEAD^{tree}',
      'git hash-object -w msg.txt',
      'git commit-tree -F plain.txt HEAD^{tree}',
      'echo plain | git commit-tree -F - HEAD^{tree}',
      'git commit-tree HEAD^{tree} < plain.txt',
    ]) {
      expect(denial(await bash(repo, c)), c).toBeNull();
    }
  });

  it("refuses moving or deleting a tag on another session's commit; its own, a person's and a new tag pass", async () => {
    const { repo, person, theirs } = history();
    repo.git(['tag', 'theirs', theirs]);
    repo.git(['tag', '-a', '-m', 'release', 'annotated', theirs]);
    repo.git(['tag', 'plain', person]);
    for (const c of ['git tag -d theirs', 'git tag --delete plain annotated', `git tag -f theirs ${person}`, 'git tag -fa -m moved annotated HEAD~1']) {
      expect(denial(await bash(repo, c)), c).toContain(theirs.slice(0, 12));
    }
    for (const c of ['git tag -d plain', `git tag -f plain ${theirs}`, 'git tag -f newtag', 'git tag -l']) {
      expect(denial(await bash(repo, c)), c).toBeNull();
    }
  });

  it('follows git -C into another repository', async () => {
    const { repo } = history();
    const outer = makeRepo({ commit: true });
    const r = await guard(outer, payload(outer, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: `git -C ${repo.dir} reset --hard HEAD~1` } }));
    expect(denial(r)).toContain(OTHER.slice(0, 8));
  });
});
