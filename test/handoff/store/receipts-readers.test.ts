// src/handoff/store/receipts.ts: read receipts name each reader once, by what they did.
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../helpers/repo';
import { cliRun as run } from '../../cli/helpers';

describe('papercuts', () => {
  it('read receipts name each reader once, by what they did', async () => {
    const repo = makeRepo({ commit: true });
    await run(repo, ['write', 'auth-refactor', '--session', 'sess-a', '--to', 'session:sess-b', '--to', 'session:sess-c', '-m', 'Goal: x']);
    // addressed to both: sess-b is shown it at session start, then opens it; sess-c is only shown it
    await run(repo, ['boot'], 0, { GIT_HANDOFF_SESSION: 'sess-b' });
    await run(repo, ['show', 'auth-refactor', '--session', 'sess-b']);
    await run(repo, ['boot'], 0, { GIT_HANDOFF_SESSION: 'sess-c' });
    const { out } = await run(repo, ['show', 'auth-refactor', '--no-receipt']);
    expect(out).toMatch(/^read by sess-b · shown at session start to sess-c$/m);
    expect(out).not.toMatch(/sess-b \(surfaced\)|\(2\)/);
  });
});
