// `git handoff mcp` (SPEC 12) driven by the real Claude Code and Codex offline: two runs of one client in one
// repository are two connections, so two minted sessions. The first writes topic A; the second writes topic B, and its writes of A, plain or with a
// `session` argument naming the first, are refused in the CLI's words, A unchanged. Git then says who wrote what,
// status shows both sessions, and no server is left once each run has ended.
import { describe, expect, it } from 'vitest';
import { handoffProcessesIn } from '../helpers/procs';
import { BIN, json, makeRepo, type TestRepo } from '../helpers/repo';
import type { ClientName } from '../../src/clients/names';
import { CLAUDE_OFFLINE, CODEX_OFFLINE, ensureClaude, ensureCodex, useOffline } from './deps';
import { mcpCall, runClient, type Run } from './every-client';

useOffline(CLAUDE_OFFLINE, 'claude-offline', ensureClaude);
useOffline(CODEX_OFFLINE, 'codex-offline', ensureCodex);

const SERVER = 'git-handoff';
const A = 'auth-refactor';
const B = 'docs-cleanup';
const trailer = (repo: TestRepo, ref: string, key: string) => repo.git(['log', '-1', `--format=%(trailers:key=${key},valueonly)`, ref]).stdout.trim();
const sessionOf = (begin: string | undefined) => /you are session (\S+)/.exec(begin ?? '')?.[1];

/** The repository's `git-handoff … mcp` processes, as /proc shows them. */
const servers = (repo: TestRepo) => handoffProcessesIn(repo.dir).filter((p) => / mcp\b/.test(p.args) && p.args.includes(repo.dir));

/** One run of `client` with the server wired as install wires it (`git-handoff -C <top> mcp`); none of it left after. */
async function clientRun(client: ClientName, repo: TestRepo, calls: Array<[string, Record<string, unknown>]>): Promise<Run> {
  const ended = async () => {
    // the server exits when its stdin closes: allow it a moment after the client has gone
    for (let i = 0; i < 50 && servers(repo).length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(servers(repo)).toEqual([]);
  };
  const script = calls.map(([tool, args]) => mcpCall(client, tool, args, SERVER));
  const run = await runClient(client, repo, script, {
    mcp: { name: SERVER, command: BIN, args: ['-C', repo.dir, 'mcp'] },
    // Claude Code's MCP tools offered to the model up front (else they wait behind its tool search, offered to no request)
    env: { ENABLE_TOOL_SEARCH: 'false' },
    ended,
  });
  script.forEach((c, i) => expect(run.results[i], `${c.name}: no result came back (offered: ${run.offered[i]})\n${run.out.slice(-3000)}`).toBeDefined());
  // (Codex offers an MCP server's tools behind its tool search only)
  if (client === 'claude-code') expect(run.offered).toEqual(script.map(() => true));
  return run;
}

describe.each(['claude-code', 'codex'] as const)('git handoff mcp, %s offline', (client) => {
  it('two runs are two sessions: each writes its own topic, the second is refused the first one in the CLI words, a session argument changes nothing', async () => {
    const repo = makeRepo({ commit: true });

    const first = await clientRun(client, repo, [
      ['handoff_begin', {}],
      ['handoff_write', { topic: A, body: '## Goal\nfinish the auth refactor\n' }],
    ]);
    const s1 = sessionOf(first.results[0]);
    expect(s1, first.out).toBeTruthy();
    expect(first.results[1], first.out).toContain(`refs/handoffs/main/${A}`);
    const a = repo.git(['rev-parse', `refs/handoffs/main/${A}`]).stdout.trim();
    // its server gone, its session is too
    const after1 = json<Array<{ session: string; client: string; status: string }>>(await repo.cli(['sessions', '--json']));
    expect(after1.find((s) => s.session === s1)).toMatchObject({ status: 'gone' });

    const second = await clientRun(client, repo, [
      ['handoff_begin', {}],
      ['handoff_write', { topic: B, body: 'tidy the docs\n' }],
      ['handoff_write', { topic: A, body: 'mine now\n' }],
      ['handoff_write', { topic: A, body: 'as the first\n', session: s1 }],
      ['handoff_status', {}],
    ]);
    const s2 = sessionOf(second.results[0]);
    expect(s2, second.out).toBeTruthy();
    expect(s2).not.toBe(s1);
    expect(second.results[1], second.out).toContain(`refs/handoffs/main/${B}`);
    // what the CLI itself answers the second session writing A (but the age of A's last version)
    const cli = await repo.cli(['write', A, '-m', 'mine now'], { env: { GIT_HANDOFF_SESSION: s2! } });
    expect(cli.exitCode).not.toBe(0);
    expect(String(cli.stderr)).toContain(`is owned by session ${s1!.slice(0, 8)} `);
    const refusal = new RegExp(String(cli.stderr).trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\(last version [^)]*\\\)/, '\\(last version [^)]*\\)'));
    // refused in those words, plain and with a session argument naming the first
    for (const i of [2, 3]) expect(second.results[i], second.out).toMatch(refusal);
    expect(second.results[4], second.out).toContain(s1!.slice(0, 8));

    // git: who wrote what; A as the first run left it
    expect(trailer(repo, `refs/handoffs/main/${A}`, 'Claude-Session-Id')).toBe(s1);
    expect(trailer(repo, `refs/handoffs/main/${B}`, 'Claude-Session-Id')).toBe(s2);
    expect(repo.git(['rev-parse', `refs/handoffs/main/${A}`]).stdout.trim()).toBe(a);
    const status = JSON.stringify(json(await repo.cli(['status', '--json'])));
    expect(status).toContain(s1);
    expect(status).toContain(s2);
  }, 600_000);
});
