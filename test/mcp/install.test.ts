// `install --agent zed|claude-desktop|continue|junie` adds `git handoff mcp` to the client's MCP configuration next to the
// person's own servers, and `uninstall --agent …` gives the file back byte for byte (an absent file removed again).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../helpers/repo';

const CLIENTS = [
  { agent: 'zed', file: (r: TestRepo) => path.join(r.home, '.config', 'zed', 'settings.json'), key: 'context_servers', folder: null },
  { agent: 'claude-desktop', file: (r: TestRepo) => path.join(r.home, '.config', 'Claude', 'claude_desktop_config.json'), key: 'mcpServers', folder: null },
  { agent: 'continue', file: (r: TestRepo) => path.join(r.dir, '.continue', 'mcpServers', 'git-handoff.yaml'), key: null, folder: '.continue' },
  { agent: 'junie', file: (r: TestRepo) => path.join(r.dir, '.junie', 'mcp', 'mcp.json'), key: 'mcpServers', folder: '.junie' },
] as const;

/** The server entries of a configuration as the client reads it (JSON with comments and trailing commas; or YAML). */
function servers(file: string, key: string | null): Record<string, { command: string; args: string[] }> {
  const text = readFileSync(file, 'utf8');
  if (key === null) return Object.fromEntries((parseYaml(text).mcpServers as Array<{ name: string; command: string; args: string[] }>).map((s) => [s.name, s]));
  const json = text.replace(/\/\/[^\n]*/g, '').replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(json)[key];
}

const ODD = (key: string) =>
  `// my settings, by hand\n{\n\t"theme":"One Dark" ,   // keep this\n\t"${key}" : {\n\t\t"other": { "command": "other-server", "args": [ "--flag" ] },\n\t},\n\n\n}`;

describe('install --agent for the MCP clients', () => {
  for (const c of CLIENTS) {
    it(`${c.agent}: adds the server to an absent configuration and uninstall removes the file again`, async () => {
      const repo = makeRepo({ commit: true });
      const file = c.file(repo);
      const r = await repo.cli(['install', '--agent', c.agent]);
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(r.stdout).toContain(file);
      expect(servers(file, c.key)['git-handoff']).toMatchObject({ command: 'git-handoff', args: ['-C', repo.dir, 'mcp'] });
      // an MCP client alone brings no git hooks
      expect(existsSync(path.join(repo.dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
      // again: nothing changes
      const once = readFileSync(file, 'utf8');
      expect((await repo.cli(['install', '--agent', c.agent])).exitCode).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(once);
      const u = await repo.cli(['uninstall', '--agent', c.agent]);
      expect(u.exitCode, String(u.stderr)).toBe(0);
      expect(existsSync(file)).toBe(false);
      // the project's folders install made go with it
      if (c.folder) expect(existsSync(path.join(repo.dir, c.folder))).toBe(false);
    });
  }

  for (const c of CLIENTS.filter((x) => x.key !== null)) {
    it(`${c.agent}: keeps the person's servers, comments and odd formatting, and uninstall gives the file back byte for byte`, async () => {
      const repo = makeRepo({ commit: true });
      const file = c.file(repo);
      mkdirSync(path.dirname(file), { recursive: true });
      const before = ODD(c.key!);
      writeFileSync(file, before);
      expect((await repo.cli(['install', '--agent', c.agent])).exitCode).toBe(0);
      const after = readFileSync(file, 'utf8');
      // the person's lines are all there as they were; the server is one line more
      expect(after.split('\n').filter((l) => !l.includes('"git-handoff"'))).toEqual(before.split('\n'));
      const all = servers(file, c.key);
      expect(Object.keys(all).sort()).toEqual(['git-handoff', 'other']);
      expect(all.other).toEqual({ command: 'other-server', args: ['--flag'] });
      expect((await repo.cli(['uninstall', '--agent', c.agent])).exitCode).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(before);
    });
  }

  it('a plain uninstall (everything) takes the server out of each MCP client too, byte for byte', async () => {
    const repo = makeRepo({ commit: true });
    const file = CLIENTS[0].file(repo);
    mkdirSync(path.dirname(file), { recursive: true });
    const before = ODD('context_servers');
    writeFileSync(file, before);
    expect((await repo.cli(['install', '--agent', 'zed,continue'])).exitCode).toBe(0);
    const u = await repo.cli(['uninstall']);
    expect(u.exitCode, String(u.stderr)).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(existsSync(CLIENTS[2].file(repo))).toBe(false);
    expect(u.stdout).not.toContain('claude_desktop_config.json');
  });

  it('takes out only its entry from a configuration the person changed since install', async () => {
    const repo = makeRepo({ commit: true });
    const file = CLIENTS[1].file(repo);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{\n  "mcpServers": {\n    "other": {"command": "x"}\n  }\n}\n');
    expect((await repo.cli(['install', '--agent', 'claude-desktop'])).exitCode).toBe(0);
    const changed = readFileSync(file, 'utf8').replace('"other"', '"later": {"command": "y"},\n    "other"');
    writeFileSync(file, changed);
    expect((await repo.cli(['uninstall', '--agent', 'claude-desktop'])).exitCode).toBe(0);
    expect(Object.keys(servers(file, 'mcpServers')).sort()).toEqual(['later', 'other']);
  });

  it('names the MCP clients when an agent name is unknown', async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['install', '--agent', 'zedd']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/unknown agent client "zedd".*or an MCP client: zed, claude-desktop, continue, junie/s);
  });

  it('refuses a configuration that is not JSON, changing nothing', async () => {
    const repo = makeRepo({ commit: true });
    const file = CLIENTS[0].file(repo);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{ "context_servers": [');
    const r = await repo.cli(['install', '--agent', 'zed']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file} is not a JSON object`);
    expect(readFileSync(file, 'utf8')).toBe('{ "context_servers": [');
  });
});
