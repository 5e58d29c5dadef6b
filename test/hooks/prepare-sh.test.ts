// prepare-commit-msg decided in the stub (git-hooks/stub.sh add_trailer) where the handler's answer is certain: on
// every message shape below, a stub that did not ask the handler leaves the message file byte for byte as the handler
// (src/hooks/commit.ts prepareCommitMsg, through `git handoff githook`) leaves it; what it cannot be sure of, it asks.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installStub } from '../../src/hooks/install';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { A, gitAs, hooksDir, messageOf, script } from './helpers';

const SHAPES: string[] = [
  'agent work\n',
  'agent work',
  'agent work\n\nbody line\n',
  'subject\n\nSigned-off-by: A U Thor <a@example.com>\n',
  'subject\n\nCo-Authored-By: Claude <noreply@anthropic.com>',
  'subject\r\n\r\nbody\r\n',
  "Merge branch 'main' into side",
  'a\n\n\n',
  '\tindented\n',
  '  # not a comment: it does not start with one\n',
  '# Please enter the commit message\n# Lines starting with # are ignored\n',
  '',
  '\n\n',
  '   \n\t\n',
  '\r\n',
  'subject\n# a comment after it\n',
  'über alles\n',
  'ü\n',
  '日本語\n',
  '\u00a0\n',
  '\x01\n',
  'x\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n',
  '# ------------------------ >8 ------------------------\nClaude-Session-Id: in the diff\n',
  '# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n',
  `subject\n\nClaude-Session-Id: ${A}\n`,
  'subject\n\nclaude-session-id: someone-else\n',
  'subject\n\nClaude-Session-Id : spaced\n',
  'Claude-Session-Idle is not a trailer\n',
  'subject\n\n  Claude-Session-Id: indented\n',
  'subject\nFixes: #12\n',
  '$(touch pwned) `touch pwned` "quoted" \\back\\slash\n',
  '-n\n',
  '-e \\n\n',
];

/** The stub as install writes it, with a launcher that notes each call (and starts no node). */
function stubbed(): { repo: TestRepo; asked: () => boolean; reset: () => void } {
  const repo = makeRepo({ commit: true });
  const calls = path.join(repo.home, 'calls');
  const launcher = script(path.join(repo.home, 'git-handoff'), `#!/bin/sh\necho "$*" >> '${calls}'\n`);
  installStub(hooksDir(repo), 'prepare-commit-msg', launcher);
  return { repo, asked: () => existsSync(calls), reset: () => rmSync(calls, { force: true }) };
}

/** The stub on a message file in the git dir, as git runs it; whether it asked the handler, and the file after. */
function viaStub(s: ReturnType<typeof stubbed>, text: string, env: Record<string, string> = {}, file = path.join(s.repo.dir, '.git', 'COMMIT_EDITMSG')): { asked: boolean; after: string } {
  s.reset();
  writeFileSync(file, text);
  const r = spawnSync(path.join(hooksDir(s.repo), 'prepare-commit-msg'), [path.relative(s.repo.dir, file), 'message'], { cwd: s.repo.dir, env: { ...s.repo.env, GIT_HANDOFF_SESSION: A, ...env }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return { asked: s.asked(), after: readFileSync(file, 'latin1') };
}

/** The handler on the same text. */
async function viaNode(repo: TestRepo, text: string, env: Record<string, string> = {}): Promise<string> {
  const file = path.join(repo.dir, '.git', 'NODE_EDITMSG');
  writeFileSync(file, text);
  const r = await repo.cli(['githook', 'prepare-commit-msg', file, 'message'], { env: { GIT_HANDOFF_SESSION: A, ...env } });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return readFileSync(file, 'latin1');
}

describe('prepare-commit-msg in the stub', () => {
  it('leaves every message as the handler does, and asks it where it cannot be sure', async () => {
    const s = stubbed();
    let decided = 0;
    const wrong: string[] = [];
    for (const text of SHAPES) {
      const sh = viaStub(s, text);
      if (sh.asked) continue;
      decided++;
      const node = await viaNode(s.repo, text);
      if (sh.after !== node) wrong.push(`${JSON.stringify(text)}: stub ${JSON.stringify(sh.after)}, handler ${JSON.stringify(node)}`);
    }
    expect(wrong).toEqual([]);
    // most shapes are decided in shell; those that hold a session line, a scissors line or only bytes past ASCII are asked
    expect(decided).toBeGreaterThanOrEqual(20);
    for (const text of [`subject\n\nClaude-Session-Id: ${A}\n`, 'x\n# ------------------------ >8 ------------------------\n', 'ü\n', '\x01\n']) expect(viaStub(s, text).asked, JSON.stringify(text)).toBe(true);
    // nothing a message holds is run
    expect(existsSync(path.join(s.repo.dir, 'pwned'))).toBe(false);
  });

  it('asks the handler for an id it would refuse, under a comment character, and never adds during a rebase', async () => {
    const s = stubbed();
    for (const id of ['bad id', 'x'.repeat(129), 'semi;colon']) expect(viaStub(s, 'work\n', { GIT_HANDOFF_SESSION: id }).asked, id).toBe(true);
    expect(viaStub(s, 'work\n', { GIT_HANDOFF_SESSION: 'x'.repeat(128) }).asked).toBe(false);
    s.repo.git(['config', 'core.commentChar', ';']);
    expect(viaStub(s, '; a comment\n').asked).toBe(true);
    s.repo.git(['config', '--unset', 'core.commentChar']);
    expect(viaStub(s, 'work\n', { GIT_CONFIG_PARAMETERS: "'core.commentchar'='auto'" }).asked).toBe(true);
    mkdirSync(path.join(s.repo.dir, '.git', 'rebase-merge'));
    const during = viaStub(s, 'replayed\n');
    expect(during).toEqual({ asked: false, after: 'replayed\n' });
    expect(await viaNode(s.repo, 'replayed\n')).toBe('replayed\n');
    rmSync(path.join(s.repo.dir, '.git', 'rebase-merge'), { recursive: true });
    // a message file that is not in a git dir: asked
    expect(viaStub(s, 'work\n', {}, path.join(s.repo.home, 'msg')).asked).toBe(true);
  });

  it('under real commits (the stubs install writes, a linked worktree too): the trailer, no handler for an ordinary one', async () => {
    const s = stubbed();
    installStub(hooksDir(s.repo), 'commit-msg', path.join(s.repo.home, 'git-handoff'));
    expect(gitAs(s.repo, A, ['commit', '-q', '--allow-empty', '-m', 'one']).status).toBe(0);
    expect(messageOf(s.repo)).toBe(`one\n\nClaude-Session-Id: ${A}\n\n`);
    s.repo.git(['worktree', 'add', '-q', path.join(s.repo.home, 'wt')]);
    const wt = spawnSync('git', ['commit', '-q', '--allow-empty', '-m', 'two'], { cwd: path.join(s.repo.home, 'wt'), env: { ...s.repo.env, GIT_HANDOFF_SESSION: A }, encoding: 'utf8' });
    expect(wt.status, wt.stderr).toBe(0);
    expect(spawnSync('git', ['log', '-1', '--format=%B'], { cwd: path.join(s.repo.home, 'wt'), encoding: 'utf8' }).stdout).toBe(`two\n\nClaude-Session-Id: ${A}\n\n`);
    expect(s.asked()).toBe(false);
  });
});
