// The commands people reach for (issue 27): `edit` (the newest body in the git editor, saved as a new version),
// `diff` between versions and `log -p`; an aborted edit or template says what happened and how to go on.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, json, makeRepo, refOf, type TestRepo } from '../../helpers/repo';

const REF = 'refs/handoffs/main/auth-refactor';

async function ok(repo: TestRepo, args: string[], env: Record<string, string> = {}) {
  const r = await repo.cli(args, { env });
  expect(r.exitCode, `${args.join(' ')}\n${r.stderr}`).toBe(0);
  return String(r.stdout);
}

describe('edit', () => {
  it('opens the newest body in the git editor and writes what was saved as a new version; no change writes nothing', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: port login', '-m', 'Next action: refresh()']);
    const first = refOf(repo, REF);
    const out = await ok(repo, ['edit', 'auth-refactor', '--session', 's1'], { GIT_EDITOR: "sed -i 's/refresh()/delete the old client/'" });
    expect(out).toMatch(/^refs\/handoffs\/main\/auth-refactor [0-9a-f]{7}$/);
    expect(await ok(repo, ['show', 'auth-refactor', '--raw'])).toBe('Goal: port login\n\nNext action: delete the old client');
    expect(repo.git(['rev-parse', `${REF}^`]).stdout.trim()).toBe(first);
    const same = refOf(repo, REF);
    expect(await ok(repo, ['edit', 'auth-refactor', '--session', 's1'], { GIT_EDITOR: 'true' })).toMatch(/^no change: auth-refactor stays at/);
    expect(refOf(repo, REF)).toBe(same);
    // core.editor is found like git's; another session's handoff is still theirs
    repo.git(['config', 'core.editor', "sed -i 's/port/move/'"]);
    const refused = await repo.cli(['edit', 'auth-refactor', '--session', 's2']);
    expect(refused.exitCode).toBe(3);
    expect(refOf(repo, REF)).toBe(same);
    await ok(repo, ['edit', 'auth-refactor', '--session', 's2', '--take-over', '--reason', 'owner done']);
    expect(json(await repo.cli(['show', 'auth-refactor', '--json'])).session).toBe('s2');
  });

  it('an editor that fails writes nothing and keeps the text; an emptied body writes nothing; no editor and no terminal says what to do', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x']);
    const tip = refOf(repo, REF);
    const failed = await repo.cli(['edit', 'auth-refactor', '--session', 's1'], { env: { GIT_EDITOR: "sed -i 's/x/y/' \"$1\"; exit 1; :" } });
    expect(failed.exitCode).toBe(2);
    expect(String(failed.stderr)).toMatch(/exited with 1, so nothing was written; what the editor saved is kept in (\S+) \(to write it: git handoff write auth-refactor -F \1\)/);
    const kept = /kept in (\S+) /.exec(String(failed.stderr))![1];
    expect(readFileSync(kept, 'utf8')).toBe('Goal: y\n');
    const emptied = await repo.cli(['edit', 'auth-refactor', '--session', 's1'], { env: { GIT_EDITOR: 'truncate -s0' } });
    expect(emptied.exitCode).toBe(2);
    expect(String(emptied.stderr)).toContain('the body was left empty, so nothing was written');
    expect(String(emptied.stderr)).toContain('git handoff archive auth-refactor');
    const none = await repo.cli(['edit', 'auth-refactor', '--session', 's1'], { env: { GIT_EDITOR: undefined, VISUAL: undefined, EDITOR: undefined } });
    expect(none.exitCode).toBe(2);
    expect(String(none.stderr)).toContain('git handoff show auth-refactor --raw > notes.md');
    expect(refOf(repo, REF)).toBe(tip);
  });

  it('write --template left empty on a terminal says how to go on', () => {
    const repo = makeRepo({ commit: true });
    const r = spawnSync('script', ['-qec', `'${BIN}' write auth-refactor --session s1 --template`, '/dev/null'], { cwd: repo.dir, env: { ...repo.env, GIT_EDITOR: 'true' }, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toContain('the template came back with no section filled, so nothing was written');
    expect(r.stdout).toContain('git handoff write auth-refactor -m "Goal: …" -m "Next action: …"');
    expect(existsSync(path.join(repo.dir, '.git', 'HANDOFF_EDITMSG'))).toBe(false);
    expect(refOf(repo, REF)).toBeNull();
  });
});

describe('diff and log -p', () => {
  it('diff shows what the newest version changed, or between two versions; log -p shows each version with its patch', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x', '-m', 'Next action: y']);
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x', '-m', 'Next action: z']);
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: w', '-m', 'Next action: z']);
    const d = await ok(repo, ['diff', 'auth-refactor']);
    expect(d).toMatch(/^diff --git a\/handoff.md b\/handoff.md/);
    expect(d).toContain('\n-Goal: x\n+Goal: w\n');
    expect(d).not.toContain('Next action: y');
    const range = await ok(repo, ['diff', 'auth-refactor', '~2']);
    expect(range).toContain('-Goal: x\n+Goal: w\n');
    expect(range).toContain('-Next action: y\n+Next action: z');
    const oids = json(await repo.cli(['log', 'auth-refactor', '--json'])).map((e: any) => e.oid);
    const between = await ok(repo, ['diff', 'auth-refactor', oids[2], oids[1]]);
    expect(between).toContain('-Next action: y\n+Next action: z');
    expect(between).not.toContain('Goal: w');
    expect((await repo.cli(['diff', 'auth-refactor', 'deadbeef'])).exitCode).toBe(2);
    const log = await ok(repo, ['log', '-p', 'auth-refactor']);
    expect(log.match(/^diff --git a\/handoff.md b\/handoff.md$/gm)).toHaveLength(3);
    expect(log.indexOf(oids[0].slice(0, 12))).toBeLessThan(log.indexOf('+Goal: w'));
    expect(log).toContain('new file mode');
    expect(json(await repo.cli(['log', 'auth-refactor', '--patch', '--json']))[0].patch).toContain('+Goal: w');
  });
});
