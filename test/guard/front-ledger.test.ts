// The ledger line, one format (issue 35): the sh front prints its intent line from printf formats generated out of
// src/handoff/state/ledger.ts (ledger_line, ledger_line_gone in its generated block); the front's own printf
// statement, run for a decision, writes the line TypeScript writes for it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRONT_CONSTANTS } from '../../src/guard/front-constants';
import { intentEntry, intentTemplate, ledgerLine } from '../../src/handoff/state/ledger';
import { ROOT, tempDir } from '../helpers/repo';

const FRONT = readFileSync(path.join(ROOT, 'bin', 'git-handoff-guard'), 'utf8').split('\n');
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** What the front's generated constants and its ledger statement append, for these values (as the front holds them). */
function frontLine(v: { now: number; session: string; worktree: string; paths: string[]; gone: string[] }): string {
  const constants = FRONT.find((l) => l.includes('# from src/guard/front-constants.ts'))!;
  const at = FRONT.findIndex((l) => /printf "\$fmt" .*>>"\$ledger"/.test(l));
  expect(at, 'the front appends the ledger line with printf').toBeGreaterThan(0);
  const ledger = path.join(tempDir(), 'ledger.jsonl');
  const list = (xs: string[]) => xs.map((x) => `"${x}"`).join(',');
  const script = [
    constants,
    `now=${v.now} session=${shq(v.session)} worktree=${shq(v.worktree)} paths=${shq(list(v.paths))} gone=${shq(list(v.gone))} ledger=${shq(ledger)}`,
    'full() { exit 9; }',
    FRONT[at - 1],
    FRONT[at],
  ].join('\n');
  const r = spawnSync('sh', ['-c', script], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(ledger, 'utf8');
}

describe('the ledger line, printed by the front from a template of the TypeScript', () => {
  it('the front holds the generated formats', () => {
    expect(FRONT_CONSTANTS.ledger_line).toBe(intentTemplate(false));
    expect(FRONT.join('\n')).toContain(`ledger_line='${intentTemplate(false)}'`);
    expect(FRONT.join('\n')).toContain(`ledger_line_gone='${intentTemplate(true)}'`);
  });

  for (const [name, gone] of [['a write to files that exist', []], ['a write that makes new files', ['src/new.ts', 'b c.md']]] as Array<[string, string[]]>) {
    it(`${name}: the front's line and TypeScript's parse alike, byte for byte`, () => {
      const v = { now: 1_700_000_000_123, session: 'sess-1_a', worktree: '/tmp/w x/repo', paths: ['src/app.ts', 'b c.md', 'src/new.ts'], gone };
      const ts = ledgerLine(intentEntry(v.now, v.session, v.worktree, v.paths, v.gone));
      const sh = frontLine(v);
      expect(JSON.parse(sh)).toEqual(JSON.parse(ts));
      expect(sh).toBe(ts);
    });
  }
});
