// One run of each real client, offline, with the filesystem MCP server wired in: a scripted model API
// (./fake-model.mjs, every client's dialect) makes the model call a list of tools, one after another; the client runs
// its hooks (git-handoff's, as `install --agent` wired them) and the tools, and sends each result back, which the fake
// logs. The script's calls use each client's own names (an MCP server's tools as the client names them).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import type { ClientName } from '../../src/clients/names';
import { RECORDS } from '../../src/clients/records';
import { endProcessesWithHome } from '../helpers/procs';
import { tempDir, type TestRepo } from '../helpers/repo';
import { claudeBin, CODEX_OFFLINE, COPILOT_CACHE, ensureClaude, ensureCodex, ensureCopilot, ensureGeminiCli, ensureMcpFs, ensureOpencode, ensureQwen, PATH_WITH_BIN } from './deps';

const FAKE = path.join(__dirname, 'fake-model.mjs');

export interface Call {
  name: string;
  args: Record<string, unknown>;
  /** Codex calls an MCP server's tool by its namespace and name */
  namespace?: string;
}

export interface Run {
  /** the text each call's result reached the model as, by the call's index (undefined: never answered) */
  results: Array<string | undefined>;
  /** per call: whether the client offered a tool of that name (a call it did not offer proves nothing) */
  offered: Array<boolean | undefined>;
  out: string;
}

/** An MCP server's tool call (`fs`'s unless named) as `client` makes it (Codex's namespace spells a `-` of the server's name `_`). */
export const mcpCall = (client: ClientName, tool: string, args: Record<string, unknown>, server = 'fs'): Call =>
  client === 'codex' ? { name: tool, namespace: `mcp__${server.replace(/-/g, '_')}`, args } : { name: RECORDS[client].mcpNames.replace('<server>', server).replace('<tool>', tool), args };

/** Installs each client once (a first download can take minutes). */
export const ENSURE: Record<string, () => string> = { 'claude-code': ensureClaude, codex: ensureCodex, 'gemini-cli': ensureGeminiCli, copilot: ensureCopilot, 'qwen-code': ensureQwen, opencode: ensureOpencode };

async function fakeApi(script: Call[]): Promise<{ url: string; log: string; stop: () => void }> {
  const dir = tempDir('gh-fake-');
  const file = path.join(dir, 'script.json');
  writeFileSync(file, JSON.stringify(script));
  const log = path.join(dir, 'requests.jsonl');
  writeFileSync(log, '');
  for (let attempt = 0; ; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const pid = path.join(dir, `fake-${attempt}.pid`);
    const child = spawn(process.execPath, [FAKE, String(port), log, file, pid], { stdio: 'ignore' });
    for (let i = 0; i < 50 && !existsSync(pid) && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
    if (existsSync(pid)) return { url: `http://127.0.0.1:${port}`, log, stop: () => child.kill() };
    child.kill();
    if (attempt > 5) throw new Error('the fake model API did not start');
  }
}

/** What the fake saw: the tool results of the longest conversation, and whether each call's tool was offered. */
function readLog(log: string, script: Call[]): Pick<Run, 'results' | 'offered'> {
  const entries = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const longest = entries.reduce((a: any, e: any) => ((e.results?.length ?? 0) > (a?.results?.length ?? 0) ? e : a), null);
  const offered: Array<boolean | undefined> = script.map(() => undefined);
  for (const e of entries) if (e.reply === 'tool_call' && typeof e.done === 'number' && offered[e.done] === undefined) offered[e.done] = e.offered;
  return { results: script.map((_, i) => longest?.results?.[i]), offered };
}

/** The MCP server's command, allowed to touch the repository and the HOME (the trust files' folder). */
const mcpServer = (repo: TestRepo) => ({ command: process.execPath, args: [ensureMcpFs(), repo.dir, repo.home] });

export interface RunOptions {
  env?: Record<string, string>;
  wiring?: 'claude';
  /** another MCP server than the filesystem one, under its name (Claude Code, Codex) */
  mcp?: { name: string; command: string; args: string[] };
  /** runs once the client has ended, before what it left is cleaned up */
  ended?: () => Promise<void>;
}

/** Runs `client` once in `repo` (wired already) with the script; resolves when it has ended. */
export async function runClient(client: ClientName, repo: TestRepo, script: Call[], o: RunOptions = {}): Promise<Run> {
  const api = await fakeApi(script);
  const base = { ...(repo.env as Record<string, string>), PATH: PATH_WITH_BIN, ...o.env };
  const opts = { cwd: repo.dir, extendEnv: false, reject: false, timeout: 300_000, input: '' } as const;
  const { name, ...server } = o.mcp ?? { name: 'fs', ...mcpServer(repo) };
  let r: { stdout: unknown; stderr: unknown };
  try {
    switch (client) {
      case 'claude-code': {
        const cfg = path.join(tempDir('gh-mcp-'), 'mcp.json');
        writeFileSync(cfg, JSON.stringify({ mcpServers: { [name]: server } }));
        const allowed = ['Bash', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Monitor', `mcp__${name}`, ...RECORDS['claude-code'].readOnly].join(',');
        r = await execa(claudeBin(), ['-p', 'do the task', '--mcp-config', cfg, '--strict-mcp-config', '--allowedTools', allowed], { ...opts, env: { ...base, ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-ant-offline' } });
        break;
      }
      case 'codex': {
        const home = path.join(repo.home, '.codex');
        mkdirSync(home, { recursive: true });
        const example = readFileSync(path.join(CODEX_OFFLINE, 'config.toml.example'), 'utf8').replace('http://127.0.0.1:FAKE_PORT/v1', `${api.url}/v1`);
        const toml = (v: unknown) => JSON.stringify(v);
        writeFileSync(path.join(home, 'config.toml'), `${example}\n[mcp_servers.${name}]\ncommand = ${toml(server.command)}\nargs = ${toml(server.args)}\n\n[projects.${toml(repo.dir)}]\ntrust_level = "trusted"\n`);
        const env = { ...base, CODEX_HOME: home, CODEX_BIN: ensureCodex(), FAKE_OPENAI_KEY: 'sk-fake' };
        // each hook trusted as a person does in Codex's /hooks view
        const t = spawnSync(process.execPath, [path.join(CODEX_OFFLINE, 'trust-hooks.mjs'), repo.dir], { env, encoding: 'utf8', timeout: 60_000 });
        expect(t.status, t.stderr).toBe(0);
        r = await execa(ensureCodex(), ['exec', '--skip-git-repo-check', '--json', '-s', 'danger-full-access', '-m', 'gpt-5.5', 'please do the task'], { ...opts, env });
        break;
      }
      case 'gemini-cli': {
        const dir = path.join(repo.home, '.gemini');
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, mcpServers: { fs: { ...server, trust: true } } }));
        writeFileSync(path.join(dir, 'trustedFolders.json'), JSON.stringify({ [repo.dir]: 'TRUST_FOLDER' }));
        r = await execa(process.execPath, [ensureGeminiCli(), '-p', 'do the task', '--approval-mode', 'yolo'], { ...opts, env: { ...base, GEMINI_API_KEY: 'offline', GOOGLE_GEMINI_BASE_URL: api.url } });
        break;
      }
      case 'copilot': {
        const dir = path.join(repo.home, '.copilot');
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ trustedFolders: [repo.dir] }));
        const cfg = path.join(tempDir('gh-mcp-'), 'mcp.json');
        writeFileSync(cfg, JSON.stringify({ mcpServers: { fs: { type: 'local', ...server, tools: ['*'] } } }));
        r = await execa(ensureCopilot(), ['-p', 'do the task', '--allow-all-tools', '--additional-mcp-config', `@${cfg}`], {
          ...opts,
          env: { ...base, COPILOT_OFFLINE: 'true', COPILOT_AUTO_UPDATE: 'false', COPILOT_CACHE_HOME: COPILOT_CACHE, COPILOT_PROVIDER_BASE_URL: `${api.url}/v1`, COPILOT_PROVIDER_API_KEY: 'sk-fake', COPILOT_MODEL: 'gpt-4.1' },
        });
        break;
      }
      case 'qwen-code': {
        const dir = path.join(repo.home, '.qwen');
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'openai' } }, privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true }, mcpServers: { fs: { ...server, trust: true } } }));
        r = await execa(process.execPath, [ensureQwen(), '-p', 'do the task', '--approval-mode', 'yolo'], { ...opts, env: { ...base, OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${api.url}/v1`, OPENAI_MODEL: 'fake-model' } });
        break;
      }
      case 'opencode': {
        const config = {
          $schema: 'https://opencode.ai/config.json',
          autoupdate: false,
          share: 'disabled',
          model: 'fake/fake-model',
          small_model: 'fake/fake-model',
          permission: { bash: 'allow', edit: 'allow', webfetch: 'deny', external_directory: 'allow' },
          mcp: { fs: { type: 'local', command: [server.command, ...server.args], enabled: true } },
          provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: `${api.url}/v1`, apiKey: 'sk-fake' }, models: { 'fake-model': { name: 'Fake Model', tool_call: true, limit: { context: 128000, output: 4096 } } } } },
        };
        const h = repo.home;
        r = await execa(ensureOpencode(), ['run', '--print-logs', '--log-level', 'INFO', 'do the task'], {
          ...opts,
          env: {
            ...base,
            PWD: repo.dir,
            XDG_CONFIG_HOME: path.join(h, '.config'),
            XDG_DATA_HOME: path.join(h, '.local', 'share'),
            XDG_CACHE_HOME: path.join(h, '.cache'),
            XDG_STATE_HOME: path.join(h, '.local', 'state'),
            OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
            OPENCODE_DISABLE_MODELS_FETCH: '1',
            OPENCODE_DISABLE_AUTOUPDATE: '1',
            OPENCODE_DISABLE_SHARE: '1',
          },
        });
        break;
      }
      default:
        throw new Error(`${client} does not run here`);
    }
    await o.ended?.();
  } finally {
    api.stop();
    // (a client's MCP server can outlive it by a moment: the test's HOME goes only once nothing writes into it)
    await endProcessesWithHome(repo.home);
  }
  return { ...readLog(api.log, script), out: `${String(r.stdout)}\n${String(r.stderr)}` };
}
