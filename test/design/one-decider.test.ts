// One place decides (issue 71): a tool call's verdict — the `Decision` type (src/clients/event.ts), a refusal built as
// `{ deny: … }`, the fail-closed refusal (`failClosed`) — is made only by the decider (entry.ts's decide, the rules, the
// claims and the lifecycle it runs) and rendered by the client adapters. The first look, the fronts and everything else
// hand the rules' verdict on, never build one. The check reads the sources.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

/** The decider's own modules (a folder ends with `/`). */
const DECIDER = ['guard/entry.ts', 'guard/rules/', 'guard/claims.ts', 'guard/lifecycle.ts', 'guard/fail-closed.ts'];
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
