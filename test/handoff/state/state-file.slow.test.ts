// src/handoff/state/state-file.ts against an attacker, through the real `git-handoff guard`: state is never written
// through a symlink or into a file of another user (a symlinked guard.log, audit.jsonl or handoff directory, a
// repository another user owns).
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/repo';
import { bash, denial, guard, withHandoff } from '../../guard/helpers';

const REF = 'refs/handoffs/main/auth-refactor';
const NOBODY = 65534;
const chownTree = (dir: string, uid: number) => execFileSync('chown', ['-R', `${uid}:${uid}`, dir]);
const asRoot = process.geteuid?.() === 0;

describe('state is never written through a symlink or into a file of another user (3)', () => {
  it('a symlinked guard.log, audit.jsonl or handoff directory leaves the victim untouched', async () => {
    const repo = await withHandoff();
    const victimDir = tempDir();
    const victim = path.join(victimDir, '.bashrc');
    writeFileSync(victim, 'original\n');
    mkdirSync(path.join(repo.dir, '.git', 'handoff'), { recursive: true });
    symlinkSync(victim, path.join(repo.dir, '.git', 'handoff', 'guard.log'));
    symlinkSync(victim, path.join(repo.dir, '.git', 'handoff', 'audit.jsonl'));
    // bad input logs a line; a bypass appends to the audit trail
    expect(await guard(repo, 'not json')).toMatchObject({ exitCode: 0, stdout: '' });
    const bypassed = await bash(repo, `git update-ref -d ${REF}`, { GIT_HANDOFF_BYPASS: '1' });
    // the bypass cannot be recorded, so it is not granted
    expect(denial(bypassed)).toMatch(/could not check this call/);
    expect(readFileSync(victim, 'utf8')).toBe('original\n');
    expect(lstatSync(path.join(repo.dir, '.git', 'handoff', 'guard.log')).isSymbolicLink()).toBe(true);

    // the whole state directory a symlink to the victim's directory: nothing is created there
    const repo2 = await withHandoff();
    symlinkSync(victimDir, path.join(repo2.dir, '.git', 'handoff-real'));
    execFileSync('rm', ['-rf', path.join(repo2.dir, '.git', 'handoff')]);
    symlinkSync(victimDir, path.join(repo2.dir, '.git', 'handoff'));
    expect(await guard(repo2, 'not json')).toMatchObject({ exitCode: 0, stdout: '' });
    expect(readdirSync(victimDir).sort()).toEqual(['.bashrc']);
  });

  it.runIf(asRoot)('in a repository owned by another user (not in safe.directory) the guard does nothing and writes nothing', async () => {
    const repo = await withHandoff();
    execFileSync('rm', ['-rf', path.join(repo.dir, '.git', 'handoff')]);
    chownTree(repo.dir, NOBODY);
    const denied = `git update-ref -d ${REF}`;
    // git itself refuses to run here ("dubious ownership"): the guard stays out, silently
    expect(await bash(repo, denied)).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await guard(repo, 'not json')).toMatchObject({ exitCode: 0, stdout: '' });
    expect(existsSync(path.join(repo.dir, '.git', 'handoff'))).toBe(false);
    // listed in the user's global safe.directory (never the repository's own config), it is guarded again
    repo.git(['config', '--file', path.join(repo.dir, '.git', 'config'), 'safe.directory', '*'], { allowFail: true });
    expect(denial(await bash(repo, denied))).toBeNull();
    repo.git(['config', '--global', '--add', 'safe.directory', repo.dir]);
    expect(denial(await bash(repo, denied))).toMatch(/moves a handoff ref directly/);
  });

  it.runIf(asRoot)('install, doctor and the hooks do nothing in a repository owned by another user (17)', async () => {
    const repo = await withHandoff();
    chownTree(repo.dir, NOBODY);
    const hooks = readdirSync(path.join(repo.dir, '.git', 'hooks')).sort();
    const install = await repo.cli(['install', '--hooks']);
    expect(install.exitCode).not.toBe(0);
    expect(String(install.stderr)).toMatch(/dubious ownership|not a git repository/);
    expect(readdirSync(path.join(repo.dir, '.git', 'hooks')).sort()).toEqual(hooks);
    const agent = await repo.cli(['install', '--agent', 'claude']);
    expect(agent.exitCode).not.toBe(0);
    expect(existsSync(path.join(repo.dir, '.claude'))).toBe(false);
    const doctor = await repo.cli(['doctor']);
    expect(doctor.exitCode).not.toBe(0);
    expect(existsSync(path.join(repo.dir, '.git', 'handoff', 'guard.log'))).toBe(false);
  });
});
