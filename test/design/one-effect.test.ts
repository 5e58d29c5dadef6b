// One reading of what a call writes (issue 70, SPEC 10): the protected-file rules read the call (src/guard/rules/pre-tool.ts)
// and record its effect (src/guard/effect.ts); claims and the ledger read that record. The check reads the sources:
// the target extractors are used only by the reader and the effect, and the effect's readers read no call themselves.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

/** Each extractor of written paths, by the module that defines it. */
const EXTRACTORS: Record<string, string[]> = {
  'guard/shell/writes.ts': ['writeTargets'],
  'guard/rules/files.ts': ['parsePatch'],
  'guard/rules/interpreter-writes.ts': ['interpreterWrites'],
  'guard/rules/writers.ts': ['extractTargets', 'linkSources', 'unknownWriterTargets'],
  'guard/rules/patch-files.ts': ['patchTargets'],
  'guard/rules/git-files.ts': ['gitFileTargets'],
};
/** Who may use them: the rules' reading of the call, the effect (a file tool's operations), and a `git apply` patch file's reader. */
const READERS = ['guard/rules/pre-tool.ts', 'guard/effect.ts', 'guard/rules/patch-files.ts'];
/** The effect's readers: they take paths from it and read no call themselves (no shell reader, no rule module). */
const EFFECT_READERS = ['guard/claims.ts', 'guard/lifecycle.ts'];

const NAMES = new RegExp(`\\b(${Object.values(EXTRACTORS).flat().join('|')})\\b`);
const READS_A_CALL = /(?:from\s+|import\(\s*)['"]\.\/(?:shell|rules)\//;

/** Lines of `text` (file `rel`, under src/) that use an extractor where it may not be used. */
function extractorUses(rel: string, text: string): string[] {
  if (READERS.includes(rel)) return [];
  const own = EXTRACTORS[rel] ?? [];
  return text
    .split('\n')
    .map((line, i) => [line, i] as const)
    .filter(([line]) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .filter(([line]) => {
      const m = line.match(new RegExp(NAMES.source, 'g')) ?? [];
      return m.some((n) => !own.includes(n));
    })
    .map(([line, i]) => `src/${rel}:${i + 1}: ${line.trim()}`);
}

describe('one reading of what a call writes', () => {
  it('only the rules and the effect use the extractors; claims and the ledger read the effect', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      const text = readFileSync(file, 'utf8');
      offenders.push(...extractorUses(rel, text));
      if (EFFECT_READERS.includes(rel)) {
        if (!/import \{[^}]*\beffect(Of|ByRepo)\b[^}]*\} from '\.\/effect'/.test(text)) offenders.push(`src/${rel}: does not read the effect`);
        text.split('\n').forEach((line, i) => READS_A_CALL.test(line) && offenders.push(`src/${rel}:${i + 1}: ${line.trim()}`));
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the check sees a second extractor (it can fail)', () => {
    expect(extractorUses('guard/claims.ts', "import { writeTargets } from './shell/writes';")).toHaveLength(1);
    expect(extractorUses('guard/lifecycle.ts', '  return parsePatch(a.patch).flatMap((f) => [f.path]);')).toHaveLength(1);
    expect(extractorUses('guard/rules/writers.ts', 'export function linkSources(cmd: SimpleCommand): WriteTarget[] {')).toEqual([]);
    expect(extractorUses('guard/rules/pre-tool.ts', "import { writeTargets } from '../shell/writes';")).toEqual([]);
    expect(READS_A_CALL.test("import { parseShell } from './shell/parse';")).toBe(true);
    expect(READS_A_CALL.test("const { x } = await import('./rules/files');")).toBe(true);
  });
});
