// Shell commands: raw handoff ref writes, rewrites of other sessions' commits, and session injection for `git handoff`.
import { execaSync } from 'execa';
import { expect, it } from 'vitest';
import { quickDescribe, slowDescribe } from '../helpers/sets';
import { makeRepo, refOf } from '../helpers/repo';
import { denial, guard, ME, OTHER, payload, writeHandoff } from './helpers';

function bash(repo: any, command: string, env: Record<string, string | undefined> = {}, fixture = 'claude-code/pre-tool-use-bash.json') {
  const p: any = payload(repo, fixture);
  p.tool_input = { ...p.tool_input, command };
  return guard(repo, p, env);
}

slowDescribe('raw handoff ref writes', () => {
  it('refuses every way around git handoff, and allows reads and ordinary git', async () => {
    const repo = makeRepo({ commit: true });
    await writeHandoff(repo, 'auth-refactor', 'body', OTHER);
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

quickDescribe('git handoff from a shell that lacks the session', () => {
  it('Claude Code: injects the session with updatedInput, and the rewritten command works', async () => {
    const repo = makeRepo({ commit: true });
    const r = await bash(repo, 'git handoff write auth-refactor -m "first note"');
    const out = r.answer.hookSpecificOutput;
    expect(out.permissionDecision).toBe('allow');
    expect(out.updatedInput.command).toContain(`GIT_HANDOFF_SESSION='${ME}'`);
    expect(out.updatedInput.description).toBe('Run test suite');
    const bin = `${process.cwd()}/bin`;
    const run = execaSync('bash', ['-c', out.updatedInput.command], { cwd: repo.dir, env: { ...repo.env, PATH: `${bin}:${process.env.PATH}` }, extendEnv: false, reject: false });
    expect(run.exitCode).toBe(0);
    const owner = repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', 'refs/handoffs/main/auth-refactor']).stdout.trim();
    expect(owner).toBe(ME);
  });

  it('passes when the shell already exports the session, and for commands that need none', async () => {
    const repo = makeRepo({ commit: true });
    expect(await bash(repo, 'git handoff write auth-refactor -m x', { CLAUDE_CODE_SESSION_ID: ME })).toMatchObject({ stdout: '' });
    expect(await bash(repo, 'git handoff list | head -3')).toMatchObject({ stdout: '' });
    expect(await bash(repo, `git handoff write auth-refactor --session ${ME} -m x`)).toMatchObject({ stdout: '' });
  });

  it('refuses a chain it cannot rewrite safely, giving the exact command to retry', async () => {
    const repo = makeRepo({ commit: true });
    const reason = denial(await bash(repo, 'npm run build && git handoff write auth-refactor -m x'));
    expect(reason).toContain(`You are session ${ME}`);
    expect(reason).toContain(`export GIT_HANDOFF_SESSION='${ME}' GIT_HANDOFF_CLIENT=claude-code; npm run build && git handoff write auth-refactor -m x`);
    const cursor = await guard(repo, payload(repo, 'cursor/before-shell-execution.json', { command: 'git handoff write auth-refactor -m x' }));
    expect(cursor.answer.permission).toBe('deny');
  });

  it('PowerShell gets its own syntax for the session', async () => {
    const repo = makeRepo({ commit: true });
    const p: any = payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_name: 'PowerShell' });
    p.tool_input = { command: 'git handoff write auth-refactor -m x' };
    const r = await guard(repo, p);
    expect(r.answer.hookSpecificOutput.updatedInput.command).toBe(`$env:GIT_HANDOFF_SESSION='${ME}'; $env:GIT_HANDOFF_CLIENT='claude-code'; git handoff write auth-refactor -m x`);
  });

  it('Gemini: rewrites through hookSpecificOutput.tool_input', async () => {
    const repo = makeRepo({ commit: true });
    const r = await guard(repo, payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command: 'git handoff write auth-refactor -m x', description: 'd' } }));
    expect(r.answer.hookSpecificOutput.tool_input.command).toBe(`export GIT_HANDOFF_SESSION='${ME}' GIT_HANDOFF_CLIENT=gemini-cli; git handoff write auth-refactor -m x`);
    expect(r.answer.decision).toBeUndefined();
  });

  it('refuses a git handoff command that names another session', async () => {
    const repo = makeRepo({ commit: true });
    expect(denial(await bash(repo, `git handoff write auth-refactor --session ${OTHER} -m x`))).toContain(`you are session ${ME}`);
    expect(denial(await bash(repo, `GIT_HANDOFF_SESSION=${OTHER} git handoff write auth-refactor -m x`))).toBeTruthy();
  });

  it('refuses take-over and release from a subagent, which acts under its parent', async () => {
    const repo = makeRepo({ commit: true });
    const p: any = payload(repo, 'claude-code/pre-tool-use-bash.json', { agent_id: 'agent-7' });
    for (const command of ['git handoff write auth-refactor --take-over --reason x -m y', 'git handoff release']) {
      p.tool_input = { command };
      expect(denial(await guard(repo, p, { CLAUDE_CODE_SESSION_ID: ME }))).toContain('subagent agent-7');
    }
    p.tool_input = { command: 'git handoff write auth-refactor -m y' };
    expect(await guard(repo, p, { CLAUDE_CODE_SESSION_ID: ME })).toMatchObject({ stdout: '' });
  });
});
