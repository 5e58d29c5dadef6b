// One table of handoff.* settings (issue 35, "one module per shared format"): every reader of a `handoff.<key>`
// setting goes through src/config-keys.ts (`setting`, `parseSetting`, `keyName`), which holds each key's name, type,
// default and doc line. The check reads the sources with TypeScript's parser, in the manner of one-spawner.test.ts: a
// string that is a key's whole name ('handoff.sign', as a Map key or a `git config --get` operand), a key name built
// from pieces (`handoff.${k}`), or a regular expression for one, anywhere but the table fails. A key named inside a
// longer text (a message, help) is not a read: those stay, as do comments.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, keyName, parseSetting, setting } from '../../src/config-keys';

const SRC = path.join(__dirname, '..', '..', 'src');
const TABLE = 'config-keys.ts';
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

// the keys' own names, and those distinctive enough to find in a regular expression without the section
const NAMES = CONFIG_KEYS.map((k) => k.key.slice('handoff.'.length));
const DISTINCT = NAMES.filter((n) => /[A-Z]/.test(n)).map((n) => new RegExp(`(^|[^a-z])${n.toLowerCase()}`));
/** A key's whole name: handoff.<word>, but for the handoff file names (handoff.md, handoff.toml) */
const KEY = /^handoff\.(?!(md|toml|json|c?js|mjs|ts|txt|ya?ml|log|lock)$)[A-Za-z]+$/i;

/** What in a source text reads a handoff.* key past the table: one line each, `file:line: text`. */
export function offenders(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const at = (n: ts.Node, what: string) => out.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${what}`);
  const visit = (n: ts.Node): void => {
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && KEY.test(n.text)) at(n, n.getText(sf));
    else if (ts.isTemplateExpression(n) && /(^|[^\w-])handoff\.$/i.test(n.head.text)) at(n, n.getText(sf).slice(0, 60));
    else if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const re = n.getText(sf).toLowerCase();
      if (/handoff\\?\./.test(re) || DISTINCT.some((d) => d.test(re))) at(n, n.getText(sf).slice(0, 60));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('one table of handoff.* settings', () => {
  it('no source reads a handoff.* key but src/config-keys.ts', () => {
    const found = sources(SRC)
      .filter((f) => path.relative(SRC, f) !== TABLE)
      .flatMap((f) => offenders(path.relative(SRC, f), readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('the check finds each way a key is read past the table', () => {
    const cases = [
      "configValue(c, 'handoff.remote')",
      'c.get("handoff.protect")',
      "repo.git(['config', '--get', `handoff.minFormat`])",
      'const k = `handoff.${name}`;',
      'const m = /^formatversion\\s*=/i.exec(line);',
      'const m = /^handoff\\.sign$/.exec(key);',
    ];
    for (const c of cases) expect(offenders('x.ts', c), c).toHaveLength(1);
    // a key named in a message or a comment is no read
    expect(offenders('x.ts', "// reads handoff.sign\nthrow new Error(`handoff.sign is true but ${x}`); const s = 'set handoff.guard off';")).toEqual([]);
  });

  it('the table types each key and reads values as the readers did', () => {
    const c = (k: string, ...v: string[]) => new Map([[keyName(k as 'sign').toLowerCase(), v]]);
    // bools: git's true and false words; anything else false, but for guard (only a false word turns it off)
    expect([setting(new Map(), 'sign'), setting(c('sign', 'Yes'), 'sign'), setting(c('sign', 'maybe'), 'sign')]).toEqual([false, true, false]);
    expect([setting(new Map(), 'fetchOnStart'), setting(c('fetchOnStart', 'off'), 'fetchOnStart'), setting(c('fetchOnStart', 'x'), 'fetchOnStart')]).toEqual([true, false, false]);
    expect([setting(new Map(), 'guard'), setting(c('guard', ' OFF '), 'guard'), setting(c('guard', 'x'), 'guard'), setting(c('guard', 'no', 'on'), 'guard')]).toEqual([true, false, true, true]);
    expect([setting(new Map(), 'claims'), setting(c('claims', ' Tell'), 'claims'), setting(c('claims', 'refuse'), 'claims')]).toEqual(['enforce', 'tell', 'enforce']);
    expect([setting(new Map(), 'leaseTTL'), setting(c('leaseTTL', '90s'), 'leaseTTL'), setting(c('claimTTL', 'soon'), 'claimTTL')]).toEqual([1_800_000, 90_000, 7_200_000]);
    expect([setting(new Map(), 'protect'), setting(c('protect', 'a/*', 'b/*'), 'protect')]).toEqual([[], ['a/*', 'b/*']]);
    expect([setting(new Map(), 'remote'), setting(c('remote', 'up'), 'remote')]).toEqual([undefined, 'up']);
    expect([parseSetting('minFormat', ['1']), parseSetting('minFormat', ['01']), parseSetting('minFormat', undefined)]).toEqual(['1', '2', '2']);
    expect([parseSetting('formatVersion', [' 3 ']), parseSetting('formatVersion', ['3a']), parseSetting('formatVersion', undefined)]).toEqual([3, null, null]);
    // every key read anywhere in src/ is in the table, claims and claimTTL among them
    expect(NAMES).toEqual(expect.arrayContaining(['claims', 'claimTTL', 'leaseTTL', 'protect', 'autoSync', 'sign', 'remote', 'fetchOnStart', 'guard', 'minFormat', 'formatVersion']));
  });
});
