// The folders each client installs natively (ClientRecord.plugin), written by the build into dist/: a Claude Code
// plugin, a Gemini CLI extension. Each carries the guard wiring, the
// `handoff` skill and a runnable git-handoff (the bundles need no dependencies), so installing it alone is enough.
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { settingsHooks } from './agents';
import { PLUGIN_FLAG, PLUGIN_NAME } from '../clients/plugin-active';
import type { Agent, ClientName } from '../clients/names';
import { PLUGIN_AGENTS, pluginOf, WIRING } from '../clients/records';

const DESCRIPTION = 'Handoff notes between AI coding sessions, kept in git with per-session ownership: the guard hooks, the startup view, the handoff skill and the git-handoff CLI';

/** The hook command a plugin or extension runs: its own guard front (sh, node only when needed), named through the client's root variable. */
export const pluginGuardCommand = (root: string, client: ClientName) => `"${root}/bin/git-handoff-guard" --client=${client} ${PLUGIN_FLAG}`;

/** The package's hooks/hooks.json: the client's wiring, each hook run through the package's own guard. */
export const pluginHooks = (agent: Agent): Record<string, unknown> => ({
  ...pluginOf(agent).hooksHeader,
  hooks: settingsHooks(WIRING[agent], pluginGuardCommand(pluginOf(agent).root, WIRING[agent].client)),
});

/** A file with its folders: a text as it is, anything else as JSON. */
function writeFile(file: string, content: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
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
  // every bundle, not a list: some are loaded only on demand (secrets.cjs by write and push)
  for (const f of bundles(root)) copyFileSync(path.join(root, 'dist', f), path.join(into, 'dist', f));
  cpSync(path.join(root, 'git-hooks'), path.join(into, 'git-hooks'), { recursive: true });
  for (const f of ['LICENSE']) if (existsSync(path.join(root, f))) copyFileSync(path.join(root, f), path.join(into, f));
  writeFile(path.join(into, 'package.json'), { name: pkg.name, version: pkg.version, description: pkg.description, license: pkg.license, private: true });
  cpSync(path.join(root, 'src', 'plugin', 'skills'), path.join(into, 'skills'), { recursive: true });
}

/** Writes each client's package folder into dist/ from the built bundles; checks the committed marketplace. */
export function writeFolders(root: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const market = JSON.parse(readFileSync(path.join(root, '.claude-plugin', 'marketplace.json'), 'utf8'));
  const listed = market.plugins?.find((p: { name?: string }) => p.name === PLUGIN_NAME);
  if (listed?.version !== pkg.version) throw new Error(`.claude-plugin/marketplace.json lists ${PLUGIN_NAME} ${listed?.version}, package.json is ${pkg.version}: make them agree`);
  return PLUGIN_AGENTS.map((agent) => {
    const into = path.join(root, 'dist', pluginOf(agent).folder);
    rmSync(into, { recursive: true, force: true });
    copyRuntime(root, into, pkg);
    const files = pluginOf(agent).files({ name: PLUGIN_NAME, version: pkg.version, description: DESCRIPTION, license: pkg.license });
    for (const [file, content] of Object.entries({ ...files, 'hooks/hooks.json': pluginHooks(agent) })) writeFile(path.join(into, file), content);
    return into;
  });
}
