// The real clients these tests drive, installed once into the user cache (outside the repository): the
// Claude Code native CLI (~360 MB), Gemini CLI, Codex, Copilot CLI (~190 MB), OpenCode (~115 MB), Qwen Code (~145 MB),
// the Cline CLI (~440 MB), Kilo Code CLI (~290 MB) and Factory droid (~245 MB).
// Pinned versions, npm's ordinary client. Nothing here uses vitest's runtime: test/clients/setup.ts installs them all
// before the set's files run side by side.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
export const CLAUDE_VERSION = process.env.CLAUDE_CODE_VERSION ?? '2.1.328';
export const GEMINI_CORE_VERSION = process.env.GEMINI_CLI_CORE_VERSION ?? '0.61.0';
const CACHE = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
export const CLAUDE_DIR = process.env.CLAUDE_CODE_DIR ?? path.join(CACHE, 'claude-code-offline');
export const GEMINI_DIR = path.join(CACHE, 'gemini-cli-core');

/** The scripted-API harness shipped beside the repository (shared/tools/claude-offline). */
export const CLAUDE_OFFLINE = [path.resolve(ROOT, '../shared/tools/claude-offline'), '/work/shared/tools/claude-offline'].find((d) => existsSync(path.join(d, 'run-claude.sh')))!;

function npmInstall(dir: string, spec: string, extra: string[] = []): void {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path.join(dir, 'package.json'))) writeFileSync(path.join(dir, 'package.json'), '{"name":"client-cache","private":true}\n');
  execFileSync('npm', ['install', spec, '--no-audit', '--no-fund', '--no-save', ...extra], { cwd: dir, stdio: 'inherit' });
}

export const claudeBin = () => path.join(CLAUDE_DIR, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');

export function ensureClaude(): string {
  if (!existsSync(claudeBin())) npmInstall(CLAUDE_DIR, `@anthropic-ai/claude-code@${CLAUDE_VERSION}`);
  return claudeBin();
}

export const geminiCoreDir = () => path.join(GEMINI_DIR, 'node_modules', '@google', 'gemini-cli-core');

export function ensureGeminiCore(): string {
  if (!existsSync(path.join(geminiCoreDir(), 'dist', 'src', 'hooks', 'hookRunner.js'))) {
    npmInstall(GEMINI_DIR, `@google/gemini-cli-core@${GEMINI_CORE_VERSION}`, ['--ignore-scripts']);
  }
  return geminiCoreDir();
}

/** A harness shipped beside the repository (shared/tools/<name>). */
const offline = (name: string, script: string) => [path.resolve(ROOT, `../shared/tools/${name}`), `/work/shared/tools/${name}`].find((d) => existsSync(path.join(d, script)))!;
export const CODEX_OFFLINE = offline('codex-offline', 'run-codex.sh');
export const GEMINI_OFFLINE = offline('gemini-offline', 'run-gemini.sh');
export const CODEX_VERSION = process.env.CODEX_VERSION ?? '0.169.0';
export const GEMINI_CLI_VERSION = process.env.GEMINI_CLI_VERSION ?? '0.61.0';
// the same places the harnesses install to on first use, so one download serves both
export const CODEX_DIR = process.env.CODEX_OFFLINE_DIR ?? path.join(CACHE, 'codex-offline');
export const GEMINI_CLI_DIR = process.env.GEMINI_OFFLINE_DIR ?? path.join(CACHE, 'gemini-offline');

/** The real Codex CLI's native binary (about 100 MB), installed once. */
export function ensureCodex(): string {
  const bin = path.join(CODEX_DIR, 'node_modules', '@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex');
  if (!existsSync(bin)) npmInstall(CODEX_DIR, `@openai/codex@${CODEX_VERSION}`);
  return bin;
}

/** The whole Gemini CLI's bundle (gemini.js), installed once. */
export function ensureGeminiCli(): string {
  const js = path.join(GEMINI_CLI_DIR, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
  if (!existsSync(js)) npmInstall(GEMINI_CLI_DIR, `@google/gemini-cli@${GEMINI_CLI_VERSION}`);
  return js;
}
// Copilot CLI, OpenCode and Qwen Code: the same cache folders their harnesses (shared/tools/*-offline) install to
export const COPILOT_OFFLINE = offline('copilot-offline', 'run-copilot.sh');
export const OPENCODE_OFFLINE = offline('opencode-offline', 'run-opencode.sh');
export const QWEN_OFFLINE = offline('qwen-offline', 'run-qwen.sh');
export const COPILOT_VERSION = process.env.COPILOT_VERSION ?? '1.0.102';
export const OPENCODE_VERSION = process.env.OPENCODE_VERSION ?? '1.18.33';
export const QWEN_VERSION = process.env.QWEN_CODE_VERSION ?? '0.24.4';
export const COPILOT_DIR = process.env.COPILOT_OFFLINE_DIR ?? path.join(CACHE, 'copilot-offline');
export const OPENCODE_DIR = process.env.OPENCODE_OFFLINE_DIR ?? path.join(CACHE, 'opencode-offline');
export const QWEN_DIR = process.env.QWEN_OFFLINE_DIR ?? path.join(CACHE, 'qwen-offline');
/** Where Copilot CLI unpacks its JavaScript on first run, shared by every run (the harness's default too). */
export const COPILOT_CACHE = path.join(COPILOT_DIR, 'copilot-cache');

/** Copilot CLI's native binary (it unpacks itself into COPILOT_CACHE_HOME on first run: one shared cache). */
export function ensureCopilot(): string {
  const bin = path.join(COPILOT_DIR, 'node_modules', '@github', 'copilot-linux-x64', 'copilot');
  if (!existsSync(bin)) npmInstall(COPILOT_DIR, `@github/copilot@${COPILOT_VERSION}`);
  return bin;
}

/** OpenCode's native binary. */
export function ensureOpencode(): string {
  const bin = path.join(OPENCODE_DIR, 'node_modules', 'opencode-linux-x64', 'bin', 'opencode');
  if (!existsSync(bin)) npmInstall(OPENCODE_DIR, `opencode-ai@${OPENCODE_VERSION}`);
  return bin;
}

/** Qwen Code's cli-entry.js. */
export function ensureQwen(): string {
  const js = path.join(QWEN_DIR, 'node_modules', '@qwen-code', 'qwen-code', 'cli-entry.js');
  if (!existsSync(js)) npmInstall(QWEN_DIR, `@qwen-code/qwen-code@${QWEN_VERSION}`);
  return js;
}

// The filesystem MCP server (@modelcontextprotocol/server-filesystem) the MCP cases wire into each client, cached as
// the clients are
export const MCP_FS_VERSION = process.env.MCP_FS_VERSION ?? '2026.8.31';
export const MCP_FS_DIR = process.env.MCP_FS_DIR ?? path.join(CACHE, 'mcp-filesystem');

/** The server's entry (run with node and the folders it may touch). */
export function ensureMcpFs(): string {
  const js = path.join(MCP_FS_DIR, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
  if (!existsSync(js)) npmInstall(MCP_FS_DIR, `@modelcontextprotocol/server-filesystem@${MCP_FS_VERSION}`);
  return js;
}

// Cline CLI, Kilo Code CLI and Factory droid: the same cache folders their harnesses (test/clients/tools/*) install to.
// The registry reachable here has @factory/cli (the launcher) at 0.225.1 and its linux-x64 binary at 0.225.2 only,
// so droid's binary package is installed by itself; @kilocode/cli 7.8.1 has no linux-x64 package here, 7.7.7 has.
const tools = (name: string, script: string) => [path.join(ROOT, 'test', 'clients', 'tools', name)].find((d) => existsSync(path.join(d, script)));
export const CLINE_OFFLINE = tools('cline', 'run-cline.sh');
export const KILO_OFFLINE = tools('kilo', 'run-kilo.sh');
export const DROID_OFFLINE = tools('droid', 'run-droid.sh');
/** The logging hook and the fake MCP server the harnesses and tests share. */
export const HOOK_LOG_SCRIPT = path.join(ROOT, 'test', 'clients', 'tools', 'hook-log.sh');
export const FAKE_MCP = path.join(ROOT, 'test', 'clients', 'tools', 'fake-mcp.mjs');
export const CLINE_VERSION = process.env.CLINE_VERSION ?? '3.0.65';
export const KILO_VERSION = process.env.KILO_VERSION ?? '7.7.7';
export const DROID_VERSION = process.env.DROID_VERSION ?? '0.225.2';
export const CLINE_DIR = process.env.CLINE_OFFLINE_DIR ?? path.join(CACHE, 'cline-offline');
export const KILO_DIR = process.env.KILO_OFFLINE_DIR ?? path.join(CACHE, 'kilo-offline');
export const DROID_DIR = process.env.DROID_OFFLINE_DIR ?? path.join(CACHE, 'factory-offline');

/** The Cline CLI's launcher (node), which runs its native binary (Bun-compiled, with @cline/sdk). */
export function ensureCline(): string {
  const bin = path.join(CLINE_DIR, 'node_modules', 'cline', 'bin', 'cline');
  if (!existsSync(bin)) npmInstall(CLINE_DIR, `cline@${CLINE_VERSION}`);
  return bin;
}

/** Kilo Code CLI's native binary. */
export function ensureKilo(): string {
  const bin = path.join(KILO_DIR, 'node_modules', '@kilocode', 'cli-linux-x64', 'bin', 'kilo');
  if (!existsSync(bin)) npmInstall(KILO_DIR, `@kilocode/cli@${KILO_VERSION}`);
  return bin;
}

/** Factory droid's native binary. */
export function ensureDroid(): string {
  const bin = path.join(DROID_DIR, 'node_modules', '@factory', 'cli-linux-x64', 'bin', 'droid');
  if (!existsSync(bin)) npmInstall(DROID_DIR, `@factory/cli-linux-x64@${DROID_VERSION}`);
  return bin;
}
