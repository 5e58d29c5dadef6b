// One read per fact per process (src/git/config.ts, src/git/refs-read.ts): the configuration and the remote names are
// read once in a process, and again only once a file git reads them from has changed; a session start lists its refs once.
import { readFileSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig, remoteNames } from '../../src/git/config';
import { openRepo } from '../../src/git/repo';
import { guard, payload } from '../guard/helpers';
import { generateHandoffs, makeRepo } from '../helpers/repo';

describe('the configuration and the remotes, once a process', () => {
  it('a change of a file git reads them from is seen at the next read', () => {
    const t = makeRepo({ commit: true });
    const repo = openRepo(t.dir);
    expect(readConfig(repo).get('handoff.claims')).toBeUndefined();
    expect(remoteNames(repo)).toEqual([]);
    t.git(['config', 'handoff.claims', 'tell']);
    t.git(['remote', 'add', 'origin', t.dir]);
    expect(readConfig(repo).get('handoff.claims')).toEqual(['tell']);
    expect(remoteNames(repo)).toEqual(['origin']);
    t.git(['remote', 'rename', 'origin', 'upstream']);
    expect(remoteNames(repo)).toEqual(['upstream']);
    // as git lists them: a name's case kept, a dotted name whole, a section with no url too, in git's order
    t.git(['remote', 'add', 'Zeta', t.dir]);
    t.git(['remote', 'add', 'team.mirror', t.dir]);
    t.git(['config', 'remote.nourl.fetch', '+refs/heads/*:refs/remotes/nourl/*']);
    expect(remoteNames(repo)).toEqual(t.git(['remote']).stdout.trim().split('\n'));
  });

  /** Each git process a Claude Code session start runs (as its arguments), the loss record's check included. */
  async function sessionStartGits(t: ReturnType<typeof makeRepo>): Promise<string[]> {
    const trace = path.join(t.home, 'trace.jsonl');
    rmSync(trace, { force: true });
    const r = await guard(t, payload(t, 'claude-code/session-start.json'), { GIT_HANDOFF_TRACE: trace });
    expect(r.exitCode, r.stderr).toBe(0);
    return readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.phase === 'git').map((l) => String(l.detail));
  }

  it('a first session start with three one-version handoffs runs two git processes: git status and the lease', async () => {
    const t = makeRepo({ commit: true });
    for (const topic of ['alpha-one', 'beta-two', 'gamma-three']) expect((await t.cli(['write', topic, '--session', 'someone-else', '-m', `Goal: ${topic}`])).exitCode).toBe(0);
    const args = await sessionStartGits(t);
    // the repository found and its refs listed without git (plain, every tip a loose commit); no history walked
    expect(args.map((a) => a.split(' ')[0]), args.join('\n')).toEqual(['status', '-c']);
  });

  it('a session start on a branch with 102 handoffs, 100 of them packed, naming three older commits of the branch, runs no git process per handoff', async () => {
    const t = makeRepo({ commit: true });
    // 100 handoffs of feature/Team-0 written at this commit, in one pack (bench/gen-repo.mjs)
    generateHandoffs(t, { handoffs: 100, branches: 1 });
    t.git(['checkout', '-q', '-b', 'feature/Team-0']);
    // and two more, each written at a later commit of the branch: three commits named, all behind its tip
    for (const n of ['two', 'three']) {
      t.commit(n, { [`${n}.txt`]: `${n}\n` });
      expect((await t.cli(['write', `later-${n}`, '--session', 'someone-else', '-m', `Goal: ${n}`])).exitCode).toBe(0);
    }
    t.commit('four', { 'four.txt': '4\n' });
    for (const args of [await sessionStartGits(t), await sessionStartGits(t)]) {
      // one listing, one read of every body, one walk of the versions and one of the branch: a process per handoff
      // would make over a hundred
      expect(args.filter((a) => a.startsWith('for-each-ref')).length, args.join('\n')).toBe(1);
      expect(args.filter((a) => a === 'cat-file --batch').length, args.join('\n')).toBeLessThanOrEqual(1);
      expect(args.length, args.join('\n')).toBeLessThanOrEqual(11);
    }
    const out = await guard(t, payload(t, 'claude-code/session-start.json'));
    const context = out.answer.hookSpecificOutput.additionalContext;
    expect(context).toContain('102 handoffs on branch feature/Team-0');
    for (const n of [1, 2, 3]) expect(context).toContain(`branch ${n} commit${n > 1 ? 's' : ''} ahead of what it describes`);
  }, 60_000);

  it('a session start with three handoffs reads the configuration (its handoff, identity and core keys), the remotes and the branch tip once, and no handoff refs one by one', async () => {
    const t = makeRepo({ commit: true });
    t.git(['remote', 'add', 'origin', t.dir]);
    for (const topic of ['alpha-one', 'beta-two', 'gamma-three']) expect((await t.cli(['write', topic, '--session', 'someone-else', '-m', `Goal: ${topic}`])).exitCode).toBe(0);
    const trace = path.join(t.home, 'trace.jsonl');
    rmSync(trace, { force: true });
    const r = await guard(t, payload(t, 'claude-code/session-start.json'), { GIT_HANDOFF_TRACE: trace });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('alpha-one');
    // each git process of the run, as its arguments (the trace's line after it ran)
    const args = existsSync(trace) ? readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.phase === 'git').map((l) => String(l.detail)) : [];
    expect(args.length).toBeGreaterThan(0);
    expect(args.filter((a) => a.startsWith('config -z')).length, args.join('\n')).toBeLessThanOrEqual(1);
    expect(args.filter((a) => a === 'remote').length, args.join('\n')).toBeLessThanOrEqual(1);
    // the branch view: its tip once, and no handoff's refs read again one by one after the branch's listing
    expect(args.filter((a) => a.startsWith('rev-parse -q --verify refs/heads/')).length, args.join('\n')).toBeLessThanOrEqual(1);
    expect(args.filter((a) => /^for-each-ref .* refs\/handoffs\/main\/[a-z]/.test(a)).length, args.join('\n')).toBe(0);
  });
});
