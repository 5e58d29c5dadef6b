// One record per client (issue 52): what git-handoff relies on about a client (where it reads hooks and keeps its
// trust, the variables that move its folders or carry its session, its tools' names) is stated in its record under
// src/clients/ (and the vocabulary, src/clients/names.ts), and read from there everywhere else. The check reads the
// sources with TypeScript's parser, as one-config-table.test.ts does: a string literal (or a template's text) that
// holds a client's file path, is one of its folders, variables or tool names, or a property read of a variable
// (`env.CODEX_HOME`), anywhere else fails. Comments and messages naming a client (not a fact) stay.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SESSION_VARS } from '../../src/clients/names';
import { ALL_RECORDS } from '../../src/clients/records';

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
const OWN = (f: string) => f.startsWith(path.join(SRC, 'clients') + path.sep);

const HOMES = new Map(ALL_RECORDS.flatMap((r) => (r.home ? [[r.home.variable, r.home.dir] as const] : [])));
/** Each path a record names, as it appears in text: `$VAR/x` as `<its folder>/x` (`.codex/config.toml`). */
const PATHS = [...new Set(ALL_RECORDS.flatMap((r) => [...r.hookFiles, ...r.trustFiles, ...(r.hookDirs ?? []), ...(r.pluginDirs ?? [])]).map((p) => p.file.replace(/^\$([A-Z_]+)/, (_, v: string) => HOMES.get(v) ?? v)))];
/** File names of those paths distinctive on their own (`trustedFolders.json`; not `settings.json`, nor Cline's hook files named after events). */
const NAMES = new Set(PATHS.map((p) => path.basename(p)).filter((n) => /[A-Z]/.test(n) && n.includes('.')));
/** A client's own folders, whole (`.claude`, `.gemini`, `.copilot`). */
const FOLDERS = new Set(PATHS.map((p) => p.split('/')[0]).filter((d) => d.startsWith('.') && d !== '.config' && d !== '.github'));
const VARIABLES = new Set([...HOMES.keys()].filter((v) => v !== 'XDG_CONFIG_HOME').concat(SESSION_VARS.map(([v]) => v)));
/** Tool names distinctive enough not to be a word of something else: an upper-case letter or an underscore. */
const TOOLS = new Set(ALL_RECORDS.flatMap((r) => [...r.readOnly, ...Object.keys(r.front?.tools ?? {})]).filter((t) => /[A-Z_]/.test(t)));

export function offenders(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const at = (n: ts.Node, what: string) => out.push(`${path.relative(SRC, file)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${what}`);
  const fact = (s: string): string | null =>
    PATHS.find((p) => s.includes(p)) ?? [...NAMES].find((n) => s.includes(n)) ?? (FOLDERS.has(s) ? s : null) ?? (VARIABLES.has(s) ? s : null) ?? [...VARIABLES].find((v) => s.includes(`$${v}`) || s.includes(`\${${v}`)) ?? (TOOLS.has(s) ? s : null);
  const visit = (n: ts.Node): void => {
    const texts = ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) ? [n.text] : ts.isTemplateExpression(n) ? [n.head.text, ...n.templateSpans.map((s) => s.literal.text)] : [];
    for (const t of texts) {
      const f = fact(t);
      if (f) at(n, f);
    }
    if (ts.isPropertyAccessExpression(n) && VARIABLES.has(n.name.text)) at(n, n.getText(sf));
    if (!ts.isTemplateExpression(n)) ts.forEachChild(n, visit);
    else n.templateSpans.forEach((s) => visit(s.expression));
  };
  visit(sf);
  return out;
}

describe('a client fact has one home: its record', () => {
  it('no client file path, folder, variable or tool name is stated outside src/clients/', () => {
    const found = sources(SRC).filter((f) => !OWN(f)).flatMap((f) => offenders(f, readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it("docs/clients.md states each client's read-only tools as its record has them", () => {
    const doc = readFileSync(path.join(SRC, '..', 'docs', 'clients.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## Every call is seen'), doc.indexOf('## Each client in one table'));
    // VS Code's long list is named by its file
    // Windsurf's hooks are per kind of action: no tool list
    for (const r of ALL_RECORDS.filter((x) => x.name !== 'vscode' && x.readOnly.length)) {
      const row = table.split('\n').find((l) => l.startsWith('| ') && l.includes(r.readOnly[0]) && l.toLowerCase().includes(r.name.split('-')[0]))!;
      expect(row, r.name).toBeDefined();
      const listed = /\| `([^`]*)` \|/.exec(row.split(' | ').slice(2).join(' | ').replace(/^/, '| '))?.[1].split(' ');
      expect(new Set(listed), r.name).toEqual(new Set(r.readOnly));
    }
  });

  it("docs/clients.md names each client's MCP tools and session variable as its record has them", () => {
    const doc = readFileSync(path.join(SRC, '..', 'docs', 'clients.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## Every call is seen'), doc.indexOf('## Each client in one table'));
    for (const r of ALL_RECORDS) {
      // each client's row starts with its name's first word (Claude Code's, Cursor's, …), its MCP names in a cell of their own
      const rows = table.split('\n').filter((l) => l.startsWith('| ') && l.toLowerCase().includes(r.name.split('-')[0]));
      expect(rows.some((row) => row.includes(`| \`${r.mcpNames}\``)), r.name).toBe(true);
      if (r.sessionVar) expect(doc, r.name).toContain(`\`${r.sessionVar}\``);
    }
  });

  it('finds each kind of fact where it is stated (the check can fail)', () => {
    expect(offenders(path.join(SRC, 'x.ts'), "const f = path.join(home, '.gemini', 'trustedFolders.json');")).toHaveLength(2);
    expect(offenders(path.join(SRC, 'x.ts'), 'const d = env.CODEX_HOME || `${home}/.codex/config.toml`;')).toHaveLength(2);
    expect(offenders(path.join(SRC, 'x.ts'), "if (tool === 'run_shell_command' || tool === 'Bash') run();")).toHaveLength(2);
    expect(offenders(path.join(SRC, 'x.ts'), "const s = process.env['CLAUDE_CODE_SESSION_ID'];")).toHaveLength(1);
    expect(offenders(path.join(SRC, 'x.ts'), "// .claude/settings.json in a comment\nconst m = 'a message about Claude Code';")).toEqual([]);
  });
});
