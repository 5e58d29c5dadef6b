// `status --watch` through a real terminal (`script` gives it a pty): drawn, drawn again in place when a ref changes,
// ended by Ctrl-C typed into the terminal with exit 0, and no process of it left. The line runs in bash, which goes on
// after a child that ended on SIGINT with a code of its own (dash, /bin/sh here, ends itself on the same SIGINT).
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guard, payload } from '../guard/helpers';
import { BIN, makeRepo, type TestRepo } from '../helpers/repo';
import { handoffProcessesIn } from '../helpers/procs';

const CLEAR = '\x1b[H\x1b[2J';

/** `cmd` in bash on a pty (`script`), its output as the terminal received it, and a way to wait on what it showed. */
function onPty(repo: TestRepo, cmd: string) {
  const child = spawn('script', ['-q', '-f', '-e', '-c', cmd, '/dev/null'], { cwd: repo.dir, env: { ...repo.env, TERM: 'xterm', SHELL: '/bin/bash' }, stdio: ['pipe', 'pipe', 'pipe'] });
  const t = { child, out: '' };
  child.stdout.on('data', (d) => (t.out += d));
  const until = async (what: () => boolean, label: string) => {
    const end = Date.now() + 60_000;
    while (!what()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${label}; the terminal showed:\n${t.out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const cleanup = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    for (const p of handoffProcessesIn(repo.dir)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  };
  return { t, until, cleanup, frames: () => t.out.split(CLEAR).length - 1, last: () => t.out.slice(t.out.lastIndexOf(CLEAR) + CLEAR.length) };
}

/** A frame's lines as the window shows them, and the widest one in terminal columns. */
const screen = (frame: string) => {
  const lines = frame.replace(/\x1b\[\?1049[hl]/g, '').split(/\r?\n/);
  return { lines, widest: Math.max(...lines.map((l) => [...l].length)) };
};

describe('status --watch', () => {
  it('redraws in place when a ref changes and ends cleanly on Ctrl-C', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'first-topic', '--session', 'alice', '-m', 'Goal: one'])).exitCode).toBe(0);
    const child = spawn('script', ['-q', '-f', '-e', '-c', `'${BIN}' status --watch --color=never; echo "watch exited $?"`, '/dev/null'], { cwd: repo.dir, env: { ...repo.env, TERM: 'xterm', SHELL: '/bin/bash' }, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const until = async (what: () => boolean, label: string) => {
        const end = Date.now() + 60_000;
        while (!what()) {
          if (Date.now() > end) throw new Error(`timed out waiting for ${label}; the terminal showed:\n${out}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      await until(() => out.includes('first-topic') && out.includes('watching:'), 'the first frame');
      const frames = out.split(CLEAR).length - 1;
      expect(frames).toBe(1);
      expect((await repo.cli(['write', 'second-topic', '--session', 'bob', '-m', 'Goal: two'])).exitCode).toBe(0);
      await until(() => out.split(CLEAR).length - 1 > frames && out.slice(out.lastIndexOf(CLEAR)).includes('second-topic'), 'a redraw with the new handoff');
      const last = out.slice(out.lastIndexOf(CLEAR));
      expect(last).toContain('first-topic');
      expect(last).toMatch(/bob\s+just now/);
      // a branch switched: the next frame is of that branch
      const before = out.split(CLEAR).length - 1;
      repo.git(['switch', '-q', '-c', 'other-work']);
      await until(() => out.split(CLEAR).length - 1 > before && out.slice(out.lastIndexOf(CLEAR)).includes('branch other-work'), 'a redraw of the new branch');
      expect(out.slice(out.lastIndexOf(CLEAR))).toContain('Handoffs on other-work (0)');
      // Ctrl-C as a person types it: the terminal turns it into SIGINT for the command
      child.stdin.write('\x03');
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      expect(code).toBe(0);
      expect(out).toContain('watch exited 0');
      expect(handoffProcessesIn(repo.dir)).toEqual([]);
    } finally {
      // a failed step's cleanup: the terminal and what runs in it
      if (child.exitCode === null) child.kill('SIGKILL');
      for (const p of handoffProcessesIn(repo.dir)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
    }
  });

  it('fits an 80x24 terminal with three claiming sessions and a dozen handoffs, and fits again after a resize', async () => {
    const repo = makeRepo({ commit: true });
    const sessions = ['5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90', 'c1d2e3f4-0000-4000-8000-000000000001', '9b1e77d0-2222-4333-8444-555566667777'];
    for (const [i, s] of sessions.entries()) {
      expect((await guard(repo, payload(repo, 'claude-code/session-start.json', {}, s))).exitCode).toBe(0);
      const env = { CLAUDE_CODE_SESSION_ID: s };
      const claim = await repo.cli(['claim', `src/area-${i}/`, `src/area-${i}/a-rather-long-file-name-that-makes-the-line-wrap-on-a-small-terminal.ts`, '--note', 'a note long enough to run past the edge of an eighty-column window'], { env });
      expect(claim.exitCode, String(claim.stderr)).toBe(0);
      for (let n = 0; n < 4; n++) expect((await repo.cli(['write', `topic-${i}-${n}-with-a-long-descriptive-name-for-the-table`, '-m', `Goal: ${n}`], { env })).exitCode).toBe(0);
    }
    const go = path.join(repo.home, 'resize');
    // the pty is 80x24; once the test says so, a job on the same terminal makes it 60x15 (the kernel tells the watch: SIGWINCH)
    const pty = onPty(repo, `stty rows 24 cols 80; (while [ ! -e '${go}' ]; do sleep 0.05; done; stty rows 15 cols 60 </dev/tty) & '${BIN}' status --watch --color=never; echo "watch exited $?"`);
    try {
      await pty.until(() => pty.frames() > 0 && pty.last().includes('watching:'), 'the first frame');
      const first = screen(pty.last());
      expect(first.lines.length).toBeLessThanOrEqual(24);
      expect(first.widest).toBeLessThanOrEqual(80);
      expect(first.lines[0]).toMatch(/^git handoff status {2}branch main/);
      expect(pty.last()).toContain('Sessions (3');
      expect(pty.last()).toContain('Needs a person');
      expect(first.lines.at(-1)).toMatch(/^watching:/);
      // a long line is cut where the window ends, and says so
      expect(first.lines.some((l) => l.endsWith('…'))).toBe(true);
      const before = pty.frames();
      writeFileSync(go, '');
      // a redraw for a change of state may come first, still 80 wide: the one after the resize is the first narrower one
      await pty.until(() => pty.frames() > before && pty.last().includes('watching:') && screen(pty.last()).widest <= 60, 'a frame after the resize');
      const small = screen(pty.last());
      expect(small.lines.length).toBeLessThanOrEqual(15);
      expect(small.widest).toBeLessThanOrEqual(60);
      expect(small.lines[0]).toMatch(/^git handoff status/);
      expect(small.lines.at(-1)).toMatch(/^watching:/);
      pty.t.child.stdin.write('\x03');
      expect(await new Promise<number | null>((r) => pty.t.child.on('exit', r))).toBe(0);
      expect(pty.t.out).toContain('watch exited 0');
      expect(existsSync(go)).toBe(true);
    } finally {
      pty.cleanup();
    }
  });
});
