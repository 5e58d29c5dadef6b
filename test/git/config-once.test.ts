// One read per fact per process (src/git/config.ts): the configuration and the remote names are read from git once
// in a process, and again only once a file git reads them from has changed.
import { readFileSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig, remoteNames } from '../../src/git/config';
import { openRepo } from '../../src/git/repo';
import { guard, payload } from '../guard/helpers';
import { makeRepo } from '../helpers/repo';

describe('the configuration and the remotes, once a process', () => {
  it('a change of a file git reads them from is seen at the next read', () => {
    const t = makeRepo({ commit: true });
    const repo = openRepo(t.dir, { viaGit: true });
    expect(readConfig(repo).get('handoff.claims')).toBeUndefined();
    expect(remoteNames(repo)).toEqual([]);
    t.git(['config', 'handoff.claims', 'tell']);
    t.git(['remote', 'add', 'origin', t.dir]);
    expect(readConfig(repo).get('handoff.claims')).toEqual(['tell']);
    expect(remoteNames(repo)).toEqual(['origin']);
    t.git(['remote', 'rename', 'origin', 'upstream']);
    expect(remoteNames(repo)).toEqual(['upstream']);
  });

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
