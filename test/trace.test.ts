// GIT_HANDOFF_TRACE=<file> (src/trace.ts, issue 39): each node process of git-handoff writes its phases, and every
// git process it starts with its command line and duration. bench/trace.mjs reads these lines; the git lines also
// count the git processes a command costs, which no machine load changes.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, tempDir } from './helpers/repo';

interface Line {
  pid: number;
  t: number;
  at: number;
  cpu: number;
  faults: number;
  phase: string;
  detail?: string;
  ms?: number;
}

const env = { GIT_HANDOFF_SESSION: 'trace-session' };
const lines = (file: string): Line[] => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
const gits = (ls: Line[]) => ls.filter((l) => l.phase === 'git').map((l) => l.detail!.split(' ').find((w, i, ws) => !w.startsWith('-') && ws[i - 1] !== '-c'));

describe('GIT_HANDOFF_TRACE', () => {
  it('write and show record their phases in order, each git process they start, and one start and exit line', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'trace-phases', '-m', 'Goal: one'], { env })).exitCode).toBe(0);
    const file = path.join(tempDir(), 'trace.jsonl');
    const w = await repo.cli(['write', 'trace-phases', '-m', 'Goal: two'], { env: { ...env, GIT_HANDOFF_TRACE: file } });
    expect(w.exitCode).toBe(0);
    const ws = lines(file);
    expect(new Set(ws.map((l) => l.pid)).size).toBe(1);
    expect(ws.filter((l) => l.phase === 'start')).toHaveLength(1);
    expect(ws[0]).toMatchObject({ phase: 'start', detail: 'write trace-phases -m Goal: two', t: 0, cpu: 0, faults: 0 });
    expect(ws.at(-1)!.phase).toBe('exit');
    expect(ws.filter((l) => l.phase === 'exit')).toHaveLength(1);
    for (let i = 1; i < ws.length; i++) expect(ws[i].t).toBeGreaterThanOrEqual(ws[i - 1].t);
    // the pages the process touched so far: node's own start is most of them (thousands), and they only grow
    expect(ws[1].faults).toBeGreaterThan(100);
    for (let i = 2; i < ws.length; i++) expect(ws[i].faults).toBeGreaterThanOrEqual(ws[i - 1].faults);
    expect(ws.map((l) => l.phase)).toEqual(expect.arrayContaining(['load', 'compiled', 'cli ready', 'parsed', 'record check', 'secret scan', 'objects written', 'commit written', 'handler done']));
    // a write of an existing topic: its git processes, as git spawns them (the ref moves only through update-ref)
    expect(gits(ws).at(-1)).toBe('update-ref');
    for (const g of ws.filter((l) => l.phase === 'git')) expect(g.ms).toBeGreaterThanOrEqual(0);
    // every git process is announced just before it starts
    expect(ws.filter((l) => l.phase === 'git start')).toHaveLength(gits(ws).length);

    const file2 = path.join(tempDir(), 'trace.jsonl');
    const s = await repo.cli(['show', 'trace-phases'], { env: { ...env, GIT_HANDOFF_TRACE: file2 } });
    expect(s.exitCode).toBe(0);
    expect(s.stdout).toContain('Goal: two');
    const ss = lines(file2);
    expect(ss[0].detail).toBe('show trace-phases');
    // the loss record's comparison of the refs show read (zlib's first load, the record inflated): its own phase
    const read = ss.findIndex((l) => l.phase === 'refs listed in process');
    expect(ss[read + 1].phase).toBe('reads compared');
    // the launcher ends a command at an empty event loop: the exit listeners (this line, the code cache) still run
    expect(ss.at(-1)!.phase).toBe('exit');
  }, 60_000);

  it('off (unset or empty) nothing is written; a trace file that cannot be written never fails the command', async () => {
    const repo = makeRepo({ commit: true });
    const dir = tempDir();
    const off = await repo.cli(['write', 'quiet-trace', '-m', 'Goal: x'], { env: { ...env, GIT_HANDOFF_TRACE: '' }, cwd: repo.dir });
    expect(off.exitCode).toBe(0);
    const bad = path.join(dir, 'no-such-dir', 'trace.jsonl');
    const r = await repo.cli(['show', 'quiet-trace', '--raw'], { env: { ...env, GIT_HANDOFF_TRACE: bad } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('Goal: x');
    expect(existsSync(bad)).toBe(false);
  }, 60_000);

  it("the guard's node path: the first look's decision and answer; a call for the full guard: its phases", () => {
    const repo = makeRepo({ commit: true });
    const session = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';
    const payload = (command: string) => JSON.stringify({ session_id: session, cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const run = (command: string) => {
      const file = path.join(tempDir(), 'trace.jsonl');
      const r = spawnSync(BIN, ['guard', '--client=claude-code'], { cwd: repo.dir, env: { ...repo.env, CLAUDE_CODE_SESSION_ID: session, CLAUDE_PROJECT_DIR: repo.dir, GIT_HANDOFF_TRACE: file }, input: payload(command), encoding: 'utf8' });
      return { out: r.stdout, ls: lines(file) };
    };
    const refused = run('git update-ref -d refs/handoffs/main/auth-refactor');
    expect(refused.out).toContain('deny');
    const phases = refused.ls.map((l) => l.phase);
    expect(phases).toEqual(expect.arrayContaining(['guard.cjs ready', 'stdin read', 'first look', 'answered', 'exit']));
    // refused by the first look alone, or handed over and refused by the full guard: the trace says which
    const look = refused.ls.find((l) => l.phase === 'first look')!.detail!;
    if (look.startsWith('handed over')) expect(refused.ls.find((l) => l.phase === 'decided')!.detail).toBe('deny');
    else expect(look).toBe('decided (refused)');
    const commit = run('git commit -m x');
    const cp = commit.ls.map((l) => l.phase);
    // a git command the first look never answers goes to the full guard without it (src/fast-guard.ts)
    expect(cp).not.toContain('first look');
    expect(commit.ls.filter((l) => l.phase === 'load').map((l) => l.detail)).toEqual(['fast.cjs']);
    expect(cp).toEqual(expect.arrayContaining(['full guard ready', 'decided', 'answered', 'exit']));
    const again = run('git commit -m x');
    expect(again.ls.filter((l) => l.phase === 'load').map((l) => l.detail)).toEqual(['fast.cjs']);
    expect(again.ls.map((l) => l.phase)).toEqual(expect.arrayContaining(['full guard ready', 'decided', 'answered', 'exit']));
  }, 60_000);
});
