// One trailer parser (issue 35, "one module per shared format"): every reader of a commit's trailers takes git's
// block apart through src/git/trailers.ts. The check reads the sources, in the manner of one-spawner.test.ts: a line
// cut at its colon, a key matched at a line's start, git asked for a parse of its own, anywhere else.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

// the parser, and the module that has git run its own parse (trailers.ts imports no command line)
const PARSERS = [path.join('git', 'trailers.ts'), path.join('git', 'trailer-reads.ts')];

const PATTERNS: Array<[string, RegExp]> = [
  // git's own parse, with its own key matching and unfolding: %(trailers:key=…,valueonly), interpret-trailers --parse
  ['git parses', /%\(trailers:|interpret-trailers['"`]\s*,\s*['"`]--(?:parse|only-trailers)/],
  // a trailer line cut at its colon: line.indexOf(':'), l.split(': ')
  ['a line cut at its colon', /\b(?:line|l)\.(?:indexOf|split)\(\s*['"`]:\s?['"`]\s*\)/],
  // a line tested for a key: l.startsWith(`${KEY}: `)
  ['a key at a line start', /startsWith\(\s*`\$\{[\w.]+\}:/],
  // a regular expression built for `Key: value`: new RegExp(`^${KEY}: (.*)$`, 'm')
  ['a regex built for a key', /RegExp\(\s*`[^`]*\$\{[\w.]+\}:/],
  // a regex literal for one of the tool's keys, or a key looked up in lower case: /claude-session-id\s*:/i, m.get('handoff-pid')
  ['a key in a regex or map', /(?:claude-session-id|handoff-[a-z]+(?:-[a-z]+)*)\\s\*:|\.get\(\s*['"](?:claude-session-id|handoff-[a-z-]+)['"]\s*\)/i],
];

/** Readers left outside, each for its reason (an exact line, so a new one fails). */
const LEFT: Record<string, string> = {
  // the loss record's own module, in another helper's hands (issue 35 brief): its place trailer, one key it writes itself
  'handoff/store/tx/record.ts: const m = new RegExp(`^${PLACE_TRAILER}: (".*")$`, \'m\').exec(message);': 'record',
  // not a reading but the byte-exact check that a rewritten message is its original plus exactly what redact appends
  'handoff/secrets/redact-check.ts: const ADDED = new RegExp(`\\\\n${REDACTED_FROM}: ([0-9a-f]{40,64}) by (\\\\S+)\\\\n(?:${REDACT_REASON}: [^\\\\n]*\\\\n)?$`);': 'redact',
};

function offenders(): string[] {
  const out: string[] = [];
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file);
    if (PARSERS.includes(rel)) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const hit = PATTERNS.find(([, re]) => re.test(line));
        if (hit && !LEFT[`${rel.split(path.sep).join('/')}: ${line.trim()}`]) out.push(`src/${rel}:${i + 1} (${hit[0]}): ${line.trim()}`);
      });
  }
  return out;
}

describe('one trailer parser', () => {
  it('no source but src/git/trailers.ts (and trailer-reads.ts, git\'s own parse) parses trailer lines itself', () => {
    expect(offenders()).toEqual([]);
  });

  it('the check sees each way a reader was written before (it can fail)', () => {
    const seen = (line: string) => PATTERNS.some(([, re]) => re.test(line));
    // the readers this module replaced, as they were
    expect(seen("  const args = ['log', '--format=%H%x00%(trailers)%x00', ...tips];")).toBe(false);
    expect(seen('  const format = `--format=%H%x1f%S%x1f%(trailers:key=${SECRET_TRAILER.scanned},valueonly,separator=%x2C)%x1e`;')).toBe(true);
    expect(seen("  return c.repo.out(['interpret-trailers', '--parse', '--no-divider', file]).split('\\n');")).toBe(true);
    expect(seen("    const i = line.indexOf(':');")).toBe(true);
    expect(seen("    const colon = line.indexOf(': ');")).toBe(true);
    expect(seen('  for (const l of r.trailers) if (l.startsWith(`${MIGRATED_FROM}: `)) out.add(l);')).toBe(true);
    expect(seen('  const m = new RegExp(`^${PLACE_TRAILER}: (".*")$`, \'m\').exec(message);')).toBe(true);
    expect(seen("  return [...new Set(lines.flatMap((l) => /^\\s*claude-session-id\\s*:\\s*([^\\s]+)/i.exec(l)?.[1] ?? []))];")).toBe(true);
    expect(seen("    const session = t.get('claude-session-id');")).toBe(true);
    // and leaves alone what is no trailer reading
    expect(seen("  const dst = (spec: string) => spec.slice(spec.indexOf(':') + 1);")).toBe(false);
    expect(seen("  const i = value.indexOf(':');")).toBe(false);
    expect(seen("    c.repo.out(['interpret-trailers', '--in-place', '--trailer', x, file]);")).toBe(false);
  });
});
