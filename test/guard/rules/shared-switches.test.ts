// Compaction reminders, and the guard's own switches over the shared-checkout rule: handoff.guard off (said
// once) and GIT_HANDOFF_BYPASS=1 (audited).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload, writeHandoff, wroteFile } from '../helpers';

async function crowded(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  repo.write('theirs.txt', 'theirs\n');
  await wroteFile(repo, 'theirs.txt', OTHER);
  return repo;
}
const addAll = (repo: TestRepo, env: Record<string, string> = {}) => guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git add -A' } }), env);

describe('compaction', () => {
  it('Claude Code PreCompact and Gemini PreCompress remind to update this session\'s own handoff, without blocking', async () => {
    const repo = makeRepo({ commit: true });
    await writeHandoff(repo, 'auth-refactor', 'note', ME);
    await writeHandoff(repo, 'cache-layer', 'not mine', OTHER);
    const c = await guard(repo, payload(repo, 'claude-code/pre-compact.json'));
    // Claude Code reads PreCompact's stdout as plain text (added to the compaction's instructions)
    expect(c.answer).toContain('your handoff (auth-refactor)');
    expect(c.answer).toContain('git handoff write auth-refactor');
    expect(c.answer).not.toContain('cache-layer');
    expect(c.answer.startsWith('{')).toBe(false);
    // once per session: the next compaction event of the same session says nothing
    expect((await guard(repo, payload(repo, 'claude-code/pre-compact.json'))).stdout).toBe('');
    const g = await guard(repo, { ...payload(repo, 'gemini-cli/session-start.json', {}, OTHER), hook_event_name: 'PreCompress', trigger: 'auto' });
    expect(g.answer.systemMessage).toContain('git handoff write cache-layer');
    expect(g.answer.decision).toBeUndefined();
  });
});

describe('switches', () => {
  it('handoff.guard off: the sweep is allowed and the session is told once', async () => {
    const repo = await crowded();
    expect(denial(await addAll(repo))).toContain(OTHER.slice(0, 8));
    repo.git(['config', 'handoff.guard', 'off']);
    const first = await addAll(repo);
    expect(denial(first)).toBeNull();
    expect(first.answer.hookSpecificOutput.additionalContext).toContain('guard is off');
    expect(await addAll(repo)).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('GIT_HANDOFF_BYPASS=1 allows the sweep and audits it', async () => {
    const repo = await crowded();
    expect(await addAll(repo, { GIT_HANDOFF_BYPASS: '1' })).toMatchObject({ exitCode: 0, stdout: '' });
    const audit = readFileSync(path.join(repo.dir, '.git', 'handoff', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(audit).toMatchObject([{ by: 'guard', bypass: true, session: ME, would: 'deny', action: 'git add -A' }]);
    expect(audit[0].reason).toContain('theirs.txt');
  });
});
