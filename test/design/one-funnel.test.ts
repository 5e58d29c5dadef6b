// One funnel for writes (issue 35): objects are written only by src/git (repo.ts, loose.ts) and refs move only
// through the store's transaction module (src/handoff/store/tx). src/handoff/ holds the storage port alone, which
// has no command line and whose keys to write a commit and move refs only tx imports (test/design/layers.test.ts,
// "the storage port"): that is checked by the type system and the imports. The rooms that still hold git's command
// line (cli, sync, hooks, guard, …) are read here, in the manner of one-spawner.test.ts: no argument list naming an
// object-writing or ref-moving verb.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

/** Where writes may be spawned: git's own modules; src/handoff/ holds no command line at all (the storage port). */
const FUNNEL = [path.join('git') + path.sep, path.join('handoff') + path.sep];

// a git argument list naming a verb that writes objects or moves refs: repo.out(['mktree', …]), ['-c', x, "update-ref"
const WRITES = /\[[^\]]*['"`](hash-object|mktree|commit-tree|mktag|write-tree|update-ref|symbolic-ref)['"`]/;

/** Every line of src outside the funnel that spawns a writing verb. */
function offenders(): string[] {
  const out: string[] = [];
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file);
    if (FUNNEL.some((f) => rel.startsWith(f))) continue;
    const text = readFileSync(file, 'utf8');
    text.split('\n').forEach((line, i) => {
      if (WRITES.test(line)) out.push(`src/${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  return out;
}

describe('one funnel for object writes and ref moves', () => {
  it('no source holding git\'s command line outside src/git writes an object or moves a ref itself', () => {
    expect(offenders()).toEqual([]);
  });

  it('the check sees each way (it can fail)', () => {
    for (const verb of ['hash-object', 'mktree', 'commit-tree', 'mktag', 'write-tree', 'update-ref', 'symbolic-ref']) expect(WRITES.test(`repo.out(['${verb}', '-w'])`), verb).toBe(true);
    expect(WRITES.test('repo.git([ "update-ref", "--stdin" ])')).toBe(true);
    expect(WRITES.test("repo.git(['-c', `core.filesRefLockTimeout=${MS}`, 'update-ref', '-m', reason])")).toBe(true);
    expect(WRITES.test("case 'update-ref':")).toBe(false);
    expect(WRITES.test("repo.out(['cat-file', '-p'])")).toBe(false);
  });
});
