// The git-handoff Claude Code plugin with the real Claude Code, offline: the marketplace and the plugin pass
// `claude plugin validate --strict`; `git handoff install --agent claude --plugin` installs it into an isolated HOME
// through Claude Code's own commands; then one `claude -p` process in a repository with no git-handoff on PATH
// is guarded by the plugin alone, writes its handoff from the Bash tool, and sees the startup view once —
// also when the project wires the guard itself.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, ROOT, tempDir, type TestRepo } from '../helpers/repo';
import { converse, sessionsOf } from './claude-script';
import { claudeBin, useClaude } from './deps';

const OTHER = 'other-session-77aa';
const REF = 'refs/handoffs/main/auth-refactor';

useClaude();

/** PATH with `claude` and the system's tools, and no git-handoff anywhere. */
function pathWithClaude(repo: TestRepo): string {
  const dir = path.join(repo.home, 'client-bin');
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path.join(dir, 'claude'))) symlinkSync(claudeBin(), path.join(dir, 'claude'));
  const system = (process.env.PATH ?? '').split(':').filter((d) => d && !existsSync(path.join(d, 'git-handoff')));
  return [dir, ...system].join(':');
}

const claude = (repo: TestRepo, args: string[]) => spawnSync(claudeBin(), args, { cwd: repo.dir, env: { ...repo.env, PATH: pathWithClaude(repo) }, encoding: 'utf8', input: '', timeout: 120_000 });

/** A repository holding another session's handoff, with the plugin installed for its HOME by git handoff itself. */
async function withPlugin(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  const PATH = pathWithClaude(repo);
  expect(spawnSync('sh', ['-c', 'command -v git-handoff'], { env: { ...repo.env, PATH } }).status).not.toBe(0);
  expect((await repo.cli(['write', 'auth-refactor', '-m', 'their note'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
  const r = await repo.cli(['install', '--agent', 'claude', '--plugin'], { env: { PATH } });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(String(r.stdout)).toContain('claude plugin install');
  const list = JSON.parse(claude(repo, ['plugin', 'list', '--json']).stdout);
  expect(list).toEqual([expect.objectContaining({ id: 'git-handoff@git-handoff', enabled: true })]);
  return repo;
}

/** Every text the model was sent (system prompt, messages), request by request. */
const textsOf = (req: any): string =>
  JSON.stringify([req.system, (req.messages ?? []).map((m: any) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((c: any) => c.text ?? c.content ?? '')))]);

/** One `claude -p` process, two prompts: a raw ref deletion, then `git handoff write` from the Bash tool. */
async function session(repo: TestRepo) {
  const before = refOf(repo, REF);
  const run = await converse(repo, ['delete their ref', 'write my handoff'], [
    { tool: 'Bash', input: { command: `git update-ref -d ${REF}` } },
    { tool: 'Bash', input: { command: 'git handoff write cache-layer -m "state: plugin works" && command -v git-handoff' } },
  ], { env: { PATH: pathWithClaude(repo) } });
  expect(run.results, run.stderr).toHaveLength(2);
  // the plugin's guard refused the raw move once; the ref stays
  expect(run.results[0].error).toBe(true);
  expect(run.results[0].text).toContain('PreToolUse:Bash hook error');
  expect(run.results[0].text.match(/git handoff archive/g)).toHaveLength(1);
  expect(refOf(repo, REF)).toBe(before);
  // git handoff ran from the plugin's bin/ and stored this session's id
  expect(run.results[1].error, run.results[1].text).toBe(false);
  expect(run.results[1].text).toContain(path.join('claude-marketplace', 'git-handoff', 'bin', 'git-handoff'));
  const owner = repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', 'refs/handoffs/main/cache-layer']).stdout.trim();
  expect(sessionsOf(run.stdout)).toContain(owner);
  // the startup view reached the model once: in the last request, the note's wrapper appears exactly once
  const last = textsOf(run.requests.filter((r) => Array.isArray(r.tools) && r.tools.length).at(-1));
  expect(last.match(/<untrusted-content source=\\"git-handoff\\" ref=\\"refs\/handoffs\/main\/auth-refactor\\">/g)).toHaveLength(1);
  return run;
}

describe('Claude Code plugin, offline', () => {
  it('the marketplace and the plugin pass claude plugin validate --strict', () => {
    const repo = makeRepo();
    for (const target of [path.join(ROOT, '.claude-plugin', 'marketplace.json'), path.join(ROOT, 'dist', 'claude-plugin')]) {
      const r = claude(repo, ['plugin', 'validate', '--strict', target]);
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('Validation passed');
    }
  });

  it('installed by install --agent claude --plugin, it guards a repository with no wiring and no git-handoff on PATH; the skill is listed', async () => {
    const repo = await withPlugin();
    expect(existsSync(path.join(repo.dir, '.claude'))).toBe(false);
    const run = await session(repo);
    // the handoff skill is offered to the model for its Skill tool
    expect(JSON.stringify(run.requests)).toContain('git-handoff:handoff');
    const doctor = json(await repo.cli(['doctor', '--json'], { env: { PATH: pathWithClaude(repo) } }));
    expect(doctor.items.find((i: any) => i.component.startsWith('plugin claude'))).toMatchObject({ status: 'ok', detail: expect.stringMatching(/enabled, runs .*claude-marketplace\/git-handoff\/bin\/git-handoff .*refused as it should be/) });
  });

  it('with the project wired as well, every event is still answered once', async () => {
    const repo = await withPlugin();
    // project hooks that would answer on their own (a launcher by absolute path, not on PATH)
    const wire = await repo.cli(['install', '--agent', 'claude', '--launcher', path.join(ROOT, 'bin', 'git-handoff')], { env: { PATH: pathWithClaude(repo) } });
    expect(wire.exitCode).toBe(0);
    expect(String(wire.stdout)).toContain('defer to it');
    await session(repo);
    const doctor = json(await repo.cli(['doctor', '--json'], { env: { PATH: pathWithClaude(repo) } }));
    expect(doctor.items.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'ok', detail: expect.stringContaining('defer to the git-handoff plugin') });
    // and uninstall gives the plugin back to Claude Code: none left, the project hooks answer again
    const un = await repo.cli(['uninstall', '--agent', 'claude', '--plugin'], { env: { PATH: pathWithClaude(repo) } });
    expect(un.exitCode, String(un.stderr)).toBe(0);
    expect(JSON.parse(claude(repo, ['plugin', 'list', '--json']).stdout)).toEqual([]);
    const after = json(await repo.cli(['doctor', '--json'], { env: { PATH: pathWithClaude(repo) } }));
    expect(after.items.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'ok', detail: expect.stringContaining('refused as it should be') });
  });
});

/** git's own smart HTTP server (git http-backend as CGI) for the repositories under `root`, on 127.0.0.1. */
async function smartHttp(root: string): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const cgi = spawn('git', ['http-backend'], {
      env: { ...process.env, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1', PATH_INFO: decodeURIComponent(u.pathname), QUERY_STRING: u.search.slice(1), REQUEST_METHOD: req.method ?? 'GET', CONTENT_TYPE: req.headers['content-type'] ?? '', REMOTE_ADDR: '127.0.0.1', GIT_CONFIG_NOSYSTEM: '1' },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (d) => chunks.push(d));
    cgi.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, end).toString().split('\r\n');
      let status = 200;
      const headers: Record<string, string> = {};
      for (const h of head) {
        const [k, ...v] = h.split(':');
        if (k.toLowerCase() === 'status') status = parseInt(v.join(':'), 10);
        else if (k) headers[k] = v.join(':').trim();
      }
      res.writeHead(status, headers).end(all.subarray(end + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe('Claude Code plugin from a git-source marketplace, offline', () => {
  it('scripts/plugin-branch.mjs commits the built plugin to branch claude-plugin; Claude Code installs it from URL#claude-plugin', async () => {
    const repo = makeRepo();
    const served = tempDir();
    const bare = path.join(served, 'git-handoff.git');
    expect(spawnSync('git', ['init', '-q', '--bare', bare], { env: repo.env }).status).toBe(0);
    const built = spawnSync('node', [path.join(ROOT, 'scripts', 'plugin-branch.mjs'), '--git-dir', bare], { env: repo.env, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toContain('claude-plugin -> ');
    // a second run with the same files moves nothing
    expect(spawnSync('node', [path.join(ROOT, 'scripts', 'plugin-branch.mjs'), '--git-dir', bare], { env: repo.env, encoding: 'utf8' }).stdout).toContain('already at');
    const server = await smartHttp(served);
    try {
      // asynchronously: the server answers from this process
      const add = await execa(claudeBin(), ['plugin', 'marketplace', 'add', `${server.url}/git-handoff.git#claude-plugin`], { cwd: repo.dir, env: repo.env, extendEnv: false, input: '', reject: false, timeout: 120_000 });
      expect(add.exitCode, add.stdout + add.stderr).toBe(0);
      const install = await execa(claudeBin(), ['plugin', 'install', 'git-handoff@git-handoff'], { cwd: repo.dir, env: repo.env, extendEnv: false, input: '', reject: false, timeout: 120_000 });
      expect(install.exitCode, install.stdout + install.stderr).toBe(0);
    } finally {
      server.close();
    }
    const [plugin] = JSON.parse(claude(repo, ['plugin', 'list', '--json']).stdout);
    expect(plugin).toMatchObject({ id: 'git-handoff@git-handoff', enabled: true });
    // the copy Claude Code made runs: its guard refuses a raw handoff ref move
    const folder = plugin.readFromFolder ?? plugin.installPath;
    const probe = spawnSync(path.join(folder, 'bin', 'git-handoff'), ['guard', '--client=claude-code', '--plugin'], {
      cwd: repo.dir,
      env: repo.env,
      encoding: 'utf8',
      input: JSON.stringify({ session_id: 'probe', cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `git update-ref -d ${REF}` } }),
    });
    expect(probe.stdout).toContain('"permissionDecision":"deny"');
  });
});
