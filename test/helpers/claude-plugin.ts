// The git-handoff plugin as `install --agent claude --plugin` leaves it for Claude Code, without Claude Code: this
// build's dist/claude-plugin in a directory marketplace under the data folder, known, installed and enabled for the user.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './repo';

const write = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
};

/** Installs the built plugin for the user of `home`; returns the marketplace folder (its plugin folder is `<it>/git-handoff`). */
export function claudePluginInstalled(home: string): string {
  const market = path.join(home, '.local', 'share', 'git-handoff', 'claude-marketplace');
  cpSync(path.join(ROOT, 'dist', 'claude-plugin'), path.join(market, 'git-handoff'), { recursive: true });
  write(path.join(market, '.claude-plugin', 'marketplace.json'), { name: 'git-handoff', plugins: [{ name: 'git-handoff', source: './git-handoff' }] });
  write(path.join(home, '.claude', 'plugins', 'known_marketplaces.json'), { 'git-handoff': { source: { source: 'directory', path: market }, installLocation: market } });
  write(path.join(home, '.claude', 'plugins', 'installed_plugins.json'), { version: 2, plugins: { 'git-handoff@git-handoff': [{ scope: 'user', installPath: '/nonexistent' }] } });
  write(path.join(home, '.claude', 'settings.json'), { enabledPlugins: { 'git-handoff@git-handoff': true } });
  return market;
}
