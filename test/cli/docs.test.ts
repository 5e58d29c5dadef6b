// The docs a user reads cannot drift from the code: every config key is in the README table and the man page.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../src/config-keys';
import { ROOT } from '../helpers/repo';

describe('documentation', () => {
  it('README and man page list every handoff.* key with its default', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const man = readFileSync(path.join(ROOT, 'man', 'man1', 'git-handoff.1'), 'utf8').replace(/\\-/g, '-');
    for (const k of CONFIG_KEYS) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${k.key}\` |`));
      expect(row, k.key).toBeDefined();
      expect(row).toContain(k.default.startsWith('(') ? k.default : `\`${k.default}\``);
      expect(man).toContain(`.B ${k.key}`);
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
    expect(r.stdout).toMatch(/\(taken over\)/);
    const log = r.stdout.slice(r.stdout.indexOf('git handoff log auth-refactor'), r.stdout.indexOf('$ git handoff list'));
    expect(log.match(/^[0-9a-f]{12}  /gm)).toHaveLength(3);
    expect(r.stdout).not.toContain('\x1b');
    const boot = r.stdout.slice(r.stdout.lastIndexOf('$ git handoff'));
    expect(boot).toMatch(/^\$ git handoff boot/);
    expect(boot).toContain('Next action: run the e2e suite');
  });
});

/** The `git handoff …` lines of the README's sh blocks under a heading, comments stripped. */
function readmeCommands(heading: string): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`## ${heading}`)).split(/\n## /)[0];
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1].split('\n'))
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith('git handoff '));
}

describe('README commands, as written', () => {
  it('the five-command tour and the agent-client commands run in a fresh repository', async () => {
    const { execa } = await import('execa');
    const { makeRepo } = await import('../helpers/repo');
    const repo = makeRepo({ commit: true });
    const lines = [...readmeCommands('Five commands'), ...readmeCommands('Agent clients')];
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) {
      const r = await execa('sh', ['-c', line], {
        cwd: repo.dir,
        env: { ...repo.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}`, GIT_HANDOFF_SESSION: 'readme-session' },
        extendEnv: false,
        reject: false,
      });
      // the tour's second write is the refusal it shows
      expect(r.exitCode, `${line}\n${r.stderr}`).toBe(line.includes('--session bob') ? 3 : 0);
    }
    expect(repo.git(['for-each-ref', '--format=%(refname)', 'refs/handoffs/']).stdout.trim()).toBe('refs/handoffs/main/auth-refactor');
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
