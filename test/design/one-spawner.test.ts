// One module spawns git (issue 25, layout): every git process the product starts goes through src/git/run.ts,
// so its environment (LC_ALL=C, no replace objects, no prompt), its disk-error mapping and its limits hold for all.
// The check reads the sources: a call that starts git by name, or a library that starts git itself, anywhere else.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

// spawn('git', …), spawnSync("git", …), execFile(`git`, …), execa('git', …), exec('git …'), execSync('git …')
const SPAWNS_GIT = /\b(?:spawn|spawnSync|execFile|execFileSync|execa|execaSync|exec|execSync)\s*\(\s*['"`]git\b/;
// libraries that start git processes of their own
const GIT_LIBRARY = /(?:from\s+|require\(\s*|import\(\s*)['"](?:simple-git|execa)['"]/;

describe('one module spawns git', () => {
  it('no source but src/git/run.ts starts git, by name or through a library', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      const rel = path.relative(SRC, file);
      if (rel === path.join('git', 'run.ts')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (SPAWNS_GIT.test(line) || GIT_LIBRARY.test(line)) offenders.push(`src/${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('the check sees a direct spawn and a library (it can fail)', () => {
    expect(SPAWNS_GIT.test("const r = spawnSync('git', ['config'], {});")).toBe(true);
    expect(SPAWNS_GIT.test('await execa("git", args)')).toBe(true);
    expect(GIT_LIBRARY.test("import type { SimpleGit } from 'simple-git';")).toBe(true);
    expect(GIT_LIBRARY.test("(require('simple-git') as typeof import('simple-git'))")).toBe(true);
    expect(SPAWNS_GIT.test("spawnSync('gitolite', ['query-rc'])")).toBe(false);
  });
});
