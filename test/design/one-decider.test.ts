// One place decides (issue 71): a tool call's verdict — the `Decision` type (src/clients/event.ts), a refusal built as
// `{ deny: … }`, the fail-closed refusal (`failClosed`) — is made only by the decider (entry.ts's decide, decider.ts, the rules,
// the claims and the lifecycle it runs) and rendered by the client adapters. The first look, the fronts and everything else
// hand the rules' verdict on, never build one. And the decider writes nothing (src/guard/decider.ts): the state a
// verdict leaves is handed back as effects the adapter applies once the verdict stands. The checks read the sources.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

/** The decider's own modules (a folder ends with `/`). */
const DECIDER = ['guard/entry.ts', 'guard/decider.ts', 'guard/rules/', 'guard/claims.ts', 'guard/lifecycle.ts', 'guard/fail-closed.ts'];
/** Its adapters: each client's, which defines the verdict's shape and renders it. */
const ADAPTERS = ['clients/'];

/** An import of the verdict type or of the fail-closed refusal; a refusal built as an object. */
const IMPORTS_VERDICT = /import\s[^;]*\b(Decision|failClosed)\b[^;]*from\s+'[^']*(clients\/event|fail-closed)'/g;
const BUILDS_DENY = /[{,]\s*deny\s*:/;

const allowed = (rel: string) => [...DECIDER, ...ADAPTERS].some((m) => (m.endsWith('/') ? rel.startsWith(m) : rel === m));

/** Where `text` (file `rel`, under src/) makes a verdict though it is not the decider's nor an adapter's. */
function verdictsMade(rel: string, text: string): string[] {
  if (allowed(rel)) return [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = [...code.matchAll(IMPORTS_VERDICT)].map((m) => `src/${rel}: ${m[0].replace(/\s+/g, ' ')}`);
  code.split('\n').forEach((line) => BUILDS_DENY.test(line) && found.push(`src/${rel}: ${line.trim()}`));
  return found;
}

describe('one place decides', () => {
  it('only the decider and the client adapters make an allow or refuse verdict', () => {
    const offenders = sources(SRC).flatMap((file) => verdictsMade(path.relative(SRC, file).split(path.sep).join('/'), readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the check sees a verdict made elsewhere (it can fail)', () => {
    expect(verdictsMade('guard/first.ts', "  return { answer: adapter.render(event, { deny: refused }), tag: 'refused' };")).toHaveLength(1);
    expect(verdictsMade('guard/first.ts', "import type { Decision } from '../clients/event';")).toHaveLength(1);
    expect(verdictsMade('hooks/commit.ts', "import {\n  errorLine,\n  failClosed,\n} from '../guard/fail-closed';")).toHaveLength(1);
    expect(verdictsMade('guard/first.ts', '// a refusal is { deny: why }, built by the rules')).toEqual([]);
    expect(verdictsMade('guard/rules/refs.ts', "  return problem === null ? null : { deny: stripTerminalControls(problem) };")).toEqual([]);
    expect(verdictsMade('clients/claude.ts', "import { type Decision } from './event';")).toEqual([]);
  });
});

/** Every relative import of a file of src/ (static, `import()`, `require()`): the module it names and the names it brings. */
function importsOf(rel: string): Array<{ to: string; names: string[] }> {
  const text = readFileSync(path.join(SRC, rel), 'utf8');
  const out: Array<{ to: string; names: string[] }> = [];
  const at = (spec: string) => path.relative(SRC, path.resolve(SRC, path.dirname(rel), spec)).split(path.sep).join('/') + '.ts';
  for (const m of text.matchAll(/^import\s+(type\s+)?([^;]*?)\s+from\s+'(\.[^']+)'/gm)) {
    if (m[1]) continue; // a type erases to nothing
    const names = /\{([^}]*)\}/.exec(m[2])?.[1].split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]) ?? [];
    out.push({ to: at(m[3]), names });
  }
  for (const m of text.matchAll(/(?:import|require)\(\s*'(\.[^']+)'\s*\)/g)) {
    // `const { a, b } = await import('./x')`: the names destructured in front of it
    const before = text.slice(Math.max(0, m.index! - 300), m.index);
    const names = /\{([^{}]*)\}\s*=\s*(?:await\s*)?$/.exec(before)?.[1].split(',').map((n) => n.trim().split(/\s*:\s*/)[0]).filter(Boolean) ?? ['*'];
    out.push({ to: at(m[1]), names });
  }
  return out;
}

/** Top-level functions of a file, by name, with their text (up to the next top-level declaration). */
function topLevel(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const starts = [...text.matchAll(/^(?:export\s+)?(?:async\s+)?(?:function\*?\s+(\w+)|const\s+(\w+)\s*=)/gm)];
  starts.forEach((m, i) => out.set(m[1] ?? m[2], text.slice(m.index, starts[i + 1]?.index)));
  return out;
}

/** A write to the filesystem, or a ref moved (the store's one place refs move: handoff/store/tx). */
const WRITES = /\b(writeFileSync|appendFileSync|rmSync|unlinkSync|renameSync|mkdirSync|lutimesSync|utimesSync|writeSync|symlinkSync|linkSync|copyFileSync|moveRefs?|setLocalConfig|pushBounded|pushRefs)\b/;

/** The state writers of src/handoff/: each function that writes, or calls one that does, by module. */
function stateWriters(): Map<string, Set<string>> {
  const fns = sources(path.join(SRC, 'handoff')).flatMap((file) => [...topLevel(readFileSync(file, 'utf8'))].map(([name, body]) => ({ file: path.relative(SRC, file).split(path.sep).join('/'), name, body })));
  const writers = new Set(fns.filter((f) => WRITES.test(f.body)).map((f) => f.name));
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of fns) {
      // a local record (state-file's localRecord) writes through its methods
      if (writers.has(f.name) || ![...writers].some((w) => new RegExp(`\\b${w}(\\.(write|append|cache))?\\(`).test(f.body))) continue;
      writers.add(f.name);
      grew = true;
    }
  }
  const out = new Map<string, Set<string>>();
  for (const f of fns) if (writers.has(f.name)) out.set(f.file, (out.get(f.file) ?? new Set()).add(f.name));
  return out;
}

/** The decider's modules: src/guard/ files the decider reaches through its imports. */
function deciderPath(start = 'guard/decider.ts'): string[] {
  const seen = new Set([start]);
  for (const rel of seen) for (const { to } of importsOf(rel)) if (to.startsWith('guard/')) seen.add(to);
  return [...seen];
}

/** The writes a module on the decider's path may make: caches of what git answered (and their key), and the guard's log; no state. */
const CACHES: Record<string, string[]> = {
  'guard/locate.ts': ['writeState', 'appendState', 'userMac'],
};

/** Where module `rel` imports a state writer (`writers`: by module) it may not. */
function writersImported(rel: string, imports: Array<{ to: string; names: string[] }>, writers: Map<string, Set<string>>): string[] {
  return imports.flatMap(({ to, names }) => names.filter((n) => (n === '*' ? writers.has(to) : writers.get(to)?.has(n)) && !CACHES[rel]?.includes(n)).map((n) => `src/${rel}: ${n} from src/${to}`));
}

describe('the decider writes nothing', () => {
  const writers = stateWriters();

  it('no module on the path of a decision imports a state writer (the adapter applies the effects)', () => {
    const reached = deciderPath();
    expect(reached).toEqual(expect.arrayContaining(['guard/decider.ts', 'guard/claims.ts', 'guard/rules/pre-tool.ts', 'guard/interactive.ts', 'guard/perimeter.ts']));
    expect(reached).not.toContain('guard/lifecycle.ts');
    expect(reached.flatMap((rel) => writersImported(rel, importsOf(rel), writers))).toEqual([]);
  });

  it('finds the writers, and the check sees one imported (it can fail)', () => {
    for (const [file, name] of [['handoff/state/ledger.ts', 'recordIntents'], ['handoff/state/notes.ts', 'leaveNote'], ['handoff/state/lineage-record.ts', 'claimRecord'], ['handoff/store/leases.ts', 'touchLease'], ['handoff/claims/claims.ts', 'changeClaims'], ['handoff/store/lineage.ts', 'noteArrival']]) {
      expect(writers.get(file)).toContain(name);
    }
    expect(writers.get('handoff/state/lineage-record.ts')).not.toContain('isKnownSession');
    expect(writersImported('guard/claims.ts', [{ to: 'handoff/state/notes.ts', names: ['leaveNote'] }], writers)).toHaveLength(1);
    expect(writersImported('guard/claims.ts', [{ to: 'handoff/claims/claims.ts', names: ['*'] }], writers)).toHaveLength(1);
    expect(writersImported('guard/claims.ts', [{ to: 'handoff/state/claims-marker.ts', names: ['readMarker'] }], writers)).toEqual([]);
    expect(importsOf('guard/entry.ts').map((i) => i.to)).toContain('guard/lifecycle.ts');
  });
});
