// One reader per rule (issue 25, item 9): who owns a code commit is read one way by the guard, the commit and push
// hooks and the stub; whether a branch update drops another session's commits is decided by one function, so the
// guard refuses before git resets the files what the reference-transaction hook would refuse after.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRAILER } from '../../src/handoff/store/document';
import { caseGlob } from '../../src/hooks/stub-lines';
import { denial, guard, payload } from '../guard/helpers';
import { A, B, gitAs, head, hookedRepo } from './helpers';

describe('the drop rule, decided once', () => {
  it('a reset over a commit whose trailer block is ambiguous but names another session: the guard refuses it, as the hook does', async () => {
    const repo = await hookedRepo();
    const base = head(repo);
    // a person's commit (no session, hooks pass it) whose block two readers could read two ways
    repo.commit(`their work\n\nX-Note: x\n Claude-Session-Id: ${A}\nClaude-Session-Id: ${A}`, { 'a.txt': 'theirs\n' });
    const theirs = head(repo);
    const asked = await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git reset --hard HEAD~1' } }, B));
    expect(denial(asked)).toMatch(new RegExp(`would rewrite commit ${theirs.slice(0, 12)} of session`));
    // and git itself meets the same answer in the hook
    const r = gitAs(repo, B, ['reset', '--hard', base]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('would drop 1 commit of another session');
    // the session that owns it may
    expect(denial(await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git reset --hard HEAD~1' } }, A)))).toBeNull();
  });
});

describe('who owns a commit, read one way', () => {
  it('the installed stub carries the session key generated from the TypeScript, and a lower-case key is read as a claim everywhere', async () => {
    const repo = await hookedRepo();
    const stub = readFileSync(path.join(repo.dir, '.git', 'hooks', 'commit-msg'), 'utf8');
    expect(stub).toContain(`SESSION_KEY='${caseGlob(TRAILER.session)}'`);
    // commit-msg: a message claiming another session in another spelling is refused for the committing session
    const r = gitAs(repo, B, ['commit', '--allow-empty', '-m', `mine\n\nclaude-session-id: ${A}`]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('claims session');
    // pre-push: two claims in two spellings are two sessions
    repo.commit(`mixed\n\nClaude-Session-Id: ${A}\nclaude-session-id: ${B}`);
    repo.git(['init', '-q', '--bare', path.join(repo.home, 'remote.git')]);
    repo.git(['remote', 'add', 'origin', path.join(repo.home, 'remote.git')]);
    const p = repo.git(['push', 'origin', 'main'], { allowFail: true });
    expect(p.status).not.toBe(0);
    expect(p.stderr).toContain('carries the ids of two sessions');
  });
});
