// The folders each client installs natively, written by the build into dist/: a Claude Code plugin
// (dist/claude-plugin) and a Gemini CLI extension (dist/gemini-extension). Each carries the guard wiring, the
// `handoff` skill and a runnable git-handoff (the bundles need no dependencies), so installing it alone is enough.
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eventGroups, WIRING } from './agents';
import { PLUGIN_FLAG } from '../clients/plugin-active';

export const PLUGIN_NAME = 'git-handoff';
export const MARKETPLACE_NAME = 'git-handoff';
export const CLAUDE_FOLDER = 'claude-plugin';
export const GEMINI_FOLDER = 'gemini-extension';

const DESCRIPTION = 'Handoff notes between AI coding sessions, kept in git with per-session ownership: the guard hooks, the startup view, the handoff skill and the git-handoff CLI';

/** The hook command a plugin or extension runs: its own guard front (sh, node only when needed), named through the client's root variable. */
export const pluginGuardCommand = (root: string, client: 'claude-code' | 'gemini-cli') => `"${root}/bin/git-handoff-guard" --client=${client} ${PLUGIN_FLAG}`;

export function claudeHooks(): Record<string, unknown> {
  const w = WIRING.claude;
  const hooks: Record<string, unknown[]> = {};
  for (const [event, matcher] of Object.entries(w.events)) {
    hooks[event] = eventGroups(w, event, matcher, pluginGuardCommand('${CLAUDE_PLUGIN_ROOT}', 'claude-code')).map((g) => ({ ...(g.matcher ? { matcher: g.matcher } : {}), hooks: [{ type: 'command', command: g.command, timeout: w.timeout }] }));
  }
  return { description: 'git-handoff guard: refuses moves of handoff refs and files owned by another session; the startup view', hooks };
}

export function geminiHooks(): Record<string, unknown> {
  const w = WIRING.gemini;
  const hooks: Record<string, unknown[]> = {};
  for (const [event, matcher] of Object.entries(w.events)) {
    hooks[event] = eventGroups(w, event, matcher, pluginGuardCommand('${extensionPath}', 'gemini-cli')).map((g) => ({ ...(g.matcher ? { matcher: g.matcher } : {}), hooks: [{ name: 'git-handoff', type: 'command', command: g.command, timeout: w.timeout }] }));
  }
  return { hooks };
}

/** The startup note of the extension (its context file): short, it points to the skill. */
const EXTENSION_CONTEXT = [
  '# Handoff notes (git-handoff)',
  '',
  'Handoff notes between sessions live in git under `refs/handoffs/`, owned by the session that wrote them.',
  'Use the `handoff` skill (or `/handoff write|boot|status`) to write one before you stop or when context is',
  'compacted, and to read what earlier sessions left (`git handoff boot`). A refused command names the owner:',
  'write your own topic, or take over with `--take-over --reason`. Never move `refs/handoffs/*` by hand.',
  '',
].join('\n');

const GEMINI_COMMAND = [
  'description = "Write, read or check git-handoff notes: /handoff write | boot | status | <topic>"',
  'prompt = """',
  'Follow the `handoff` skill (activate it) with the argument: {{args}}',
  'With no argument: if this session changed files, write or update its handoff; otherwise run `git handoff boot`.',
  '"""',
  '',
].join('\n');

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

/** The built bundles in dist/ (a dot file is a build step's own, not shipped). */
export const bundles = (root: string) => readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.cjs') && !f.startsWith('.'));

/** The runnable part both folders carry: the launcher, the bundles, the git hook stubs, the package identity. */
function copyRuntime(root: string, into: string, pkg: Record<string, unknown>): void {
  mkdirSync(path.join(into, 'bin'), { recursive: true });
  for (const f of ['git-handoff', 'git-handoff-guard']) {
    copyFileSync(path.join(root, 'bin', f), path.join(into, 'bin', f));
    chmodSync(path.join(into, 'bin', f), 0o755);
  }
  mkdirSync(path.join(into, 'dist'), { recursive: true });
  // every bundle, not a list: some are loaded only on demand (yaml.cjs by import, secrets.cjs by write and push)
  for (const f of bundles(root)) copyFileSync(path.join(root, 'dist', f), path.join(into, 'dist', f));
  cpSync(path.join(root, 'git-hooks'), path.join(into, 'git-hooks'), { recursive: true });
  for (const f of ['LICENSE']) if (existsSync(path.join(root, f))) copyFileSync(path.join(root, f), path.join(into, f));
  writeJson(path.join(into, 'package.json'), { name: pkg.name, version: pkg.version, description: pkg.description, license: pkg.license, private: true });
  cpSync(path.join(root, 'src', 'plugin', 'skills'), path.join(into, 'skills'), { recursive: true });
}

/** Writes dist/claude-plugin and dist/gemini-extension from the built bundles; checks the committed marketplace. */
export function writeFolders(root: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const market = JSON.parse(readFileSync(path.join(root, '.claude-plugin', 'marketplace.json'), 'utf8'));
  const listed = market.plugins?.find((p: { name?: string }) => p.name === PLUGIN_NAME);
  if (listed?.version !== pkg.version) throw new Error(`.claude-plugin/marketplace.json lists ${PLUGIN_NAME} ${listed?.version}, package.json is ${pkg.version}: make them agree`);
  const author = { name: 'git-handoff contributors' };

  const claude = path.join(root, 'dist', CLAUDE_FOLDER);
  rmSync(claude, { recursive: true, force: true });
  copyRuntime(root, claude, pkg);
  writeJson(path.join(claude, '.claude-plugin', 'plugin.json'), { name: PLUGIN_NAME, version: pkg.version, description: DESCRIPTION, author, license: pkg.license, keywords: ['git', 'handoff', 'hooks'] });
  writeJson(path.join(claude, 'hooks', 'hooks.json'), claudeHooks());

  const gemini = path.join(root, 'dist', GEMINI_FOLDER);
  rmSync(gemini, { recursive: true, force: true });
  copyRuntime(root, gemini, pkg);
  writeJson(path.join(gemini, 'gemini-extension.json'), { name: PLUGIN_NAME, version: pkg.version, description: DESCRIPTION, contextFileName: 'GEMINI.md' });
  writeJson(path.join(gemini, 'hooks', 'hooks.json'), geminiHooks());
  writeFileSync(path.join(gemini, 'GEMINI.md'), EXTENSION_CONTEXT);
  mkdirSync(path.join(gemini, 'commands'), { recursive: true });
  writeFileSync(path.join(gemini, 'commands', 'handoff.toml'), GEMINI_COMMAND);
  return [claude, gemini];
}
