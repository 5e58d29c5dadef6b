// Two sessions in one worktree hear of each other, once each; staging a file the other live session wrote and has
// not committed (`git add`, `git commit <it>`, `-a`, `-i`, `-o`) is refused by the guard before anything is staged, naming that session and giving the `git add`
// of one's own files.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { short } from '../../../src/handoff/state/session';
import { makeRepo, ROOT, type TestRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload, wroteFile } from '../helpers';

const bash = (repo: TestRepo, command: string, session: string) => payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, session);
const contextOf = (r: Awaited<ReturnType<typeof guard>>): string => r.answer?.hookSpecificOutput?.additionalContext ?? '';

/** The wired sh front, as the client runs it. */
async function front(repo: TestRepo, p: unknown, client = 'claude-code'): Promise<string> {
  const r = await execa(path.join(ROOT, 'bin', 'git-handoff-guard'), [`--client=${client}`], {
    input: JSON.stringify(p),
    env: { ...repo.env, PATH: `${path.join(ROOT, 'bin')}:${repo.env.PATH}` },
    extendEnv: false,
    cwd: repo.dir,
  });
  return String(r.stdout).trim();
}

describe('two sessions in one worktree hear of each other', () => {
  it('the second is warned at once; the first hears of the second at its next tool call (through the sh front), once', async () => {
    const repo = makeRepo({ commit: true });
    await wroteFile(repo, 'a.txt', OTHER);
    // its heartbeat is fresh: an ordinary command is answered by the front alone
    expect(await front(repo, bash(repo, 'ls', OTHER))).toBe('');
    const second = await guard(repo, payload(repo, 'claude-code/session-start.json', {}, ME));
    expect(contextOf(second)).toContain(`another live session, ${OTHER.slice(0, 8)}`);
    // the first session's next call, however ordinary, reaches the full guard and carries the note
    const told = JSON.parse(await front(repo, bash(repo, 'ls', OTHER)));
    expect(told.hookSpecificOutput.additionalContext).toContain(`another session, ${short(ME, [OTHER])} (claude-code), has started working in this worktree`);
    expect(told.hookSpecificOutput.additionalContext).toContain(`You are session ${short(OTHER, [ME])}`);
    expect(told.systemMessage).toContain('has started working in this worktree');
    // once each
    expect(await front(repo, bash(repo, 'ls', OTHER))).toBe('');
    expect((await guard(repo, bash(repo, 'ls', OTHER))).stdout).toBe('');
    expect((await guard(repo, bash(repo, 'ls', ME))).stdout).toBe('');
    await guard(repo, payload(repo, 'claude-code/session-start.json', {}, ME));
    expect((await guard(repo, bash(repo, 'ls', OTHER))).stdout).toBe('');
  });

  it('a Gemini CLI session holding the worktree hears of a newcomer with its next tool: after it for a file tool, in its output for a shell call (it shows no context before a tool)', async () => {
    const repo = makeRepo({ commit: true });
    const G = 'gemini-4d4d4d4d';
    await guard(repo, payload(repo, 'gemini-cli/before-tool-write-file.json', {}, G));
    await guard(repo, payload(repo, 'claude-code/session-start.json', {}, ME));
    // its next call reaches the full guard through the sh front (the note took its heartbeat file), which keeps the
    // note for a file tool's AfterTool
    expect(await front(repo, payload(repo, 'gemini-cli/before-tool-write-file.json', {}, G), 'gemini-cli')).toBe('');
    const after = await guard(repo, payload(repo, 'gemini-cli/after-tool-write-file.json', {}, G));
    expect(after.answer.hookSpecificOutput.additionalContext).toContain(`another session, ${short(ME, [G])} (claude-code), has started working`);
    expect((await guard(repo, payload(repo, 'gemini-cli/after-tool-write-file.json', {}, G))).stdout).toBe('');
    // another newcomer: the next call is a shell call, whose command prints the note first
    await guard(repo, payload(repo, 'claude-code/session-start.json', {}, OTHER));
    const shell = payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command: 'ls' } }, G);
    const told = JSON.parse(await front(repo, shell, 'gemini-cli'));
    expect(told.hookSpecificOutput.tool_input.command).toMatch(new RegExp(`^printf '%s\\\\n' 'git-handoff: another session, ${short(OTHER, [G])} \\(claude-code\\), has started working[^']*' >&2\\nls$`));
    expect(told.systemMessage).toContain('has started working in this worktree');
    expect(await front(repo, shell, 'gemini-cli')).toBe('');
  });
});

describe("staging another live session's uncommitted file", () => {
  async function twoSessions() {
    const repo = makeRepo({ commit: true });
    repo.commit('tracked', { 'shared.txt': 'v1\n' });
    await wroteFile(repo, 'theirs.txt', OTHER);
    repo.write('shared.txt', 'their change\n');
    await guard(repo, payload(repo, 'claude-code/pre-tool-use-edit.json', { tool_input: { file_path: path.join(repo.dir, 'shared.txt'), old_string: 'v1', new_string: 'their change' } }, OTHER));
    repo.write('shared.txt', 'their change\n');
    await wroteFile(repo, 'mine.txt', ME);
    return repo;
  }

  // shared.txt is tracked: theirs.txt is not, and git commits no untracked path it is named
  const commits = ['git commit shared.txt -m x', 'git commit -m x -- shared.txt', 'git commit -a -m x', 'git commit -am x', 'git commit --include shared.txt -m x', 'git commit -i -m x shared.txt', 'git commit -o shared.txt -m x'];
  for (const command of ['git add theirs.txt', 'git add shared.txt mine.txt', 'git add -- theirs.txt', 'git add -A', 'git add .', 'cd . && git add -u', ...commits]) {
    it(`\`${command}\` is refused before anything is staged, naming the session, with the add of one's own files`, async () => {
      const repo = await twoSessions();
      const why = denial(await guard(repo, bash(repo, command, ME)));
      expect(why).toContain(`session ${OTHER.slice(0, 8)}`);
      expect(why).toMatch(/theirs\.txt|shared\.txt/);
      if (command.startsWith('git add')) expect(why).toContain('git add -- mine.txt');
      expect(repo.git(['diff', '--cached', '--name-only']).stdout).toBe('');
    });
  }

  it("one's own files by name, a dry run, and a file nobody claims are allowed", async () => {
    const repo = await twoSessions();
    repo.write('nobodys.txt', 'x\n');
    for (const command of ['git add mine.txt', 'git add -n theirs.txt', 'git add nobodys.txt', 'git add --dry-run -A', 'git commit -m x', 'git commit -m x mine.txt', 'git commit --dry-run theirs.txt']) {
      expect(denial(await guard(repo, bash(repo, command, ME))), command).toBeNull();
    }
  });

  it('once the other session has ended (SessionEnd), its file may be staged', async () => {
    const repo = await twoSessions();
    await guard(repo, payload(repo, 'claude-code/real-session-end.json', {}, OTHER));
    expect(denial(await guard(repo, bash(repo, 'git add theirs.txt', ME)))).toBeNull();
  });
});
