// git status as a reader (src/git/run.ts READER_ENV; issue 39): show's check, a write's and the guard's dirty paths
// run git status without its optional lock, so they never create .git/index.lock (which a git the session runs at
// that moment would meet as "index.lock exists") and never rewrite the index; what they report is the same.
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo } from '../helpers/repo';

describe('git status as a reader', () => {
  it('a write and a show leave the index as it was, and still see the worktree as it is', async () => {
    const repo = makeRepo({ commit: true });
    const env = { GIT_HANDOFF_SESSION: 'reader-session' };
    expect((await repo.cli(['write', 'reader-notes', '-m', 'one'], { env })).exitCode).toBe(0);
    // a tracked file's times changed, its bytes not: a status that may refresh the index writes it anew
    const tracked = repo.git(['ls-files']).stdout.split('\n')[0];
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(repo.dir, tracked), later, later);
    const index = path.join(repo.dir, '.git', 'index');
    const before = statSync(index);
    expect((await repo.cli(['write', 'reader-notes', '-m', 'two'], { env })).exitCode).toBe(0);
    const clean = json(await repo.cli(['show', 'reader-notes', '--json'], { env }));
    const after = statSync(index);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    // what status reports is unchanged: clean, then dirty once the bytes change
    expect(clean.verify.dirty).toBe(false);
    writeFileSync(path.join(repo.dir, tracked), 'changed\n');
    expect(json(await repo.cli(['show', 'reader-notes', '--json'], { env })).verify.dirty).toBe(true);
  });
});
