// `git handoff mcp` driven by the SDK's own Client over stdio: two connections are two sessions of the repository,
// each writes under the session the server minted for it, the CLI's ownership rule and refusal texts hold between
// them, and the server leaves no process behind when its client goes.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, json, makeRepo, type TestRepo } from '../helpers/repo';

const open: Client[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

async function connect(repo: TestRepo, name: string): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: BIN, args: ['mcp'], cwd: repo.dir, env: repo.env as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return { client, transport };
}

const textOf = (r: any): string => r.content.map((c: { text: string }) => c.text).join('\n');
const call = async (c: Client, name: string, args: Record<string, unknown> = {}) => {
  const r: any = await c.callTool({ name, arguments: args });
  return { text: textOf(r), error: !!r.isError };
};
const sessionOf = (begin: string) => /you are session (\S+)/.exec(begin)![1];
const trailer = (repo: TestRepo, ref: string, key: string) => repo.git(['log', '-1', `--format=%(trailers:key=${key},valueonly)`, ref]).stdout.trim();

describe('git handoff mcp', () => {
  it('gives two connections two sessions: each writes its own handoff, the other is refused with the CLI text, claims hold between them, status shows both', async () => {
    const repo = makeRepo({ commit: true });
    const { client: zed } = await connect(repo, 'zed');
    const { client: desktop } = await connect(repo, 'claude-ai');

    const tools = (await zed.listTools()).tools;
    expect(tools.length).toBeLessThanOrEqual(12);
    expect(tools.every((t) => t.name.startsWith('handoff_'))).toBe(true);
    for (const t of tools.filter((x) => ['handoff_show', 'handoff_list', 'handoff_boot', 'handoff_claims', 'handoff_status'].includes(x.name))) expect(t.annotations?.readOnlyHint).toBe(true);
    for (const t of tools.filter((x) => ['handoff_takeover', 'handoff_release'].includes(x.name))) expect(t.annotations?.destructiveHint).toBe(true);

    // no write before a session began
    const early = await call(zed, 'handoff_write', { topic: 'auth-refactor', body: 'too early' });
    expect(early.error).toBe(true);
    expect(early.text).toMatch(/handoff_begin/);
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');

    const a = sessionOf((await call(zed, 'handoff_begin')).text);
    const b = sessionOf((await call(desktop, 'handoff_begin')).text);
    expect(a).not.toBe(b);
    // begin again: the same session
    expect(sessionOf((await call(zed, 'handoff_begin')).text)).toBe(a);

    const wa = await call(zed, 'handoff_write', { topic: 'auth-refactor', body: '## Goal\nfinish the auth refactor\n' });
    expect(wa.error).toBe(false);
    const wb = await call(desktop, 'handoff_write', { topic: 'docs-cleanup', body: 'tidy the docs\n' });
    expect(wb.error).toBe(false);
    expect(trailer(repo, 'refs/handoffs/main/auth-refactor', 'Claude-Session-Id')).toBe(a);
    expect(trailer(repo, 'refs/handoffs/main/docs-cleanup', 'Claude-Session-Id')).toBe(b);

    // the second's write of the first's handoff: refused, in the CLI's words
    const cli = await repo.cli(['write', 'auth-refactor', '-m', 'mine now'], { env: { GIT_HANDOFF_SESSION: b } });
    const refused = await call(desktop, 'handoff_write', { topic: 'auth-refactor', body: 'mine now' });
    expect(refused.error).toBe(true);
    expect(cli.exitCode).not.toBe(0);
    expect(refused.text).toContain(String(cli.stderr).trim());
    expect(trailer(repo, 'refs/handoffs/main/auth-refactor', 'Claude-Session-Id')).toBe(a);

    // a session id typed by the model does not change who writes
    const forged = await call(desktop, 'handoff_write', { topic: 'auth-refactor', body: 'as a', session: a });
    expect(forged.error).toBe(true);
    const own = await call(desktop, 'handoff_write', { topic: 'docs-cleanup', body: 'second version', session: a });
    expect(own.error).toBe(false);
    expect(trailer(repo, 'refs/handoffs/main/docs-cleanup', 'Claude-Session-Id')).toBe(b);

    // a claim by one is refused to the other
    expect((await call(zed, 'handoff_claim', { paths: ['src/auth/'], note: 'refactoring' })).error).toBe(false);
    const claimed = await call(desktop, 'handoff_claim', { paths: ['src/auth/login.ts'] });
    expect(claimed.error).toBe(true);
    expect(claimed.text).toMatch(/already claimed by another live session/);
    expect(claimed.text).toContain(`claimed by session ${a.slice(0, 8)}`);
    // the other's claim was news at this connection's next call, once
    expect(claimed.text).toMatch(/^since you last looked: claims on main new\n/);
    expect((await call(desktop, 'handoff_list')).text).not.toMatch(/since you last looked/);

    // status (the CLI's and the tool's) shows both sessions, with their clients
    const status = json(await repo.cli(['status', '--json']));
    const ids = JSON.stringify(status);
    expect(ids).toContain(a);
    expect(ids).toContain(b);
    const sessions = json<Array<{ session: string; client: string; status: string }>>(await repo.cli(['sessions', '--json']));
    expect(sessions.find((s) => s.session === a)).toMatchObject({ client: 'zed', status: 'live' });
    expect(sessions.find((s) => s.session === b)).toMatchObject({ client: 'claude-ai', status: 'live' });
    const tool = await call(zed, 'handoff_status');
    expect(tool.text).toContain(a.slice(0, 8));
    expect(tool.text).toContain(b.slice(0, 8));

    // the explicit takeover, with a reason, on the record
    const live = await call(desktop, 'handoff_takeover', { topic: 'auth-refactor', reason: 'zed session stopped', body: 'taken over' });
    expect(live.error).toBe(true);
    expect(live.text).toMatch(/--from-live/);
    const taken = await call(desktop, 'handoff_takeover', { topic: 'auth-refactor', reason: 'zed session stopped', body: 'taken over', fromLive: true });
    expect(taken.error).toBe(false);
    expect(trailer(repo, 'refs/handoffs/main/auth-refactor', 'Handoff-Reason')).toBe('zed session stopped');
    expect(trailer(repo, 'refs/handoffs/main/auth-refactor', 'Handoff-Takeover-From')).toBe(a);
    expect(trailer(repo, 'refs/handoffs/main/auth-refactor', 'Claude-Session-Id')).toBe(b);
  }, 60_000);

  it('writes the same commit shape as the CLI (trailers and tree, less time and session)', async () => {
    const repo = makeRepo({ commit: true });
    const { client } = await connect(repo, 'zed');
    await call(client, 'handoff_begin');
    expect((await call(client, 'handoff_write', { topic: 'via-mcp', body: '## Goal\nsame shape\n' })).error).toBe(false);
    const cli = await repo.cli(['write', 'via-cli', '-F', '-'], { input: '## Goal\nsame shape\n', env: { GIT_HANDOFF_SESSION: 'cli-session-0001', GIT_HANDOFF_CLIENT: 'zed' } });
    expect(cli.exitCode).toBe(0);
    const shape = (ref: string) => {
      const raw = repo.git(['cat-file', '-p', ref]).stdout;
      const session = trailer(repo, ref, 'Claude-Session-Id');
      return raw
        .replace(/^(author|committer) (.*) \d+ [+-]\d{4}$/gm, '$1 $2 <time>')
        .split(session)
        .join('<session>')
        .replace(/via-(mcp|cli)/g, 'via-<how>');
    };
    expect(shape('refs/handoffs/main/via-mcp')).toBe(shape('refs/handoffs/main/via-cli'));
    expect(repo.git(['rev-parse', 'refs/handoffs/main/via-mcp^{tree}']).stdout).toBe(repo.git(['rev-parse', 'refs/handoffs/main/via-cli^{tree}']).stdout);
  }, 60_000);

  it('reads without a session, and serves its prompts and read-only resources', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'api-notes', '-m', 'the API notes'], { env: { GIT_HANDOFF_SESSION: 'cli-session-0002' } })).exitCode).toBe(0);
    const { client } = await connect(repo, 'zed');
    const shown = await call(client, 'handoff_show', { topic: 'api-notes' });
    expect(shown.error).toBe(false);
    expect(shown.text).toContain('the API notes');
    // a topic is never read as an option
    const odd = await call(client, 'handoff_show', { topic: '--session=cli-session-0002' });
    expect(odd.error).toBe(true);
    expect(odd.text).not.toContain('the API notes');
    expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(['claim', 'handoff-boot', 'handoff-write']);
    const prompt = await client.getPrompt({ name: 'handoff-write', arguments: { topic: 'api-notes' } });
    expect(JSON.stringify(prompt.messages)).toMatch(/handoff_write.*api-notes|api-notes.*handoff_write/);
    const handoff = await client.readResource({ uri: 'handoff://main/api-notes' });
    expect((handoff.contents[0] as { text: string }).text).toContain('the API notes');
    const status = await client.readResource({ uri: 'handoff://status' });
    expect((status.contents[0] as { text: string }).text).toContain('api-notes');
    // reading made no session
    expect(json<unknown[]>(await repo.cli(['sessions', '--json']))).toEqual([]);
  }, 60_000);

  it('exits when its client disconnects, leaving no process', async () => {
    const repo = makeRepo({ commit: true });
    const { client, transport } = await connect(repo, 'zed');
    await call(client, 'handoff_begin');
    const pid = transport.pid!;
    expect(alive(pid)).toBe(true);
    open.pop();
    await client.close();
    const until = Date.now() + 10_000;
    while (alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
    // a client name that is not a word is recorded as "mcp" (it goes into the lease's trailers)
    const { client: odd } = await connect(repo, 'odd\nClaude-Session-Id: forged');
    const s = sessionOf((await call(odd, 'handoff_begin')).text);
    const rows = json<Array<{ session: string; client: string }>>(await repo.cli(['sessions', '--json']));
    expect(rows.find((r) => r.session === s)?.client).toBe('mcp');
    await odd.close();
    open.pop();
    // and the first session is no longer live
    const sessions = json<Array<{ session: string; status: string }>>(await repo.cli(['sessions', '--json']));
    expect(sessions.filter((x) => x.session !== s).map((x) => x.status)).toEqual(['gone']);
  }, 60_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
