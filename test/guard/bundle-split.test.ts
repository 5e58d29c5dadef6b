// The full guard is two bundles (scripts/guard-split.mjs): dist/fast.cjs, what its frequent calls run, and
// dist/rest.cjs, its other modules, loaded at the first import of one of them. No module is in both (each takes
// the other's through a table, so one state per process), and a frequent call of any client loads no second bundle.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, tempDir, type TestRepo } from '../helpers/repo';
import { FOREIGN_FILE, foreignWorld, ME, OTHER, SHELL_CLIENTS } from './world';
import { payload } from './helpers';

const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'silent', format: 'cjs', write: false, metafile: true, absWorkingDir: ROOT, alias: { 'node:path': './src/node-path.ts', 'node:fs': './src/node-fs.ts' } } as const;

/** The src modules a build's output holds. */
const modulesOf = (r: { metafile?: { outputs: Record<string, { inputs: Record<string, unknown> }> } }) =>
  new Set(Object.values(r.metafile!.outputs).flatMap((o) => Object.keys(o.inputs)).filter((f) => f.startsWith('src/')));

/** The bundles one guard call loaded (the trace's `load` lines), and its answer. */
function guardCall(repo: TestRepo, p: unknown): { loads: string[]; out: string } {
  const trace = path.join(tempDir(), 'trace.jsonl');
  const out = execFileSync(process.execPath, [BIN, 'guard'], { cwd: repo.dir, env: { ...repo.env, GIT_HANDOFF_TRACE: trace }, input: JSON.stringify(p), encoding: 'utf8' });
  const lines = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { phase: string; detail?: string });
  return { loads: lines.filter((l) => l.phase === 'load').map((l) => l.detail!), out };
}

describe('the full guard in two bundles', () => {
  it('puts every module of the unsplit bundle in exactly one of them (node:fs and node:path in both)', async () => {
    const { guardSplit } = (await import(path.join(ROOT, 'scripts/guard-split.mjs'))) as {
      guardSplit(c: object): Promise<{ fastPlugins: unknown[]; restPlugins: unknown[]; restEntry: object }>;
    };
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      const split = await guardSplit(common);
      const whole = modulesOf(await build({ ...common, entryPoints: ['src/fast.ts'] }));
      const fast = modulesOf(await build({ ...common, entryPoints: ['src/fast.ts'], plugins: split.fastPlugins as never }));
      const rest = modulesOf(await build({ ...common, stdin: split.restEntry as never, plugins: split.restPlugins as never }));
      expect([...fast].filter((f) => rest.has(f)).sort()).toEqual(['src/node-fs.ts', 'src/node-path.ts']);
      const links = ['src/bundle-core.ts', 'src/bundle-rest.ts'];
      expect([...new Set([...fast, ...rest])].filter((f) => !links.includes(f)).sort()).toEqual([...whole].sort());
      // the split is worth its link: most of the guard's code is not in the bundle its frequent calls load
      expect(rest.size).toBeGreaterThan(30);
    } finally {
      process.chdir(cwd);
    }
  });

  it("loads dist/fast.cjs alone for each client's commit, a refused update-ref and a Write of a handoff file; a session's start loads dist/rest.cjs too", async () => {
    const repo = await foreignWorld();
    // the other session is live in this worktree (its lease): a commit here is checked against its work
    const start = (session: string) => guardCall(repo, payload(repo, 'claude-code/session-start.json', {}, session));
    const started = start(OTHER);
    expect(started.loads).toContain('rest.cjs');
    expect(started.out).toContain('auth-refactor');
    start(ME);
    repo.write('src/theirs.ts', 'x\n');
    for (const { client, make } of SHELL_CLIENTS) {
      const commit = guardCall(repo, make(repo, 'git commit -m x'));
      expect(commit.loads, client).toEqual(['fast.cjs']);
      const refused = guardCall(repo, make(repo, 'true; git update-ref -d refs/handoffs/main/auth-refactor'));
      expect(refused.loads, client).not.toContain('rest.cjs');
      expect(refused.out, client).toMatch(/handoff/i);
    }
    const write = guardCall(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, 'memory/handoff-main-my-own-note.md'), content: `<!-- claude-session: ${ME} -->\nmore\n` } }));
    expect(write.loads).not.toContain('rest.cjs');
    // another session's handoff file: refused by the same bundle
    const theirs = guardCall(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, FOREIGN_FILE), content: 'mine now\n' } }));
    expect(JSON.parse(theirs.out).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(theirs.loads).not.toContain('rest.cjs');
  });
});
