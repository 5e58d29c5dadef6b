// The bench's fast-import generator writes real handoffs: the CLI lists, shows and extends them like its own.
import { describe, expect, it } from 'vitest';
import { generateHandoffs, json, makeRepo } from '../helpers/repo';

describe('bench repository generator', () => {
  it('generates handoffs the store reads as its own (trailers, tree, encoded branch refs)', async () => {
    const repo = makeRepo({ commit: true });
    generateHandoffs(repo, { handoffs: 60, branches: 7 });
    const rows = json(await repo.cli(['list', '--all', '--json']));
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r: any) => r.branch))).toEqual(new Set(Array.from({ length: 7 }, (_, i) => `feature/Team-${i}`)));
    expect(rows.every((r: any) => /^bench-session-\d+$/.test(r.session) && r.client === 'claude-code')).toBe(true);
    const one = rows.find((r: any) => r.branch === 'feature/Team-3' && r.topic === 'topic-2-notes');
    const shown = json(await repo.cli(['show', 'topic-2-notes', '--branch', 'feature/Team-3', '--json']));
    expect(shown).toMatchObject({ oid: one.oid, session: one.session, versions: 1 });
    expect(shown.body).toMatch(/^# topic-2-notes\n\n## Goal/);
    expect(shown.state.files).toEqual(['src/auth/session.ts']);
    // the owner can add a version; anyone else is refused
    expect((await repo.cli(['write', 'topic-2-notes', '--branch', 'feature/Team-3', '-m', 'next'], { env: { GIT_HANDOFF_SESSION: one.session } })).exitCode).toBe(0);
    expect((await repo.cli(['write', 'topic-2-notes', '--branch', 'feature/Team-3', '-m', 'x'], { env: { GIT_HANDOFF_SESSION: 'someone-else' } })).exitCode).toBe(3);
    expect(repo.git(['fsck', '--strict', '--no-dangling'], { allowFail: true }).status).toBe(0);
  });
});
