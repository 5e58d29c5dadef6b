// The git-handoff Gemini CLI extension with the real Gemini CLI, offline: `git handoff install --agent gemini
// --extension` installs it into an isolated HOME through `gemini extensions install`; then one `gemini -p` turn in a
// repository with no git-handoff on PATH is guarded by the extension alone, writes its handoff from the shell tool,
// sees the startup view once — also when the (trusted) project wires the guard itself — and is offered the skill.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, ROOT, type TestRepo } from '../helpers/repo';
import { ensureGeminiCli } from './deps';

const OTHER = 'other-session-77aa';
const REF = 'refs/handoffs/main/auth-refactor';
let GEMINI_JS = '';

beforeAll(() => {
  GEMINI_JS = ensureGeminiCli();
}, 900_000);

/** PATH with a `gemini` command and the system's tools, and no git-handoff anywhere. */
function pathWithGemini(repo: TestRepo): string {
  const dir = path.join(repo.home, 'client-bin');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'gemini'), `#!/bin/sh\nexec node '${GEMINI_JS}' "$@"\n`, { mode: 0o755 });
  const system = (process.env.PATH ?? '').split(':').filter((d) => d && !existsSync(path.join(d, 'git-handoff')));
  return [dir, ...system].join(':');
}

async function withExtension(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  const PATH = pathWithGemini(repo);
  expect(spawnSync('sh', ['-c', 'command -v git-handoff'], { env: { ...repo.env, PATH } }).status).not.toBe(0);
  mkdirSync(path.join(repo.home, '.gemini'), { recursive: true });
  // with a base URL and no chosen auth type the CLI picks another auth type and exits
  writeFileSync(path.join(repo.home, '.gemini', 'settings.json'), '{"security":{"auth":{"selectedType":"gemini-api-key"}}}\n');
  expect((await repo.cli(['write', 'auth-refactor', '-m', 'their note'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
  const r = await repo.cli(['install', '--agent', 'gemini', '--extension'], { env: { PATH } });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(String(r.stdout)).toContain('installed successfully');
  const list = spawnSync('gemini', ['extensions', 'list'], { cwd: repo.dir, env: { ...repo.env, PATH }, encoding: 'utf8', input: '', timeout: 120_000 });
  expect(list.stdout + list.stderr).toMatch(/git-handoff \(0\.1\.0\)[\s\S]*Enabled \(User\): true/);
  return repo;
}

const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
const reply = (parts: unknown[]) => ({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: usage, modelVersion: 'gemini-2.5-flash' });

/** One `gemini -p` turn against a scripted API: each request offering the shell tool gets the next command. */
async function turn(repo: TestRepo, commands: string[]): Promise<{ requests: any[]; out: string }> {
  const queue = [...commands];
  const requests: any[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let j: any = {};
      try {
        j = JSON.parse(body);
      } catch {
        /* not JSON */
      }
      requests.push(j);
      if (req.url?.includes(':countTokens')) return res.writeHead(200, { 'content-type': 'application/json' }).end('{"totalTokens":10}');
      const offers = (j.tools ?? []).flatMap((t: any) => t.functionDeclarations ?? []).some((d: any) => d.name === 'run_shell_command');
      let parts: unknown[] = [{ text: 'done' }];
      if (offers && queue.length) parts = [{ functionCall: { name: 'run_shell_command', args: { command: queue.shift() } } }];
      else if (j.generationConfig?.responseMimeType === 'application/json') parts = [{ text: '{"reasoning":"r","model_choice":"flash","next_speaker":"user"}' }];
      if (req.url?.includes('streamGenerateContent')) return res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(reply(parts))}\n\n`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply(parts)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const env = { ...repo.env, PATH: pathWithGemini(repo), GEMINI_API_KEY: 'offline', GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    const child = spawn('node', [GEMINI_JS, '-p', 'do the task', '--approval-mode', 'yolo', '--output-format', 'json'], { cwd: repo.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    await new Promise<void>((resolve) => child.on('close', () => resolve()));
    clearTimeout(timer);
    return { requests, out };
  } finally {
    server.close();
  }
}

/** The last request of the conversation itself (the one offering tools; not a classifier's). */
const lastChat = (requests: any[]) => requests.filter((r) => Array.isArray(r.contents) && Array.isArray(r.tools)).at(-1);

/** The function responses the CLI sent back, in order. */
const responsesOf = (requests: any[]): string[] => {
  const last = lastChat(requests);
  return (last?.contents ?? []).flatMap((c: any) => c.parts ?? []).filter((p: any) => p.functionResponse).map((p: any) => JSON.stringify(p.functionResponse.response));
};

async function session(repo: TestRepo) {
  const before = refOf(repo, REF);
  const { requests, out } = await turn(repo, [`git update-ref -d ${REF}`, 'git handoff write cache-layer -m "state: extension works" && command -v git-handoff']);
  const responses = responsesOf(requests);
  expect(responses, out).toHaveLength(2);
  // the extension's guard refused the raw move once; the ref stays
  expect(responses[0]).toContain('Tool execution blocked');
  expect(responses[0].match(/git handoff archive/g)).toHaveLength(1);
  expect(refOf(repo, REF)).toBe(before);
  // git handoff ran from the extension's bin/ and stored this session's id (the one Gemini CLI reports)
  expect(responses[1]).toContain(path.join('.gemini', 'extensions', 'git-handoff', 'bin', 'git-handoff'));
  const owner = repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', 'refs/handoffs/main/cache-layer']).stdout.trim();
  expect(owner).toMatch(/^[0-9a-f-]{36}$/);
  expect(out).toContain(`"session_id": "${owner}"`);
  // the startup view reached the model once (Gemini CLI escapes < inside <hook_context>)
  const sent = JSON.stringify(lastChat(requests).contents);
  // Gemini CLI HTML-escapes hook context, so the wrapper it gets is the bracket form
  expect(sent.match(/\[untrusted-content source=\\"git-handoff\\" ref=\\"refs\/handoffs\/main\/auth-refactor\\"\]/g)).toHaveLength(1);
  return { requests, out };
}

describe('Gemini CLI extension, offline', () => {
  it('installed by install --agent gemini --extension, it guards a repository with no wiring and no git-handoff on PATH; the skill is listed', async () => {
    const repo = await withExtension();
    expect(existsSync(path.join(repo.dir, '.gemini'))).toBe(false);
    // install trusted the extension's own folder, never this repository (issue 27): headless Gemini CLI runs only in a
    // folder the user trusted, so the user trusts it, as they would in interactive mode
    const trustFile = path.join(repo.home, '.gemini', 'trustedFolders.json');
    const trusted = JSON.parse(readFileSync(trustFile, 'utf8'));
    expect(trusted[repo.dir]).toBeUndefined();
    writeFileSync(trustFile, JSON.stringify({ ...trusted, [repo.dir]: 'TRUST_FOLDER' }));
    const { requests } = await session(repo);
    expect(JSON.stringify(requests)).toContain('Write, read or check the handoff notes');
    const doctor = json(await repo.cli(['doctor', '--json'], { env: { PATH: pathWithGemini(repo) } }));
    expect(doctor.items.find((i: any) => i.component === 'extension gemini')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/enabled, runs .*extensions\/git-handoff\/bin\/git-handoff .*refused as it should be/) });
  });

  it('with the trusted project wired as well, every event is still answered once; uninstall removes the extension', async () => {
    const repo = await withExtension();
    const wire = await repo.cli(['install', '--agent', 'gemini', '--launcher', path.join(ROOT, 'bin', 'git-handoff')], { env: { PATH: pathWithGemini(repo) } });
    expect(wire.exitCode).toBe(0);
    expect(String(wire.stdout)).toContain('defer to it');
    // Gemini CLI runs a project's own hooks only in a trusted folder
    writeFileSync(path.join(repo.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [repo.dir]: 'TRUST_FOLDER' }));
    await session(repo);
    const un = await repo.cli(['uninstall', '--agent', 'gemini', '--extension'], { env: { PATH: pathWithGemini(repo) } });
    expect(un.exitCode, String(un.stderr)).toBe(0);
    expect(existsSync(path.join(repo.home, '.gemini', 'extensions', 'git-handoff'))).toBe(false);
  });
});
