// `status --watch` through a real terminal (`script` gives it a pty): drawn, drawn again in place when a ref changes,
// ended by Ctrl-C typed into the terminal with exit 0, and no process of it left. The line runs in bash, which goes on
// after a child that ended on SIGINT with a code of its own (dash, /bin/sh here, ends itself on the same SIGINT).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo } from '../helpers/repo';
import { handoffProcessesIn } from '../helpers/procs';

const CLEAR = '\x1b[H\x1b[2J';

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
});
