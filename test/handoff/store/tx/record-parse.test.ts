// The record's one reader (parseRecord, record.ts) parses by hand, for speed: it must accept exactly the lines the
// regex of its format accepts, and take the same values from them. The regex is the oracle here, over valid
// records, every kind of damaged line, and random mutations of both.
import { describe, expect, it } from 'vitest';
import { isRecorded, parseRecord, type RecordState } from '../../../../src/handoff/store/tx/record';
import { isHandoffName, isValidTopic, parseRef } from '../../../../src/handoff/store/names';

const HEADER = 'git-handoff record 1';

/** The format as a regex, line by line (what parseRecord read before it was written by hand). */
function oracle(text: string, commit: string, hexLength: number): RecordState {
  const empty = (problem?: string): RecordState => ({ commit, entries: new Map(), removed: new Map(), ...(problem ? { problem } : {}) });
  const lines = text.split('\n');
  if (lines[0] !== HEADER) return empty('header');
  const rec = empty();
  const re = new RegExp(`^(tip|archived|removed) ([0-9a-f]{${hexLength}}) (\\d{1,12}) (refs\\/\\S+)$`);
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '' && i === lines.length - 1) break;
    const m = re.exec(lines[i]);
    if (!m || !isRecorded(m[4])) return empty(`line ${i + 1}`);
    if (m[1] === 'tip') rec.entries.set(m[4], { oid: m[2], seen: Number(m[3]) });
    else rec.removed.set(m[4], { oid: m[2], at: Number(m[3]), why: m[1] as 'archived' | 'removed' });
  }
  return rec;
}

const same = (text: string, hexLength = 40) => {
  const a = parseRecord(text, 'c'.repeat(40), hexLength);
  const b = oracle(text, 'c'.repeat(40), hexLength);
  expect(!!a.problem, JSON.stringify(text.slice(0, 300))).toBe(!!b.problem);
  if (b.problem) expect(a.problem).toContain(b.problem.startsWith('line') ? `${b.problem} of the record` : 'does not start with');
  expect([...a.entries], JSON.stringify(text.slice(0, 300))).toEqual([...b.entries]);
  expect([...a.removed]).toEqual([...b.removed]);
};

const oid = (n: number, len = 40) => (n.toString(16).padStart(8, '0').repeat(8)).slice(0, len);
const valid = [
  `tip ${oid(1)} 1763800000 refs/handoffs/main/auth-refactor`,
  `tip ${oid(2)} 0 refs/handoffs/feature%2Flogin/login-redirect-loop`,
  `archived ${oid(3)} 999999999999 refs/handoff-archive/main/old-notes/1763800000-${oid(3).slice(0, 12)}`,
  `removed ${oid(4)} 12 refs/handoffs/main/scratch-notes`,
  `tip ${oid(5)} 1763800001 refs/notes/handoff-reads`,
];
const damaged = [
  '',
  ' ',
  `tip ${oid(1)} 1763800000 refs/handoffs/main/auth-refactor `,
  `tip  ${oid(1)} 1763800000 refs/handoffs/main/auth-refactor`,
  `tip ${oid(1).toUpperCase()} 1763800000 refs/handoffs/main/auth-refactor`,
  `tip ${oid(1).slice(1)} 1763800000 refs/handoffs/main/auth-refactor`,
  `tip ${oid(1)}0 1763800000 refs/handoffs/main/auth-refactor`,
  `tip ${oid(1)} 1763800000000 refs/handoffs/main/auth-refactor`,
  `tip ${oid(1)}  refs/handoffs/main/auth-refactor`,
  `tip ${oid(1)} 17x3 refs/handoffs/main/auth-refactor`,
  `tip ${oid(1)} -1 refs/handoffs/main/auth-refactor`,
  `tip ${oid(1)} 1763800000 refs/`,
  `tip ${oid(1)} 1763800000 refs/heads/main`,
  `tip ${oid(1)} 1763800000 refs/handoffs/main/Not-A-Topic`,
  `tip ${oid(1)} 1763800000 refs/handoffs/main/auth-refactor/extra`,
  `tip ${oid(1)} 1763800000 refs/handoffs/auth-refactor`,
  `tip ${oid(1)} 1763800000 refs/handoffs//auth-refactor`,
  `tip ${oid(1)} 1763800000 refs/handoff-archive/main/old-notes`,
  `tip ${oid(1)} 1763800000 refs/handoffs/main/auth-refactor\r`,
  `tip ${oid(1)} 1763800000 refs/handoffs/ma\u00a0in/auth-refactor`,
  `tip ${oid(1)} 1763800000 refs/handoffs/ma\u2028in/auth-refactor`,
  `tip ${oid(1)} 1763800000 refs/handoffs/ma\ufeffin/auth-refactor`,
  `tip ${oid(1)} 1763800000 refs/handoffs/ma\tin/auth-refactor`,
  `Tip ${oid(1)} 1763800000 refs/handoffs/main/auth-refactor`,
  `kept ${oid(1)} 1763800000 refs/handoffs/main/auth-refactor`,
  `tip ${oid(1)} 1763800000`,
  `tip ${oid(1)}`,
  'tip',
];

describe('the record reader', () => {
  it('reads what the format regex reads, and refuses what it refuses, line for line', () => {
    same(`${HEADER}\n${valid.join('\n')}\n`);
    same(`${HEADER}\n${valid.join('\n')}`);
    same(HEADER);
    same(`${HEADER}\n`);
    same(`${HEADER} \n`);
    same(`git-handoff record 2\n${valid[0]}\n`);
    same(`\n${HEADER}\n`);
    for (const d of damaged) {
      same(`${HEADER}\n${valid[0]}\n${d}\n${valid[1]}\n`);
      same(`${HEADER}\n${d}`);
    }
    // sha256: 64 hex digits, and a sha1 oid refused there
    same(`${HEADER}\ntip ${oid(7, 64)} 1 refs/handoffs/main/auth-refactor\n`, 64);
    same(`${HEADER}\ntip ${oid(7)} 1 refs/handoffs/main/auth-refactor\n`, 64);
  });

  it('agrees with the regex on 3,000 random mutations of valid and damaged records', () => {
    let seed = 0x2545f491;
    const rnd = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const alphabet = ['a', 'f', 'g', '0', '9', ' ', '/', '-', '\n', '\r', '\t', '\u00a0', 'A', '%', 'x', '.', 'é'];
    for (let i = 0; i < 3000; i++) {
      const lines = Array.from({ length: 1 + rnd(4) }, () => (rnd(4) ? valid : damaged)[rnd(rnd(4) ? valid.length : damaged.length)]);
      let text = `${HEADER}\n${lines.join('\n')}\n`;
      for (let k = rnd(3); k > 0; k--) {
        const at = HEADER.length + 1 + rnd(text.length - HEADER.length);
        const op = rnd(3);
        text = op === 0 ? text.slice(0, at) + text.slice(at + 1) : op === 1 ? text.slice(0, at) + alphabet[rnd(alphabet.length)] + text.slice(at) : text.slice(0, at) + alphabet[rnd(alphabet.length)] + text.slice(at + 1);
      }
      same(text);
    }
  });

  it('isHandoffName says what parseRef parses', () => {
    const refs = [...valid, ...damaged].map((l) => l.split(' ').slice(3).join(' ')).concat(['refs/handoffs/a/auth-refactor', 'refs/handoffs/a/b/c', 'refs/handoff-archive/a/auth-refactor/1', 'refs/handoff-archive/a/auth-refactor/1/2', 'refs/handoff-archive//auth-refactor/', 'refs/handoffsx/a/auth-refactor', 'refs/handoffs/', 'refs/handoffs/main/fix-the', 'refs/handoffs/main/the-and']);
    for (const r of refs) expect(isHandoffName(r), r).toBe(parseRef(r) !== null);
    // parseRef builds on isHandoffName: both also against the shape read by splitting (parseRef's reading before)
    const bySplit = (r: string) => {
      const [prefix, n] = r.startsWith('refs/handoffs/') ? ['refs/handoffs/', 2] : r.startsWith('refs/handoff-archive/') ? ['refs/handoff-archive/', 3] : ['', 0];
      const parts = r.slice(prefix.length).split('/');
      return n > 0 && parts.length === n && isValidTopic(parts[1]);
    };
    for (const r of refs) expect(isHandoffName(r), r).toBe(bySplit(r));
  });
});
