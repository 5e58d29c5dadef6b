// Issue 25 item 9, from outside: "don't drop another session's commits", decided once. For commits whose trailer
// block is ambiguous (every spelling of test/handoff/store/ownership-ambiguous-trailers.slow.test.ts that names session A), each way of
// moving the branch back over them is refused by the guard before git runs (git has no hook before reset: a refusal
// by the reference-transaction hook comes after git reset the files), and by the hook too when git runs anyway.
import { describe, expect, it } from 'vitest';
import { denial, guard, payload } from '../guard/helpers';
import { A, B, gitAs, head, hookedRepo } from './helpers';

const BLOCKS: Record<string, string> = {
  'indented continuation': `X-Note: x\n Claude-Session-Id: ${A}\nClaude-Session-Id: ${A}`,
  'tab continuation': `X-Note: x\n\tClaude-Session-Id: ${A}`,
  '0x1F inside a value': `Claude-Session-Id: ${A}\x1fClaude-Session-Id: ${B}`,
  'other case key': `claude-session-id: ${A}`,
  'CR line ends': `Claude-Session-Id: ${A}\r\nHandoff-Topic: x\r`,
  'space before the colon': `Claude-Session-Id : ${A}`,
};

// the ways a session moves the checked-out branch back by one commit
const MOVES = ['git reset --hard HEAD~1', 'git reset --hard HEAD^', 'git reset --hard @~', 'git reset --keep HEAD~1', 'git reset --merge HEAD~', 'git reset -q --hard HEAD~1', 'git checkout -B main HEAD~1', 'git switch -C main HEAD~1'];

describe('the drop rule: the guard and the hook agree, before git touches the files', () => {
  it('every ambiguous block × every way back: refused by both, the branch and files as they were', async () => {
    const repo = await hookedRepo();
    const disagreements: string[] = [];
    for (const [name, block] of Object.entries(BLOCKS)) {
      repo.commit(`their work (${name})\n\n${block}`, { 'theirs.txt': `${name}\n` });
      const tip = head(repo);
      for (const move of MOVES) {
        const asked = denial(await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: move } }, B)));
        const args = move.split(' ').slice(1).map((a) => a.replace('@~', 'HEAD~1'));
        const ran = gitAs(repo, B, args);
        const moved = head(repo) !== tip;
        if (asked === null) disagreements.push(`${name} / ${move}: the guard allowed it${ran.status !== 0 ? `, then the hook refused after git ran: ${ran.stderr.split('\n')[0]}` : ''}`);
        if (ran.status === 0 || moved) disagreements.push(`${name} / ${move}: git and the hook let the branch move over session A's commit`);
        // git has no hook before reset: the files it reset before the hook refused are put back (the guard is what spares them)
        repo.git(['reset', '-q', '--hard', tip]);
      }
    }
    expect(disagreements).toEqual([]);
    // not a drop: a new branch, or the owner's own commits
    const ask = async (command: string, session: string) => denial(await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, session)));
    expect(await ask('git checkout -B fresh-branch', B)).toBeNull();
    expect(await ask('git switch -C another-branch HEAD~1', B)).toBeNull();
    expect(await ask('git switch -C main HEAD~1', A)).toBeNull();
    expect(await ask('git branch -f main HEAD~1', B)).toMatch(/would rewrite commit/);
  });
});
