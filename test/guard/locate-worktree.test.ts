// A linked worktree: the guard finds the common directory through the `.git` file, keeps one ledger for the
// repository, one lease per worktree, and reads commits of the worktree's own branch.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';
import { denial, guard, ME, OTHER, payload, wroteFile } from './helpers';

describe('linked worktrees', () => {
  it('records into the common ledger, leases each worktree apart, and checks rewrites on its own branch', async () => {
    const repo = makeRepo({ commit: true });
    const wt = path.join(path.dirname(repo.dir), 'wt2');
    repo.git(['worktree', 'add', '-q', '-b', 'side', wt]);
    repo.git(['commit', '-q', '--allow-empty', '-m', `theirs\n\nClaude-Session-Id: ${OTHER}`], { cwd: wt });
    const at = (p: Record<string, unknown>) => JSON.parse(JSON.stringify(p).split(repo.dir).join(wt));

    await wroteFile(repo, path.join(wt, 'src/app.ts'), ME, {}, { cwd: wt });
    await wroteFile(repo, 'src/app.ts', OTHER);
    const ledger = readFileSync(path.join(repo.dir, '.git', 'handoff', 'ledger', `${ME}.jsonl`), 'utf8');
    expect(JSON.parse(ledger.trim())).toMatchObject({ session: ME, worktree: wt, paths: ['src/app.ts'] });
    const leases = repo.git(['for-each-ref', '--format=%(contents:trailers)', 'refs/handoff-leases/']).stdout;
    expect(leases).toContain(`Handoff-Worktree: ${wt}`);
    expect(leases).toContain(`Handoff-Worktree: ${repo.dir}`);

    const amend = at(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git commit --amend -m mine' } }));
    expect(denial(await guard(repo, amend))).toContain(OTHER.slice(0, 8));
    // The main worktree's branch has only a person's commit: amending it there is fine.
    expect(denial(await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git commit --amend -m mine' } })))).toBeNull();
  });
});
