// The port is the only way to git: outside src/git/ no code hands git a command line (`repo.git([...])`,
// `repo.out([...])`, or run.ts's git, gitBytes, gitBounded); it asks the storage port (src/git/storage.ts).
// The check reads the sources. The calls that remain are listed by file, each with the git command it runs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

// `x.git(`, `x.out(` (not the regex text `\.git(`), and a call of run.ts's functions by their own name
const RAW_GIT = /\.(?:git|out)\((?!\\)|(?:^|[\s(!=,?:])(?:git|gitBytes|gitBounded)\(/;
const comment = (line: string) => /^\s*(?:\/\/|\/?\*)/.test(line);

/** The raw git calls that remain outside src/git/, by file: the git command of each. */
const REMAINING: Record<string, string[]> = {
  'cli/commands/diff.ts': ['diff (the user-facing diff of two versions)'],
  'cli/editor.ts': ['var GIT_EDITOR'],
  'cli/output.ts': ['config --get color.ui'],
  'cli/pager.ts': ['var GIT_PAGER'],
  'guard/rules/git-files.ts': ['ls-files (names)'],
  'guard/rules/pre-tool.ts': ['config --get-regexp remote urls', 'the switched wiring reader', 'status --porcelain', 'config --get-all core.hooksPath'],
  'guard/rules/rewrite.ts': ['rev-parse --verify', 'rev-list --max-count'],
  'guard/rules/shared.ts': ['status --porcelain'],
  'guard/rules/untracked.ts': ['ls-files of the untracked'],
  'hooks/commit.ts': ['interpret-trailers --in-place'],
};

function rawCalls(): Record<string, number> {
  const found: Record<string, number> = {};
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file);
    if (rel.startsWith(`git${path.sep}`)) continue;
    const n = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !comment(line) && RAW_GIT.test(line)).length;
    if (n) found[rel] = n;
  }
  return found;
}

describe('the storage port is the only way to git', () => {
  it('outside src/git/, only the listed calls give git a command line', () => {
    const listed = Object.fromEntries(Object.entries(REMAINING).map(([file, calls]) => [file, calls.length]));
    expect(rawCalls()).toEqual(listed);
  });

  it('the check sees a raw call and leaves a port call and a regex alone (it can fail)', () => {
    expect(RAW_GIT.test("const r = repo.git(['log'], { allowFail: true });")).toBe(true);
    expect(RAW_GIT.test("return c.repo.out(['rev-list', 'HEAD']);")).toBe(true);
    expect(RAW_GIT.test("const r = await gitBounded(['fetch'], o);")).toBe(true);
    expect(RAW_GIT.test("const r = git(['var', 'GIT_PAGER']);")).toBe(true);
    expect(RAW_GIT.test('if (repo.isAncestor(a, b)) continue;')).toBe(false);
    expect(RAW_GIT.test('return /(^|\\/)\\.git(\\/|$)/.test(abs);')).toBe(false);
    expect(RAW_GIT.test("if (!/^git(-|$)/.test(name)) continue;")).toBe(false);
  });
});
