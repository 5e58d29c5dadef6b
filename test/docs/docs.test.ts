// The docs a user reads cannot drift from the code: every config key is in the README table and the man page.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../src/config-keys';
import { ROOT } from '../helpers/repo';
import { pasted, readmeBlock } from './readme-helpers';

describe('documentation', () => {
  it('README and man page list every handoff.* key with its default and doc line, from the table', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const man = readFileSync(path.join(ROOT, 'man', 'man1', 'git-handoff.1'), 'utf8').replace(/\\-/g, '-');
    // the README's rows are the table's, in its order, word for word (src/config-keys.ts: the one table of handoff.* keys)
    const rows = readme.split('\n').filter((l) => l.startsWith('| `handoff.'));
    expect(rows).toEqual(CONFIG_KEYS.map((k) => `| \`${k.key}\` | ${k.default.startsWith('(') ? k.default : `\`${k.default}\``} | ${k.description} |`));
    for (const k of CONFIG_KEYS) {
      expect(man).toContain(`.B ${k.key}\n${k.description.replace(/`/g, '')} (default: ${k.default})`);
    }
  });

  it('the README quick start names the commands that exist', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(readme).toMatch(/^npm ci && npm run build && npm link\b/m);
    expect(readme).toMatch(/^npm run demo\b/m);
    expect(pkg.scripts.demo).toBeDefined();
    expect(readme).toMatch(/^npm test\b/m);
    // nothing sends users to a package name that is not published (someone else could take it)
    expect(readme).not.toMatch(/npx git-handoff/);
    // the front (what, install, the tour, trying it, the clients) fits on a screen
    expect(readme.split('\n').findIndex((l) => l.startsWith('## Wire your agent clients'))).toBeLessThanOrEqual(60);
  });
});

describe('npm run demo', () => {
  it('shows the refusal, the takeover and three versions, ends with boot, and writes no escape sequence into a pipe', async () => {
    const { execa } = await import('execa');
    const { makeRepo } = await import('../helpers/repo');
    const env = makeRepo().env;
    const r = await execa('bash', [path.join(ROOT, 'scripts', 'demo.sh')], { env, extendEnv: false, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/exit 3 — refused/);
    expect(r.stderr).toMatch(/owned by session 5f0c6a52/);
    expect(r.stdout).toMatch(/\(taken over from session 5f0c6a52-alice\)/);
    const log = r.stdout.slice(r.stdout.indexOf('git handoff log auth-refactor'), r.stdout.indexOf('$ git handoff list'));
    expect(log.match(/^[0-9a-f]{12}  /gm)).toHaveLength(3);
    expect(r.stdout).not.toContain('\x1b');
    const boot = r.stdout.slice(r.stdout.lastIndexOf('$ git handoff'));
    expect(boot).toMatch(/^\$ git handoff boot/);
    expect(boot).toContain('Next action: run the e2e suite');
  });
});

describe('README commands, as written', () => {
  it('the first screen, pasted into a shell with an empty HOME: a scratch repository, a write, the refused overwrite (exit 3), list, show, boot', async () => {
    const { isolatedEnv, tempDir } = await import('../helpers/repo');
    const root = tempDir('gh-readme-');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.join(root, 'home'));
    mkdirSync(path.join(root, 'tmp'));
    // no git identity at all, as on a new machine; mktemp makes the scratch repository under this test's directory
    const env = isolatedEnv(path.join(root, 'home'), { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}`, TMPDIR: path.join(root, 'tmp') });
    const lines = readmeBlock('First commands');
    expect(lines[0]).toMatch(/^cd "\$\(mktemp -d\)" && git init/);
    const ran = await pasted(lines, ROOT, env);
    for (const r of ran) expect([r.line, r.code], r.out).toEqual([r.line, r.line.includes('--session bob') ? 3 : 0]);
    expect(ran.find((r) => r.line.includes('--session bob'))!.out).toContain('owned by session alice');
    // nothing was written into this clone: the handoff is in the scratch repository
    const { spawnSync } = await import('node:child_process');
    expect(spawnSync('git', ['for-each-ref', 'refs/handoffs/'], { cwd: ROOT, encoding: 'utf8' }).stdout).not.toContain('auth-refactor');
  });

  it('the repository wiring lines (Wire your agent clients, Agent clients) run in a fresh repository', async () => {
    const { makeRepo } = await import('../helpers/repo');
    const repo = makeRepo({ commit: true });
    // the plugin and extension lines run the clients' own installers: test/clients (npm run test:clients) runs them
    const lines = [...readmeBlock('Wire your agent clients'), ...readmeBlock('Agent clients')].filter((l) => !/--plugin|--extension/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(7);
    const env = { ...repo.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
    for (const r of await pasted(lines, repo.dir, env)) {
      // doctor exits 1 where a client's folder is untrusted or a client is missing; that is its answer, not a failure to run
      expect([r.line, r.code === 0 || (r.line === 'git handoff doctor' && r.code === 1)], r.out).toEqual([r.line, true]);
    }
  });

  it('the client table lists every event install wires, client by client', async () => {
    const { makeRepo } = await import('../helpers/repo');
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'all'])).exitCode).toBe(0);
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const rows: Array<[string, string]> = [
      ['Claude Code', '.claude/settings.json'],
      ['Gemini CLI', '.gemini/settings.json'],
      ['Codex', '.codex/hooks.json'],
      ['Copilot CLI', '.github/hooks/git-handoff.json'],
      ['Qwen Code', '.qwen/settings.json'],
    ];
    for (const [client, file] of rows) {
      const row = readme.split('\n').find((l) => l.startsWith(`| ${client} | \``));
      expect(row, client).toBeDefined();
      const events = row!.split(' | ')[2];
      for (const e of Object.keys(JSON.parse(readFileSync(path.join(repo.dir, file), 'utf8')).hooks)) expect(events, `${client} ${e}`).toMatch(new RegExp(`\\b${e}\\b`));
    }
  });
});

describe('output into a closed pipe', () => {
  it('`show --json | head -1` of a large handoff ends quietly', async () => {
    const { execa } = await import('execa');
    const { makeRepo, BIN } = await import('../helpers/repo');
    const repo = makeRepo({ commit: true });
    const body = 'a line of the handoff body that repeats\n'.repeat(20_000); // 800 KB, far over a pipe's buffer
    expect((await repo.cli(['write', 'big-notes', '--session', 's1', '-F', '-'], { input: body })).exitCode).toBe(0);
    const script = `"$BIN" show big-notes --json | head -1; echo "status \${PIPESTATUS[0]}" >&2`;
    const r = await execa('bash', ['-c', script], { cwd: repo.dir, env: { ...repo.env, BIN }, extendEnv: false, reject: false });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe('{');
    expect(r.stderr).toMatch(/status 0/);
    expect(r.stderr).not.toMatch(/EPIPE|Error/);
  });
});

describe('help', () => {
  it('`git handoff` alone prints the usage on stderr and exits 2; -h exits 0 with every command', async () => {
    const { makeRepo } = await import('../helpers/repo');
    const repo = makeRepo();
    const bare = await repo.cli([]);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr).toMatch(/git handoff write <topic>/);
    const h = await repo.cli(['-h']);
    expect(h.exitCode).toBe(0);
    for (const c of ['write', 'show', 'list', 'log', 'archive', 'restore', 'boot', 'template', 'import', 'install', 'uninstall', 'doctor', 'fetch', 'push', 'sync', 'sessions', 'release', 'completion']) {
      expect(h.stdout, c).toMatch(new RegExp(`git handoff ${c}\\b`));
    }
    const w = await repo.cli(['write', '-h']);
    expect(w.stdout).toMatch(/Examples:/);
  });
});
