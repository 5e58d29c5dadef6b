// The loss record's first sight of many refs it did not see arrive (a clone, a fast-import): more versions than one
// commit's command line holds as parents. The record takes them all in, keeps every version reachable through
// commits of its own, and the next command finds it in place without reading the refs again.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, json, makeRepo } from '../../../helpers/repo';
import { recordText } from '../../record/helpers';

describe('the record at its first sight of many refs', () => {
  it('takes in 2,500 refs made outside git-handoff: one record commit, every version reachable from it, then cached', async () => {
    const repo = makeRepo({ commit: true });
    const script = `import(${JSON.stringify(path.join(ROOT, 'bench', 'gen-repo.mjs'))}).then((m) => m.generateHandoffs({ git: (args, o = {}) => {
      const r = require('node:child_process').spawnSync('git', args, { cwd: process.cwd(), input: o.input, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr); return r; } }, { handoffs: 2500, branches: 25 }))`;
    const gen = spawnSync(process.execPath, ['-e', script], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
    expect(gen.status, gen.stderr).toBe(0);
    const first = await repo.cli(['list', '--all', '--json']);
    expect(first.exitCode, String(first.stderr)).toBe(0);
    expect(json(first)).toHaveLength(2500);
    // one shelf per branch, 2,500 tips in all
    expect(repo.git(['ls-tree', '--name-only', 'refs/handoff-record']).stdout.trim().split('\n')).toHaveLength(25);
    expect(recordText(repo).split('\n').filter((l) => l.startsWith('tip '))).toHaveLength(2500);
    // no commit of the record has more than 1,001 parents (the chain and 1,000 kept)
    const counts = repo.git(['rev-list', '--parents', '--no-walk=unsorted', 'refs/handoff-record']).stdout.trim().split(' ').length - 1;
    expect(counts).toBeLessThanOrEqual(1001);
    // every handoff's version is reachable from the record alone
    const tips = repo.git(['for-each-ref', '--format=%(objectname)', 'refs/handoffs/']).stdout.trim().split('\n');
    const reach = new Set(repo.git(['rev-list', 'refs/handoff-record']).stdout.trim().split('\n'));
    expect(tips.filter((t) => !reach.has(t))).toEqual([]);
    expect(repo.git(['fsck', '--connectivity-only', '--no-dangling']).status).toBe(0);
    // the next command finds the record in place: no new record commit
    const before = repo.git(['rev-parse', 'refs/handoff-record']).stdout.trim();
    expect((await repo.cli(['list', '--json'])).exitCode).toBe(0);
    expect(repo.git(['rev-parse', 'refs/handoff-record']).stdout.trim()).toBe(before);
  }, 120_000);
});
