// docs/design.md checked against the tree: every path it names exists, every function its table "Where each rule is
// decided" names is exported by the file beside it, and the bounds and limits it states are the sources'. No count
// of modules, lines, bytes or processes is pinned: those are measurements, and they move with every change.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_TIMEOUT_S } from '../../src/clients/wiring';
import { DECISION_MS, MAX_ALTERNATIVES, MAX_DEPTH, MAX_ENTRIES } from '../../src/guard/rules/reach';
import { BODY_MAX } from '../../src/handoff/store/document';
import { LOCK_WAIT_MS, LOST_RACE } from '../../src/retry';
import { START_FETCH_MS } from '../../src/sync/start-fetch';

const ROOT = path.join(__dirname, '..', '..');
const DESIGN = readFileSync(path.join(ROOT, 'docs', 'design.md'), 'utf8');
const SPEC = readFileSync(path.join(ROOT, 'docs', 'SPEC.md'), 'utf8');
const source = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
/** design.md's prose on one line: a phrase may break anywhere. */
const PROSE = DESIGN.replace(/\s+/g, ' ');

const WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const num = (s: string) => (s in WORDS ? WORDS[s] : Number(s.replace(/,/g, '')));

/** The number `re`'s first group captures in design.md; fails when the phrase is gone. */
function stated(re: RegExp): number {
  const m = re.exec(PROSE);
  if (!m) throw new Error(`docs/design.md no longer says ${re}`);
  return num(m[1]);
}

/** The rows of the table under "## Where each rule is decided". */
function ruleTable(): Array<{ rule: string; file: string; name: string; spec: string; tests: string[] }> {
  const start = DESIGN.indexOf('\n## Where each rule is decided\n');
  expect(start).toBeGreaterThan(-1);
  const section = DESIGN.slice(start + 1, DESIGN.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Rule ') && !l.startsWith('| ---'));
  return rows.map((row) => {
    const cells = row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    expect(cells, row).toHaveLength(4);
    const decided = /^`([^`]+)` `([A-Za-z_$][\w$]*)`$/.exec(cells[1]);
    if (!decided) throw new Error(`not "\`file\` \`function\`": ${cells[1]}`);
    const tests = [...cells[3].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    return { rule: cells[0], file: decided[1], name: decided[2], spec: cells[2], tests };
  });
}

/** Whether `file` exports `name` (a TypeScript export), or defines it (a sh function). */
function defines(file: string, name: string): boolean {
  const text = source(file);
  if (!file.endsWith('.ts')) return new RegExp(`^${name}\\(\\)`, 'm').test(text);
  const declared = new RegExp(`^export (?:async )?(?:function\\*?|const|let|class|interface|type|enum|abstract class) ${name}\\b`, 'm');
  const listed = [...text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].some((m) => m[1].split(',').some((n) => n.trim().split(/\s+as\s+/).pop() === name));
  return declared.test(text) || listed;
}

describe('docs/design.md', () => {
  it('names only paths that exist', () => {
    const named = new Set([...DESIGN.matchAll(/`((?:src|test|bin|git-hooks|scripts|bench)\/[^`\s]*)`/g)].map((m) => m[1]));
    expect(named.size).toBeGreaterThan(50);
    const missing = [...named].filter((p) => !/[<*]/.test(p) && !existsSync(path.join(ROOT, p.replace(/\/$/, ''))));
    expect(missing).toEqual([]);
  });

  it('"Where each rule is decided": one file and one function it exports a row, a SPEC section, a test that exists', () => {
    const rows = ruleTable();
    expect(rows.length).toBeGreaterThan(40);
    const sections = new Set([...SPEC.matchAll(/^#{2,3} (\d+a?)\. /gm)].map((m) => m[1]));
    for (const r of rows) {
      expect(existsSync(path.join(ROOT, r.file)), r.file).toBe(true);
      expect(defines(r.file, r.name), `${r.name} in ${r.file}`).toBe(true);
      expect(sections.has(r.spec), `SPEC ${r.spec} (${r.rule})`).toBe(true);
      expect(r.tests.length, r.rule).toBeGreaterThan(0);
      for (const t of r.tests) expect(existsSync(path.join(ROOT, t)) && /^test\/.*\.test\.ts$/.test(t), t).toBe(true);
    }
    // every rule module of the guard has its row
    const rules = readdirSync(path.join(ROOT, 'src/guard/rules')).filter((f) => f.endsWith('.ts'));
    const inTable = new Set(rows.map((r) => r.file));
    expect(rules.filter((f) => !inTable.has(`src/guard/rules/${f}`))).toEqual([]);
  });

  it('states the bounds and limits the sources hold', () => {
    expect(stated(/past ([\d,]+) brace alternatives/)).toBe(MAX_ALTERNATIVES);
    expect(stated(/([\d,]+) directory entries/)).toBe(MAX_ENTRIES);
    expect(stated(/entries, (\d+) levels/)).toBe(MAX_DEPTH);
    expect(stated(/time budget \((\d+) s/) * 1000).toBe(DECISION_MS);
    expect(stated(/wires times out at (\d+) s/)).toBe(HOOK_TIMEOUT_S);
    expect(stated(/until that lock file is (\d+) s old/) * 1000).toBe(LOCK_WAIT_MS);
    expect(stated(/(\d+) lost races in a row/)).toBe(LOST_RACE.attempts);
    expect(stated(/up to (\d+) attempts with jitter/)).toBe(LOST_RACE.attempts);
    expect(stated(/at (\d+) s the whole group/) * 1000).toBe(START_FETCH_MS);
    expect(stated(/`-F` at most (\d+) MiB \+ 1 byte/) * 1024 * 1024).toBe(BODY_MAX);
    // a batch of more than N moves is staged: STAGE_FROM is the first staged size
    const stageFrom = Number(/const STAGE_FROM = (\d+);/.exec(source('src/sync/push.ts'))![1]);
    expect(stated(/a batch of more than (\d+) moves/)).toBe(stageFrom - 1);
    const depth = Number(/const MAX_DEPTH = (\d+);/.exec(source('src/guard/shell/command.ts'))![1]);
    expect(stated(/parseShell hands it \((\w+) deep/)).toBe(depth);
    const cases = /export type MergeCase = ([^;]+);/.exec(source('src/sync/fetch.ts'))![1].split('|');
    expect(stated(/the (\w+) merge cases/)).toBe(cases.length);
    const symbols = source('src/git/storage.ts').match(/^export const \w+: unique symbol/gm) ?? [];
    expect(stated(/keyed by (\w+) symbols/)).toBe(symbols.length);
  });
});
