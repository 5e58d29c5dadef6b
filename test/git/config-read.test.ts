// The configuration read in this process (src/git/config-read.ts, issue 39) against `git config -z --get-regexp`,
// as readConfig reads git's answer: file by file, hand-picked syntax (quotes, escapes, continuations, comments,
// whitespace, CRLF, a BOM, subsections) and random files from the same pieces; every case either matches git or
// is left to git (null), and the cases git refuses or that include other files are always left to git.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseConfigFile, readConfigInProcess } from '../../src/git/config-read';
import { openRepo } from '../../src/git/repo';
import { tempDir } from '../helpers/repo';

const WANTED = /^(handoff|user|author|committer|core|commit|i18n)\./;

function fixture() {
  const root = tempDir('gh-cfgread-');
  const home = path.join(root, 'home');
  mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
  const dir = path.join(root, 'repo');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' };
  spawnSync('git', ['init', '-q', dir], { env });
  const repo = openRepo(dir);
  const local = path.join(repo.commonDir, 'config');
  const base = spawnSync('cat', [local], { encoding: 'utf8' }).stdout;
  return { root, home, dir, env, repo, local, base };
}

/** git's answer, read as readConfig reads it; null when git refuses the files. */
function gitsAnswer(dir: string, env: NodeJS.ProcessEnv): Map<string, string[]> | null {
  const r = spawnSync('git', ['config', '-z', '--get-regexp', '^(handoff|user|author|committer|core|commit|i18n)\\.'], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) return null;
  const map = new Map<string, string[]>();
  for (const entry of r.stdout.split('\0')) {
    if (!entry) continue;
    const nl = entry.indexOf('\n');
    const key = (nl === -1 ? entry : entry.slice(0, nl)).toLowerCase();
    map.set(key, [...(map.get(key) ?? []), nl === -1 ? 'true' : entry.slice(nl + 1)]);
  }
  return map;
}

const CASES: string[] = [
  '[user]\n\tname = A  B\t C \n\temail=a@b ; comment\n',
  '[user]\nname = "  quoted  "  tail # c\n',
  '[user]\nname = a\\\n  continued\n',
  '[user]\nname = "tab\\there" \\n \\\\ \\"q\\"\n',
  '[core]\n\tbare\n\tfilemode = false\n\tsharedRepository = group\n',
  '[User]\n\tName = Mixed Case\n[USER "Sub.Case"]\n\tname = sub\n',
  '[user.Deprecated]\n\tname = d\n',
  '[handoff] sign = true\n[handoff]\nsign = false\n',
  '\ufeff[user]\n\tname = bom\n',
  '[user]\r\n\tname = crlf\r\n\temail = x\r\n',
  '[user]\n\tname =\n\temail = ""\n',
  '[commit]\n\tgpgSign = yes\n[i18n]\n\tcommitEncoding = latin1\n',
  '[user]\n\tname = "unterminated\n',
  '[user]\n\tname = bad \\x escape\n',
  '[user\n\tname = x\n',
  'name = before any section\n',
  '[include]\n\tpath = other\n[user]\n\tname = x\n',
  '[includeIf "gitdir:/x/"]\n\tpath = other\n',
  '[user]\n\tname = x # comment "quoted\n\temail = y ; "still comment\n',
  '[user "a\\"b\\\\c"]\n\tname = esc\n',
  '[core]\n\tfsync = committed\n[core "x"]\n\ty = 1\n',
  '[user]\n\tname = ünïcödé\n',
  '[user]\n\t1name = digit first\n',
  '[user]\n\tna.me = dot\n',
  '[user]\n\tname = trailing backslash at end\\',
  '[user]\n\tname = no newline at end',
  '[user]\n\tname = a\\\r\n b\n',
  '[ user ]\n\tname = spaced\n',
  '[user  "sub"]\n\tname = two spaces\n',
  '[user "sub" ]\n\tname = space before bracket\n',
  '[]\n\tname = empty\n',
];

const SECTIONS = ['[user]', '[User "S"]', '[core]', '[handoff]', '[commit]', '[other]', '[user.Sub]', '[ user ]'];
const NAMES = ['name', 'Email', 'sign', 'bare', 'x-y', 'n2'];
const VALUE = ['x', ' ', '\t', '"', '\\n', '\\t', '\\\\', '\\"', '\\\n', ' #c', ' ;c', 'é', 'Y  z', '\\q'];
const END = ['\n', '\n', '\r\n', ''];
/** A file of plausible lines: sections, `name`, `name = value` with quotes, escapes, comments and odd whitespace. */
function randomFile(seed: number): string {
  let s = seed;
  const rnd = (n: number) => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s % n);
  let out = '[user]\n';
  for (let i = 0, n = 2 + rnd(6); i < n; i++) {
    if (rnd(4) === 0) out += SECTIONS[rnd(SECTIONS.length)] + '\n';
    out += (rnd(2) ? '\t' : '') + NAMES[rnd(NAMES.length)];
    if (rnd(5)) {
      out += [' = ', '=', ' =', '\t= '][rnd(4)];
      for (let j = 0, m = rnd(6); j < m; j++) out += VALUE[rnd(VALUE.length)];
    }
    out += END[rnd(END.length)] || '\n';
  }
  return out;
}

describe('the configuration read in this process, against git', () => {
  // a fresh repository per test (tempDir's are removed after each)
  let f: ReturnType<typeof fixture>;
  beforeEach(() => {
    f = fixture();
  });
  const check = (text: string, where: 'local' | 'global' | 'xdg') => {
    const files = { local: f.local, global: path.join(f.home, '.gitconfig'), xdg: path.join(f.home, '.config', 'git', 'config') };
    for (const [k, file] of Object.entries(files)) writeFileSync(file, k === 'local' ? f.base : '');
    writeFileSync(files[where], where === 'local' ? f.base + text : text);
    const mine = readConfigInProcess(f.repo, WANTED, f.env);
    const gits = gitsAnswer(f.dir, f.env);
    if (mine !== null) expect(gits, `git refused what this read:\n${text}`).not.toBeNull();
    if (mine !== null) expect([...mine], `${where}:\n${JSON.stringify(text)}`).toEqual([...gits!]);
    return { mine, gits };
  };

  it('matches git on hand-picked syntax, in the repository, global and XDG files', () => {
    let read = 0;
    for (const text of CASES) for (const where of ['local', 'global', 'xdg'] as const) if (check(text, where).mine) read++;
    // most cases are read here, not all left to git: a continuation over CR LF and a BOM among them
    expect(read).toBeGreaterThan(CASES.length * 1.5);
    expect(check('[user]\n\tname = a\\\r\n b\n', 'local').mine?.get('user.name')).toEqual(['a b']);
    expect(check('\ufeff[user]\n\tname = bom\n', 'global').mine?.get('user.name')).toEqual(['bom']);
  });

  it('matches git on random files made of the same pieces', () => {
    let read = 0;
    for (let seed = 1; seed <= 150; seed++) if (check(randomFile(seed), seed % 2 ? 'local' : 'global').mine) read++;
    expect(read).toBeGreaterThan(30);
  });

  it('leaves to git what git refuses, includes, and configuration from the environment', () => {
    for (const text of ['[user]\n\tname = "unterminated\n', '[user\n', '[include]\n\tpath = x\n', '[includeIf "onbranch:main"]\n\tpath = x\n', 'top = level\n']) {
      expect(parseConfigFile(Buffer.from(text)), text).toBeNull();
    }
    writeFileSync(f.local, f.base);
    expect(readConfigInProcess(f.repo, WANTED, f.env)).not.toBeNull();
    expect(readConfigInProcess(f.repo, WANTED, { ...f.env, GIT_CONFIG_PARAMETERS: "'user.name'='x'" })).toBeNull();
    expect(readConfigInProcess(f.repo, WANTED, { ...f.env, GIT_CONFIG_COUNT: '1' })).toBeNull();
    expect(readConfigInProcess(f.repo, WANTED, { ...f.env, GIT_CONFIG: '/dev/null' })).toBeNull();
    expect(readConfigInProcess(f.repo, WANTED, { ...f.env, GIT_CONFIG_NOSYSTEM: 'maybe' })).toBeNull();
    expect(readConfigInProcess(f.repo, WANTED, { ...f.env, HOME: '' })).toBeNull();
    // files named by variables git reads from 2.32 on (this tool needs 2.31): git says
    expect(readConfigInProcess(f.repo, WANTED, { ...f.env, GIT_CONFIG_GLOBAL: path.join(f.home, 'g') })).toBeNull();
    expect(readConfigInProcess(f.repo, WANTED, { ...f.env, GIT_CONFIG_NOSYSTEM: '0', GIT_CONFIG_SYSTEM: path.join(f.home, 's') })).toBeNull();
    expect(readConfigInProcess({ ...f.repo, plain: false }, WANTED, f.env)).toBeNull();
  });
});
