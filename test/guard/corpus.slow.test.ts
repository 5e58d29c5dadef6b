// The shell-command corpus (fixtures/shell-corpus.json): commands that try to move, delete or write handoff refs or
// protected handoff files, rewrite another session's commits or write as another session — and harmless look-alikes.
// Every entry goes through every client's payload shape in-process (detect → parse → decide → render), and is wrapped in
// harmless shell; every second entry also goes through the real `git-handoff guard` command, client shapes in turn.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectClient } from '../../src/clients/index';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import { refOf } from '../helpers/repo';
import { guard, readLog } from './helpers';
import { foreignWorld, LEAK, malformed, ME, SHELL_CLIENTS, verdict } from './world';

interface Entry {
  command: string;
  expect: 'deny' | 'allow';
  kind: string;
  why: string;
}

const CORPUS: Entry[] = JSON.parse(readFileSync(path.join(__dirname, 'fixtures', 'shell-corpus.json'), 'utf8'));
// The shell knows the session (as Claude Code's and Codex's do), so `git handoff` steps are allowed as they are.
const ENV = { GIT_HANDOFF_SESSION: ME };
/** foreignWorld with the remote the person configured, which the corpus fetches from and pushes to. */
async function corpusWorld() {
  const repo = await foreignWorld();
  repo.git(['remote', 'add', 'origin', 'https://example.com/x.git']);
  return repo;
}

describe('shell-command corpus', () => {
  it('is large enough on both sides, with one reason per entry', () => {
    const denied = CORPUS.filter((e) => e.expect === 'deny');
    const allowed = CORPUS.filter((e) => e.expect === 'allow');
    expect(denied.length).toBeGreaterThanOrEqual(60);
    expect(allowed.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CORPUS.map((e) => e.command)).size).toBe(CORPUS.length);
    for (const e of CORPUS) expect(e.why, e.command).toMatch(/\w/);
  });

  it('every entry, in every client shape, in-process: the expected decision, well-formed, no internal error', async () => {
    const repo = await corpusWorld();
    const wrong: string[] = [];
    for (const e of CORPUS) {
      for (const { client, make } of SHELL_CLIENTS) {
        const p = make(repo, e.command);
        const adapter = detectClient(p);
        expect(adapter.client).toBe(client);
        const event = adapter.parse(p);
        const out = adapter.render(event, await decide(new GuardContext(event, { ...process.env, ...ENV }))) ?? '';
        const bad = malformed(client, out);
        if (bad) wrong.push(`${client} ${JSON.stringify(e.command)}: ${bad}`);
        else if (verdict(out) !== e.expect) wrong.push(`${client} ${JSON.stringify(e.command)}: expected ${e.expect}, got ${out || 'silence'} (${e.why})`);
        else if (LEAK.test(out)) wrong.push(`${client} ${JSON.stringify(e.command)}: leaks ${out.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refOf(repo, 'refs/handoffs/main/auth-refactor')).not.toBeNull();
  });

  it('keeps its decision wrapped in harmless shell around it: chains, subshells, groups, if, sh -c, a first line (every entry × every wrapper)', async () => {
    const repo = await corpusWorld();
    const { make } = SHELL_CLIENTS[0];
    const wrappers: Array<(c: string) => string | null> = [
      (c) => `true && ${c}`,
      (c) => `${c} ; echo done`,
      (c) => `(${c})`,
      (c) => `{ ${c}; }`,
      (c) => `if true; then ${c}; fi`,
      (c) => `echo start\n${c}`,
      (c) => (c.includes("'") ? null : `bash -c '${c}'`),
      (c) => (/["$`\\]/.test(c) ? null : `sh -c "${c}"`),
    ];
    const single = CORPUS.filter((e) => !e.command.includes('\n'));
    const wrong: string[] = [];
    let runs = 0;
    for (const e of single) {
      for (const wrap of wrappers) {
        const command = wrap(e.command);
        if (command === null) continue;
        runs++;
        const p = make(repo, command);
        const adapter = detectClient(p);
        const event = adapter.parse(p);
        const out = adapter.render(event, await decide(new GuardContext(event, { ...process.env, ...ENV }))) ?? '';
        if (verdict(out) !== e.expect) wrong.push(`${JSON.stringify(command)}: expected ${e.expect} (${e.why})`);
      }
    }
    expect(wrong).toEqual([]);
    expect(runs).toBeGreaterThan(1000);
  });

  it('every second entry through the real command, the client shape taken in turn: exit 0, nothing on stderr, the expected decision', async () => {
    const repo = await corpusWorld();
    const wrong: string[] = [];
    // Every second entry (the corpus is grouped by kind, so each kind and each side is sampled), clients in turn.
    const queue = CORPUS.filter((_, i) => i % 2 === 0).map((e, i) => ({ e, ...SHELL_CLIENTS[i % SHELL_CLIENTS.length] }));
    expect(new Set(queue.map((j) => `${j.client} ${j.e.expect}`)).size).toBe(2 * SHELL_CLIENTS.length);
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        // the watchdog's budget out of reach: a second suite on the machine may slow a call down, never change its answer
        const r = await guard(repo, job.make(repo, job.e.command), { ...ENV, GIT_HANDOFF_GUARD_BUDGET_MS: '600000' });
        const where = `${job.client} ${JSON.stringify(job.e.command)}`;
        const bad = malformed(job.client, r.stdout);
        if (r.exitCode !== 0 || r.stderr !== '') wrong.push(`${where}: exit ${r.exitCode}, stderr ${r.stderr.slice(0, 200)}`);
        else if (bad) wrong.push(`${where}: ${bad}`);
        else if (verdict(r.stdout) !== job.e.expect) wrong.push(`${where}: expected ${job.e.expect}, got ${r.stdout || 'silence'}`);
        else if (LEAK.test(r.stdout)) wrong.push(`${where}: leaks ${r.stdout.slice(0, 200)}`);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(wrong).toEqual([]);
    // Times are not asserted (a loaded machine stretches them): bench/ measures them; every answer above is the rules' own.
    expect(readLog(repo)).not.toMatch(/timeout: no decision in time/);
    expect(readLog(repo)).not.toMatch(/internal error/);
    expect(refOf(repo, 'refs/handoffs/main/auth-refactor')).not.toBeNull();
    // 178 real guard processes: on a loaded 2-core machine this takes minutes
  }, 360_000);
});
