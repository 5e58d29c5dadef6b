// Issue 13 item 12: one output layer. Whatever the data holds (a branch name decoded from a pushed ref, an owner
// from a hand-made trailer), nothing the CLI prints to a terminal carries an escape sequence, a C1 control or a bidi
// control: list's owner and branch columns, write's refusal, fetch's lines. Run under a real pseudo-terminal.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, type TestRepo } from './helpers/repo';
import { makeWorld, ok } from './sync/world';

/** Runs the CLI under `script` (a real pty), returns what the terminal received. The pager is `cat`: less draws
 * its own terminal codes, and what this checks is the bytes git-handoff prints from data. */
function onTerminal(repo: TestRepo, args: string[], env: Record<string, string> = {}): string {
  const cmd = [BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: repo.dir, env: { ...repo.env, GIT_PAGER: 'cat', ...env }, encoding: 'utf8', timeout: 60_000 });
  return r.stdout;
}

// OSC 52 clipboard write, window title, concealed text, a C1 CSI, a bidi override, cursor movement, terminal reset.
const NASTY = ['\x1b]52;c;ZWNobyBwd25lZA==\x07', '\x1b]0;owned\x1b\\', '\x1b[8mhidden\x1b[0m', '\u009b31m', '\u202eevil', '\x1b[2A', '\x1bc', '\x1bP1$r\x1b\\'];
const encode = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => (/[a-z0-9_-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

function assertClean(text: string, what: string) {
  expect(text, what).not.toMatch(/\x1b|[\x80-\x9f]|[\u202a-\u202e\u2066-\u2069]/);
  expect(text.length, what).toBeGreaterThan(0);
}

/** A handoff on a branch whose name holds `nasty`, owned by a session whose id holds a bidi control (hand-made). */
function plant(repo: TestRepo, nasty: string, i: number): void {
  const tree = repo.git(['mktree'], { input: '' }).stdout.trim();
  const oid = repo.git(['commit-tree', tree], { input: `handoff(evil-topic): x\n\nClaude-Session-Id: sess\u202e${i}\nHandoff-Topic: evil-topic\n` }).stdout.trim();
  repo.git(['update-ref', `refs/handoffs/${encode(`b${i}${nasty}`)}/evil-topic`, oid]);
}

describe('one sanitising output layer (issue 13 item 12)', () => {
  it('list, show and log print no escape, C1 or bidi control from data to a terminal; pipes keep JSON exact', async () => {
    const repo = makeRepo({ commit: true });
    NASTY.forEach((n, i) => plant(repo, n, i));
    assertClean(onTerminal(repo, ['list', '--all']), 'list');
    assertClean(onTerminal(repo, ['list', '--all', '--json']), 'list --json');
    for (let i = 0; i < NASTY.length; i++) {
      const branch = `b${i}${NASTY[i]}`;
      assertClean(onTerminal(repo, ['show', 'evil-topic', '--branch', branch]), `show ${i}`);
      assertClean(onTerminal(repo, ['log', 'evil-topic', '--branch', branch]), `log ${i}`);
      // write's refusal names the owner (its id holds a bidi control): on stderr, same layer; --branch itself refuses C0
      if (/[\x00-\x1f\x7f]/.test(branch)) continue;
      const refusal = onTerminal(repo, ['write', 'evil-topic', '--branch', branch, '-m', 'x', '--session', 'intruder']);
      expect(refusal).toMatch(/owned by session/);
      assertClean(refusal, `write refusal ${i}`);
    }
    // off a terminal the JSON is exact: the names come back whole
    const rows = JSON.parse(String((await ok(repo, ['list', '--all', '--json'])).stdout));
    expect(rows.map((r: any) => r.branch).sort()).toEqual(NASTY.map((n, i) => `b${i}${n}`).sort());
  });

  it('a hook refusal and a server refusal name an owner with a bidi control without printing it', async () => {
    const { a, b, bare } = await makeWorld('file', { server: true });
    const hooked = await a.cli(['install', '--hooks']);
    expect(hooked.exitCode).toBe(0);
    const tree = a.git(['mktree'], { input: '' }).stdout.trim();
    const owned = a.git(['commit-tree', tree], { input: 'handoff(evil-topic): x\n\nClaude-Session-Id: sess\u202eowner\nHandoff-Topic: evil-topic\n' }).stdout.trim();
    a.git(['update-ref', 'refs/handoffs/main/evil-topic', owned]);
    a.git(['push', '-q', 'origin', 'refs/handoffs/main/evil-topic']);
    const steal = a.git(['commit-tree', tree, '-p', owned], { input: 'handoff(evil-topic): x\n\nClaude-Session-Id: thief\n' }).stdout.trim();
    const local = a.git(['update-ref', 'refs/handoffs/main/evil-topic', steal, owned], { allowFail: true });
    expect(local.stderr).toMatch(/without a takeover/);
    expect(local.stderr).not.toMatch(/[\u202a-\u202e]/);
    b.git(['fetch', '-q', 'origin', 'refs/handoffs/*:refs/handoffs/*']);
    const pushed = b.git(['push', 'origin', `${b.git(['commit-tree', tree, '-p', owned], { input: 'handoff(evil-topic): x\n\nClaude-Session-Id: thief\n' }).stdout.trim()}:refs/handoffs/main/evil-topic`], { allowFail: true });
    expect(pushed.stderr).toMatch(/remote: git-handoff: refused/);
    expect(pushed.stderr).not.toMatch(/[\u202a-\u202e]/);
    expect(bare.dir).toBeTruthy();
  });

  it("fetch's lines (new, diverged) print no control from a remote's names", async () => {
    const { a, b } = await makeWorld('file');
    await ok(a, ['write', 'auth-refactor', '-m', 'x', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    NASTY.forEach((n, i) => plant(b, n, i));
    await ok(b, ['write', 'auth-refactor', '-m', 'b diverges', '--session', 'sess-a']);
    await ok(a, ['write', 'auth-refactor', '-m', 'a diverges', '--session', 'sess-a']);
    b.git(['push', '-q', 'origin', 'refs/handoffs/*:refs/handoffs/*', '--force']);
    const out = onTerminal(a, ['fetch']);
    expect(out).toMatch(/diverged/);
    assertClean(out, 'fetch');
  });
});
