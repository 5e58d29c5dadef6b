// install --hooks / uninstall / doctor: chaining what was there, restoring it byte for byte, idempotent,
// and stubs that never start node for a person's commit and never brick git when git-handoff is gone.
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installStub } from '../../src/hooks/install';
import { HOOK_NAMES } from '../../src/git/hook-stub';
import { BIN, json, makeRepo, tempDir, type TestRepo } from '../helpers/repo';
import { A, B, gitAs, hooksDir, ledgerWrite, messageOf, script } from './helpers';

const snapshot = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, { bytes: readFileSync(path.join(dir, f)).toString('base64'), mode: statSync(path.join(dir, f)).mode }]),
  );

async function roundTrip(repo: TestRepo, dir: string) {
  const before = snapshot(dir);
  const i1 = await repo.cli(['install', '--hooks']);
  expect(i1.exitCode, String(i1.stderr)).toBe(0);
  const installed = snapshot(dir);
  // idempotent: a second install changes nothing
  const i2 = await repo.cli(['install', '--hooks']);
  expect(i2.exitCode).toBe(0);
  expect(String(i2.stdout)).toMatch(/already installed/);
  expect(snapshot(dir)).toEqual(installed);
  const u = await repo.cli(['uninstall', '--hooks']);
  expect(u.exitCode, String(u.stderr)).toBe(0);
  expect(snapshot(dir)).toEqual(before);
  const u2 = await repo.cli(['uninstall', '--hooks']);
  expect(u2.exitCode).toBe(0);
  expect(snapshot(dir)).toEqual(before);
}

describe('install --hooks / uninstall', () => {
  it('chains a hand-written hook and restores it byte for byte', async () => {
    const repo = makeRepo({ commit: true });
    const dir = hooksDir(repo);
    const log = path.join(repo.home, 'old-hook.log');
    script(path.join(dir, 'pre-commit'), `#!/bin/sh\n# hand-written, no trailing newline\necho "old pre-commit $0" >> '${log}'`);
    script(path.join(dir, 'commit-msg'), `#!/bin/sh\nexit 0\n`);
    await roundTrip(repo, dir);

    await repo.cli(['install', '--hooks']);
    expect(existsSync(path.join(dir, 'pre-commit.handoff-chained'))).toBe(true);
    repo.write('x.txt', 'x\n');
    repo.git(['add', 'x.txt']);
    expect(gitAs(repo, null, ['commit', '-q', '-m', 'person']).status).toBe(0);
    // the chained hook ran, and saw itself as .git/hooks/pre-commit
    expect(readFileSync(log, 'utf8')).toMatch(/old pre-commit .*\.git\/hooks\/pre-commit$/m);
  });

  it('installs into core.hooksPath and restores it byte for byte', async () => {
    const repo = makeRepo({ commit: true });
    const dir = path.join(repo.dir, '.githooks');
    mkdirSync(dir);
    script(path.join(dir, 'pre-push'), '#!/bin/sh\necho custom pre-push\n');
    script(path.join(dir, 'reference-transaction'), '#!/bin/sh\ncat >/dev/null\n');
    repo.git(['config', 'core.hooksPath', '.githooks']);
    await roundTrip(repo, dir);
    await repo.cli(['install', '--hooks']);
    expect(readdirSync(dir).sort()).toContain('reference-transaction.handoff-chained');
    expect(existsSync(path.join(repo.dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    const d = await repo.cli(['doctor', '--json']);
    const items = json(d).items.filter((i: any) => i.component.startsWith('git hook'));
    expect(items.map((i: any) => i.status)).toEqual(['ok', 'ok', 'ok', 'chained', 'chained']);
  });

  it("keeps husky's .husky/_ layout working: the chained hook still finds its script from $0", async () => {
    const repo = makeRepo({ commit: true });
    const underscore = path.join(repo.dir, '.husky', '_');
    mkdirSync(underscore, { recursive: true });
    const log = path.join(repo.home, 'husky.log');
    // husky's dispatcher: .husky/_/<hook> sources .husky/_/h, which runs .husky/<basename of $0>
    script(path.join(underscore, 'h'), '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\n');
    for (const h of ['pre-commit', 'commit-msg']) script(path.join(underscore, h), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n');
    script(path.join(repo.dir, '.husky', 'pre-commit'), `echo "husky pre-commit ran" >> '${log}'\n`);
    script(path.join(repo.dir, '.husky', 'commit-msg'), `echo "husky commit-msg ran on $1" >> '${log}'\n`);
    repo.git(['config', 'core.hooksPath', '.husky/_']);
    const original = snapshot(underscore);
    await roundTrip(repo, underscore);
    await repo.cli(['install', '--hooks']);
    repo.write('y.txt', 'y\n');
    repo.git(['add', 'y.txt']);
    expect(gitAs(repo, A, ['commit', '-q', '-m', 'agent with husky']).status).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('husky pre-commit ran\nhusky commit-msg ran on .git/COMMIT_EDITMSG\n');
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${A}`);
    // husky regenerates .husky/_ (npm install): doctor says so, and install again puts the stubs back
    for (const h of ['pre-commit', 'commit-msg']) script(path.join(underscore, h), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n');
    const d = await repo.cli(['doctor']);
    expect(d.exitCode).toBe(1);
    expect(String(d.stdout)).toMatch(/git hook pre-commit\s+broken/);
    const again = await repo.cli(['install', '--hooks']);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(String(again.stdout)).toContain('pre-commit: reinstalled over a regenerated copy of pre-commit.handoff-chained');
    expect((await repo.cli(['doctor'])).exitCode).toBe(0);
    expect((await repo.cli(['uninstall', '--hooks'])).exitCode).toBe(0);
    expect(snapshot(underscore)).toEqual(original);
  });

  it("leaves lefthook's <hook>.old and pre-commit's <hook>.legacy alone, and a stub moved there still works", async () => {
    const repo = makeRepo({ commit: true });
    const dir = hooksDir(repo);
    script(path.join(dir, 'pre-push.old'), '#!/bin/sh\necho lefthook kept me\n');
    script(path.join(dir, 'commit-msg.legacy'), '#!/bin/sh\necho pre-commit kept me\n');
    await roundTrip(repo, dir);
    // a hook manager installed after us moves our stub to <hook>.legacy and runs it from its own hook
    await repo.cli(['install', '--hooks']);
    const { renameSync } = await import('node:fs');
    renameSync(path.join(dir, 'prepare-commit-msg'), path.join(dir, 'prepare-commit-msg.legacy'));
    script(path.join(dir, 'prepare-commit-msg'), '#!/bin/sh\nexec "$(dirname "$0")/prepare-commit-msg.legacy" "$@"\n');
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'via manager']).status).toBe(0);
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${A}`);
    const d = json(await repo.cli(['doctor', '--json']));
    expect(d.items.find((i: any) => i.component === 'git hook prepare-commit-msg').status).toBe('chained');
  });

  it('refuses to install over an occupied chain slot and changes nothing', async () => {
    const repo = makeRepo({ commit: true });
    const dir = hooksDir(repo);
    script(path.join(dir, 'pre-commit'), '#!/bin/sh\nexit 0\n');
    script(path.join(dir, 'pre-commit.handoff-chained'), '#!/bin/sh\nexit 1\n');
    const before = snapshot(dir);
    const r = await repo.cli(['install', '--hooks']);
    expect(r.exitCode).toBe(7);
    expect(String(r.stderr)).toMatch(/pre-commit\.handoff-chained already exists and differs/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('installs once for all linked worktrees (the common hooks directory)', async () => {
    const repo = makeRepo({ commit: true });
    const wt = path.join(tempDir(), 'wt');
    repo.git(['worktree', 'add', '-q', '-b', 'side', wt]);
    const r = await repo.cli(['install', '--hooks'], { cwd: wt });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(existsSync(path.join(hooksDir(repo), 'pre-commit'))).toBe(true);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'in worktree'], {}).status).toBe(0);
    expect(repo.git(['commit', '-q', '--allow-empty', '-m', 'wt'], { cwd: wt, env: { GIT_HANDOFF_SESSION: A } }).status).toBe(0);
    expect(repo.git(['log', '-1', '--format=%B', 'side']).stdout).toContain(`Claude-Session-Id: ${A}`);
  });
});

describe('chaining', () => {
  it("a chained hook's refusal still blocks, and a chained pre-push gets the same arguments and input", async () => {
    const repo = makeRepo({ commit: true });
    const dir = hooksDir(repo);
    const seen = path.join(repo.home, 'pre-push.seen');
    script(path.join(dir, 'pre-commit'), '#!/bin/sh\necho "project rule failed" >&2\nexit 3\n');
    script(path.join(dir, 'pre-push'), `#!/bin/bash\n{ echo "args: $*"; cat; } > '${seen}'\n`);
    await repo.cli(['install', '--hooks']);
    const before = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const r = gitAs(repo, null, ['commit', '--allow-empty', '-m', 'blocked by the project hook']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('project rule failed');
    expect(repo.git(['rev-parse', 'HEAD']).stdout.trim()).toBe(before);
    const bare = makeRepo({ init: ['--bare'] });
    repo.git(['remote', 'add', 'origin', bare.dir]);
    expect(gitAs(repo, null, ['push', '-q', 'origin', 'main']).status).toBe(0);
    expect(readFileSync(seen, 'utf8')).toBe(`args: origin ${bare.dir}\nrefs/heads/main ${before} refs/heads/main ${'0'.repeat(40)}\n`);
  });

  it("records a launcher path with spaces and quotes, and works from a repository path with them", async () => {
    const root = path.join(tempDir(), "it's a dir");
    mkdirSync(root);
    const { symlinkSync } = await import('node:fs');
    const launcher = path.join(root, 'git-handoff');
    symlinkSync(BIN, launcher);
    const repo = makeRepo({ commit: true });
    const dir = path.join(root, 'hooks dir');
    mkdirSync(dir);
    script(path.join(dir, 'commit-msg'), `#!/bin/sh\necho "chained saw $0" >&2\n`);
    repo.git(['config', 'core.hooksPath', dir]);
    for (const n of HOOK_NAMES) installStub(dir, n, launcher);
    const r = gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'quoted'], { PATH: '/usr/bin:/bin' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`chained saw ${dir}/commit-msg`);
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${A}`);
  });

  it('runs a chained binary and a chained script without #! the way git would', async () => {
    const repo = makeRepo({ commit: true });
    const dir = hooksDir(repo);
    const { copyFileSync } = await import('node:fs');
    copyFileSync('/bin/false', path.join(dir, 'pre-commit'));
    script(path.join(dir, 'commit-msg'), 'echo "no shebang ran" >&2\n');
    await repo.cli(['install', '--hooks']);
    expect(gitAs(repo, null, ['commit', '--allow-empty', '-m', 'x']).status).not.toBe(0);
    const r = gitAs(repo, null, ['commit', '--no-verify', '--allow-empty', '-m', 'x']);
    expect(r.status).toBe(0);
    const { unlinkSync } = await import('node:fs');
    await repo.cli(['uninstall', '--hooks']);
    unlinkSync(path.join(dir, 'pre-commit'));
    await repo.cli(['install', '--hooks']);
    expect(gitAs(repo, null, ['commit', '--allow-empty', '-m', 'y']).stderr).toContain('no shebang ran');
  });

  it('finds git-handoff on PATH when the recorded launcher has moved', async () => {
    const repo = makeRepo({ commit: true });
    for (const n of HOOK_NAMES) installStub(hooksDir(repo), n, path.join(repo.home, 'moved', 'git-handoff'));
    const bin = path.join(repo.home, 'bin');
    mkdirSync(bin);
    const { symlinkSync } = await import('node:fs');
    symlinkSync(BIN, path.join(bin, 'git-handoff'));
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'found on PATH'], { PATH: `${bin}:${process.env.PATH}` }).status).toBe(0);
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${A}`);
  });
});

describe('doctor', () => {
  it('reports missing before install, ok after, and broken (exit 1) when the launcher is gone or a stub is removed', async () => {
    const repo = makeRepo({ commit: true });
    let d = await repo.cli(['doctor', '--json']);
    expect(json(d).items.filter((i: any) => i.component.startsWith('git hook')).every((i: any) => i.status === 'missing')).toBe(true);
    await repo.cli(['install', '--hooks']);
    d = await repo.cli(['doctor']);
    expect(d.exitCode).toBe(0);
    expect(String(d.stdout)).toMatch(/git hook pre-commit\s+ok/);

    const { unlinkSync } = await import('node:fs');
    unlinkSync(path.join(hooksDir(repo), 'pre-push'));
    d = await repo.cli(['doctor']);
    expect(d.exitCode).toBe(1);
    expect(String(d.stdout)).toMatch(/git hook pre-push\s+broken\s+not installed/);

    installStub(hooksDir(repo), 'pre-push', path.join(repo.home, 'gone', 'git-handoff'));
    d = await repo.cli(['doctor', '--json']);
    expect(d.exitCode).toBe(1);
    expect(json(d).items.find((i: any) => i.component === 'git hook pre-push')).toMatchObject({ status: 'broken', detail: expect.stringMatching(/is gone/) });

    // stubs that git no longer runs, because core.hooksPath now points elsewhere
    await repo.cli(['install', '--hooks']);
    repo.git(['config', 'core.hooksPath', '.husky/_']);
    d = await repo.cli(['doctor']);
    expect(d.exitCode).toBe(1);
    expect(String(d.stdout)).toMatch(/never run: core\.hooksPath points git to .*\.husky\/_/);
  });
});

describe('the stubs', () => {
  /** Installs the stubs with a fake launcher that records each call instead of starting node. */
  function withRecorder(real = false) {
    const repo = makeRepo({ commit: true });
    const calls = path.join(repo.home, 'calls.log');
    // a recorder alone, or one that then runs the real launcher
    const launcher = script(path.join(repo.home, 'git-handoff'), `#!/bin/sh\necho "$*" >> '${calls}'\n${real ? `exec '${BIN}' "$@"` : 'cat >/dev/null'}\n`);
    for (const n of HOOK_NAMES) installStub(hooksDir(repo), n, launcher);
    const read = () => (existsSync(calls) ? readFileSync(calls, 'utf8') : '');
    return { repo, read };
  }

  it("start nothing for a person's commit, amend, reset and branch, and one handler for an agent's ordinary commit", () => {
    const { repo, read } = withRecorder(true);
    const asked = () => read().split('\n').filter(Boolean).map((l) => l.split(' ').slice(0, 2).join(' '));
    const clear = () => rmSync(path.join(repo.home, 'calls.log'), { force: true });
    repo.write('a.txt', 'a\n');
    repo.git(['add', 'a.txt']);
    expect(gitAs(repo, null, ['commit', '-q', '-m', 'person']).status).toBe(0);
    expect(gitAs(repo, null, ['commit', '-q', '--amend', '-m', 'person amend']).status).toBe(0);
    expect(gitAs(repo, null, ['reset', '-q', '--hard', 'HEAD~1']).status).toBe(0);
    expect(gitAs(repo, null, ['branch', 'other']).status).toBe(0);
    expect(read()).toBe('');
    // an agent's ordinary commit: prepare-commit-msg's handler adds the trailers and judges the message it made;
    // commit-msg finds that message byte for byte, pre-commit is its handler's to skip, the branch moves forward
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'agent', '-m', 'body']).status).toBe(0);
    expect(messageOf(repo)).toBe(`agent\n\nbody\n\nClaude-Session-Id: ${A}\nHandoff-Client: cli\n\n`);
    expect(asked()).toEqual(['githook prepare-commit-msg']);
    // the same with its own id already in the message, with another session's ledger here, and with --no-verify
    clear();
    ledgerWrite(repo, B, ['other.txt']);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', `agent 2\n\nClaude-Session-Id: ${A}`]).status).toBe(0);
    expect(gitAs(repo, A, ['commit', '-q', '--no-verify', '--allow-empty', '-m', 'agent 3']).status).toBe(0);
    expect(asked()).toEqual(['githook prepare-commit-msg', 'githook prepare-commit-msg']);
    // an editor that changes the message after: commit-msg's handler reads it
    clear();
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-e', '-m', 'agent 4'], { GIT_EDITOR: "sed -i '1s/^/edited /'" }).status).toBe(0);
    expect(asked()).toEqual(['githook prepare-commit-msg', 'githook commit-msg']);
    // an agent's amend (the branch not moved forward) and a handoff ref in a transaction: reference-transaction's
    clear();
    expect(gitAs(repo, A, ['commit', '-q', '--amend', '--allow-empty', '-m', 'agent amend']).status).toBe(0);
    expect(asked()).toEqual(['githook prepare-commit-msg', 'githook reference-transaction']);
    // a person's message with a line that could be a session trailer: commit-msg's handler reads it
    clear();
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'person\n\nclaude-session-id : x']).status).toBe(0);
    expect(asked()).toEqual(['githook commit-msg']);
    clear();
    gitAs(repo, null, ['update-ref', 'refs/handoffs/main/some-topic', 'HEAD']);
    expect(read()).toMatch(/^githook reference-transaction prepared/);
    // a live claim here: a person's pre-commit asks
    clear();
    writeFileSync(path.join(repo.dir, '.git', 'handoff', 'claims.json'), '{"claims":[]}\n');
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'person claimed']).status).toBe(0);
    expect(asked()).toEqual(['githook pre-commit']);
  });

  it("refuse a session's git and let a person's go on when git-handoff itself fails; a refusal is exit 3 or 6", async () => {
    const repo = makeRepo({ commit: true });
    for (const rc of [1, 127]) {
      const broken = script(path.join(repo.home, 'git-handoff'), `#!/bin/sh\necho "Error: Cannot find module dist/fast.cjs" >&2\nexit ${rc}\n`);
      for (const n of HOOK_NAMES) installStub(hooksDir(repo), n, broken);
      const before = repo.git(['rev-parse', 'HEAD']).stdout;
      const s = gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', `a broken install\n\nClaude-Session-Id: ${A}`]);
      expect(s.status, `exit ${rc}`).not.toBe(0);
      expect(s.stderr).toContain(`git-handoff: the prepare-commit-msg check could not run (exit ${rc}), so this session's git is refused; \`git handoff doctor\` says why`);
      expect(repo.git(['rev-parse', 'HEAD']).stdout).toBe(before);
      const r = gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'a person, despite a broken install\n\nclaude-session-id : x']);
      expect(r.status).toBe(0);
      expect(r.stderr).toContain(`git-handoff: the commit-msg check failed (exit ${rc}); allowed`);
    }
    const { writeFileSync } = await import('node:fs');
    const msg = path.join(repo.home, 'msg');
    writeFileSync(msg, `x\n\nClaude-Session-Id: ${A}\nClaude-Session-Id: other-session\n`);
    expect((await repo.cli(['githook', 'commit-msg', msg])).exitCode).toBe(6);
    writeFileSync(msg, `x\n\nClaude-Session-Id: other-session\n`);
    expect((await repo.cli(['githook', 'commit-msg', msg], { env: { GIT_HANDOFF_SESSION: A } })).exitCode).toBe(3);
  });

  it("start node as installed: a caller's NODE_OPTIONS (a bad flag, a preload that ends node) does not skip the check", async () => {
    const repo = makeRepo({ commit: true });
    await repo.cli(['install', '--hooks']);
    const preload = script(path.join(repo.home, 'quiet.js'), 'process.exit(0);\n');
    for (const NODE_OPTIONS of [`--require=${preload}`, '--no-such-flag']) {
      const r = gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'agent'], { NODE_OPTIONS, GIT_HANDOFF_BIN: BIN });
      expect(r.status, `${NODE_OPTIONS}: ${r.stderr}`).toBe(0);
      expect(messageOf(repo), NODE_OPTIONS).toContain(`Claude-Session-Id: ${A}`);
    }
  });

  it('do nothing when git-handoff is gone, and still run the chained hook with the same stdin', () => {
    const repo = makeRepo({ commit: true });
    const dir = hooksDir(repo);
    const seen = path.join(repo.home, 'seen');
    script(path.join(dir, 'reference-transaction'), `#!/bin/sh\ncat >> '${seen}'\n`);
    for (const n of HOOK_NAMES) installStub(dir, n, path.join(repo.home, 'nowhere', 'git-handoff'));
    const env = { PATH: '/usr/bin:/bin' };
    const before = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'no binary'], env).status).toBe(0);
    expect(messageOf(repo)).not.toContain('Claude-Session-Id');
    const after = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const lines = readFileSync(seen, 'utf8');
    expect(lines).toContain(`${before} ${after} refs/heads/main\n`);
    expect(lines).toMatch(/^[0-9a-f]{40} [0-9a-f]{40} HEAD\n/);
  });
});
