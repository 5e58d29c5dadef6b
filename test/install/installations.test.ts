// Two git-handoff installations on PATH (issue 53): `install --agent` says which one the hooks run, and refuses the mix
// that would make Claude Code's hook exit 127 (the newer git-handoff-front read in, reading in an older front first on
// PATH), which the real wiring shows here with the front of 7dff5f3 from this repository's history. And the suites'
// own PATH: whatever the caller's holds, a test's processes find no git-handoff unless the test puts one there.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shPayloadCommand } from '../../src/clients/wiring';
import { PRODUCT_PROGRAMS, pathWithoutProduct } from '../helpers/clean-path';
import { json, makeRepo, ROOT, tempDir } from '../helpers/repo';

/** The front and launcher of the build before Claude Code's wiring read the front in. */
const OLD = '7dff5f3';

/** An older installation (bin/ and a package.json), from this repository's history, with this build's dist. */
function oldInstallation(): string {
  const root = tempDir('gh-old-inst-');
  mkdirSync(path.join(root, 'bin'));
  for (const f of ['git-handoff-guard', 'git-handoff']) {
    const r = spawnSync('git', ['show', `${OLD}:bin/${f}`], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, `git show ${OLD}:bin/${f} (the test needs this repository's history): ${r.stderr}`).toBe(0);
    writeFileSync(path.join(root, 'bin', f), r.stdout);
    chmodSync(path.join(root, 'bin', f), 0o755);
  }
  writeFileSync(path.join(root, 'package.json'), '{"name":"git-handoff","version":"0.0.9"}\n');
  symlinkSync(path.join(ROOT, 'dist'), path.join(root, 'dist'));
  return root;
}

const BIN = path.join(ROOT, 'bin');

describe('two installations on PATH', () => {
  it("the older first: Claude Code's wiring exits 127 (it would run the call), and install --agent claude refuses, writing nothing", async () => {
    const old = oldInstallation();
    const repo = makeRepo({ commit: true });
    const PATH = `${path.join(old, 'bin')}:${BIN}:${process.env.PATH}`;
    // what the client's /bin/sh -c does with the wiring, at session start
    const payload = JSON.stringify({ session_id: 'sess-mix', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' });
    const hook = spawnSync('/bin/sh', ['-c', shPayloadCommand('git-handoff-guard --client=claude-code')], { cwd: repo.dir, env: { ...repo.env, PATH }, input: payload, encoding: 'utf8' });
    expect(hook.status, hook.stderr).toBe(127);

    const r = await repo.cli(['install', '--agent', 'claude'], { env: { PATH } });
    expect(r.exitCode).toBe(7);
    const err = String(r.stderr);
    expect(err).toContain('2 git-handoff installations are on PATH');
    expect(err).toContain(`${old} (version 0.0.9; on PATH as ${path.join(old, 'bin')})`);
    expect(err).toContain(`${ROOT} (version 0.1.0, the one running this install`);
    expect(err).toContain('exit 127');
    expect(err).toContain(`put ${BIN} before ${path.join(old, 'bin')} on PATH`);
    expect(existsSync(path.join(repo.dir, '.claude'))).toBe(false);
    expect(existsSync(path.join(repo.dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(json(await repo.cli(['install', '--agent', 'claude', '--json'], { env: { PATH } })).error.code).toBe('installations-mixed');
  });

  it('the newer first: install wires, and says which installation the hooks run; one installation: nothing said', async () => {
    const old = oldInstallation();
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['install', '--agent', 'claude'], { env: { PATH: `${BIN}:${path.join(old, 'bin')}:${process.env.PATH}` } });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain('2 git-handoff installations are on PATH');
    expect(String(r.stdout)).toContain(`the hooks wired here run the first git-handoff-guard on PATH: ${ROOT}\n`);
    // another client's wiring with the older one first: wired, and said that it is not this one
    const codex = await repo.cli(['install', '--agent', 'codex'], { env: { PATH: `${path.join(old, 'bin')}:${BIN}:${process.env.PATH}` } });
    expect(codex.exitCode, String(codex.stderr)).toBe(0);
    expect(String(codex.stdout)).toContain(`the hooks wired here run the first git-handoff-guard on PATH: ${old} — not the one running this install`);
    const one = await repo.cli(['install', '--agent', 'qwen'], { env: { PATH: `${BIN}:${process.env.PATH}` } });
    expect(String(one.stdout)).not.toContain('installations are on PATH');
  });
});

describe("the suites' PATH", () => {
  it("holds none of the product's programs, whatever the run was started with", () => {
    for (const dir of (process.env.PATH ?? '').split(':')) {
      expect(path.isAbsolute(dir), dir).toBe(true);
      for (const p of PRODUCT_PROGRAMS) expect(existsSync(path.join(dir, p)), `${dir}/${p}`).toBe(false);
    }
    expect(spawnSync('sh', ['-c', 'command -v git-handoff git-handoff-guard git-handoff-front'], { encoding: 'utf8' }).stdout).toBe('');
  });

  it('a PATH directory holding them is mirrored without them, keeping its other programs; others stay as they are', () => {
    const d = tempDir('gh-path-');
    const linked = path.join(d, 'usr-bin');
    mkdirSync(linked);
    for (const p of PRODUCT_PROGRAMS) symlinkSync(path.join(BIN, p), path.join(linked, p));
    symlinkSync('/bin/sh', path.join(linked, 'tool'));
    const plain = path.join(d, 'plain');
    mkdirSync(plain);
    const under = path.join(d, 'mirrors');
    mkdirSync(under);
    const out = pathWithoutProduct(`relative/bin:${BIN}:${linked}:${plain}`, () => under).split(':');
    expect(out).toHaveLength(3);
    expect(out[2]).toBe(plain);
    expect(readdirSync(out[0])).toEqual([]);
    expect(readdirSync(out[1])).toEqual(['tool']);
    expect(spawnSync('tool', ['-c', 'echo ok'], { env: { PATH: out.join(':') }, encoding: 'utf8' }).stdout).toBe('ok\n');
  });
});
