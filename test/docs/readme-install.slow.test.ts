// The README's install and uninstall, line by line, on a fresh HOME (issue 27): from a clone (`npm ci && npm link`,
// into a temporary npm prefix) and from a packed tarball (`npm pack`, `npm install -g <tgz>`), `git handoff
// --version` and `git handoff --help` (the man page, found from PATH alone) work; then the README's uninstall lines
// leave HOME and the prefix with nothing but what was there before. npm reads packages from the user's cache
// (prefer-offline), as a second install on a machine would.
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, makeRepo, ROOT, tempDir } from '../helpers/repo';

/** The lines of the README's sh blocks under a heading, comments stripped. */
function readmeLines(heading: string): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`## ${heading}\n`)).split(/\n## /)[0];
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split('\n')).map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
}

/** Every path under `dir` (files with their size), for before/after comparisons. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = path.join(d, n);
      const st = lstatSync(p);
      out.push(`${path.relative(dir, p)}${st.isDirectory() ? '/' : ` ${st.size}`}`);
      if (st.isDirectory() && !st.isSymbolicLink()) walk(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** A clone of this checkout as it is now (committed or not), as `git clone` of the repository gives it. */
function cloneOfThisCheckout(into: string): string {
  const src = path.join(into, 'git-handoff');
  mkdirSync(src);
  const files = execaSyncLines('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], ROOT);
  for (const f of files) if (existsSync(path.join(ROOT, f))) cpSync(path.join(ROOT, f), path.join(src, f), { recursive: true });
  return src;
}

function execaSyncLines(cmd: string, args: string[], cwd: string): string[] {
  const r = require('node:child_process').spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  return String(r.stdout).split('\0').filter(Boolean);
}

describe('the README install, followed on a fresh HOME', () => {
  it('clone + npm ci && npm link, then the tarball: --version and --help work; the uninstall lines leave nothing', async () => {
    const root = tempDir('gh-readme-');
    const home = path.join(root, 'home');
    // a HOME as most have it: a ~/.cache and a ~/.local/state (git-handoff's code cache and its loss record's witness
    // go in them; the README's last two lines remove those)
    mkdirSync(path.join(home, '.cache'), { recursive: true });
    mkdirSync(path.join(home, '.local', 'state'), { recursive: true });
    const prefix = path.join(root, 'prefix');
    const src = cloneOfThisCheckout(root);
    const cache = process.env.npm_config_cache || path.join(homedir(), '.npm');
    const PATH = `${path.join(prefix, 'bin')}:${process.env.PATH}`;
    const env = isolatedEnv(home, {
      PATH,
      npm_config_prefix: prefix,
      npm_config_cache: cache,
      npm_config_prefer_offline: 'true',
      npm_config_update_notifier: 'false',
      MANPATH: undefined,
      MANPAGER: 'cat',
      PAGER: 'cat',
      MANWIDTH: '80',
    });
    const sh = (line: string, cwd: string) => execa('sh', ['-c', line], { cwd, env, extendEnv: false, reject: false });
    const homeBefore = tree(home);

    const install = readmeLines('Install');
    expect(install[0]).toMatch(/^git clone /);
    const [, link, version] = install;
    expect(link).toBe('npm ci && npm run build && npm link');
    for (const line of [link, version]) {
      const r = await sh(line, src);
      expect(r.exitCode, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
    }
    expect(String((await sh(version, src)).stdout)).toMatch(/^\d+\.\d+\.\d+$/);

    const works = async () => {
      const repo = makeRepo({ commit: true });
      const help = await execa('git', ['handoff', '--help'], { cwd: repo.dir, env, extendEnv: false, reject: false });
      expect(help.exitCode, String(help.stderr)).toBe(0);
      expect(help.stdout).toMatch(/git-handoff\s+-\s+handoff\s+notes\s+between/);
      const w = await execa('git', ['handoff', 'write', 'auth-refactor', '--session', 'readme', '-m', 'x'], { cwd: repo.dir, env, extendEnv: false, reject: false });
      expect(w.exitCode, String(w.stderr)).toBe(0);
      return repo;
    };
    await works();

    const uninstall = readmeLines('Uninstall');
    const runUninstall = async () => {
      const repo = makeRepo({ commit: true });
      for (const line of uninstall) {
        const r = await sh(line, repo.dir);
        expect(r.exitCode, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
      }
      expect(tree(home)).toEqual(homeBefore);
      // the prefix holds folders npm made, and no file or link of ours
      expect(tree(prefix).filter((p) => !p.endsWith('/'))).toEqual([]);
    };
    await runUninstall();

    // the tarball path: pack in the clone, install on "another machine" (this HOME, a fresh prefix)
    const [pack, installTgz] = readmeLines('Install').filter((l) => /^npm (pack|install -g)/.test(l));
    expect(pack).toBe('npm pack');
    const packed = await sh(pack, src);
    expect(packed.exitCode, String(packed.stderr)).toBe(0);
    const tgz = /(\S+\.tgz)/.exec(installTgz)![1];
    expect(existsSync(path.join(src, tgz)), `${tgz} is what npm pack wrote`).toBe(true);
    const other = path.join(root, 'other-machine');
    mkdirSync(other);
    cpSync(path.join(src, tgz), path.join(other, tgz));
    const inst = await sh(installTgz, other);
    expect(inst.exitCode, `${installTgz}\n${inst.stderr}`).toBe(0);
    // the packed package.json has no install-time script, so npm neither runs one nor warns about one
    expect(String(inst.stderr)).not.toMatch(/install-scripts|install scripts|prepare/);
    expect(readdirSync(path.join(prefix, 'share', 'man', 'man1'))).toContain('git-handoff.1');
    await works();
    await runUninstall();
  });
});
