// The refs a command reads, compared with the last verified record on the record's text itself (issue 39: no map of
// 10,000 tips built for a listing): a walk beside the tip lines for many refs, a binary search each for a few, and the
// map where the refs do not come in the record's order. Whatever path it takes, the answer is the map's.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agreesWith, textAgrees, tipsOf } from '../../../src/handoff/record/record-reads';
import { isRecorded, serializeRecord, type RecordState } from '../../../src/handoff/store/tx/record';
import { buildMessage } from '../../../src/handoff/store/document';
import { handoffRef } from '../../../src/handoff/store/names';
import { makeRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';

const OIDS = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40), `${'d'.repeat(39)}e`];
// name parts that sort differently by byte and by UTF-16 unit (U+FF5E against U+1F600), and ASCII ones
const PART = fc.constantFrom('a', 'b', 'main', 'x%2Fy', 'feat', 'é', '～', '😀', 'z');
const TOPIC = fc.constantFrom('auth-fix', 'login-loop', 'a-b', 'z-z', 'cache-warm-up', 'Bad', 'only');
const REF = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(PART, PART, TOPIC).map(([b, c, t]) => `refs/handoffs/${b}${c}/${t}`) },
  { weight: 2, arbitrary: fc.tuple(PART, TOPIC, fc.integer({ min: 1, max: 9 })).map(([b, t, n]) => `refs/handoff-archive/${b}/${t}/${n}-abc`) },
  { weight: 1, arbitrary: fc.constant('refs/notes/handoff-reads') },
  // names the record cannot hold: none of its business
  { weight: 1, arbitrary: fc.tuple(PART, TOPIC).map(([b, t]) => `refs/handoff-remotes/origin/handoffs/${b}/${t}`) },
  { weight: 1, arbitrary: fc.tuple(PART, TOPIC).map(([b, t]) => `refs/handoffs/${b}/${t}/extra`) },
);
const OID = fc.constantFrom(...OIDS);

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A record as serializeRecord writes it, and the refs a command read: what git printed, in git's order or another. */
const world = fc
  .record({
    // a few tips (each ref searched for) or many (one walk)
    tips: fc.oneof(fc.uniqueArray(fc.tuple(REF, OID), { selector: ([r]) => r, maxLength: 12 }), fc.uniqueArray(fc.tuple(REF, OID), { selector: ([r]) => r, minLength: 110, maxLength: 200 })),
    removed: fc.uniqueArray(fc.tuple(REF, OID, fc.constantFrom('removed', 'archived')), { selector: ([r]) => r, maxLength: 6 }),
    // each record tip: read as it is, read at another oid, or not read; and names read the record does not hold
    reads: fc.array(fc.constantFrom('same', 'same', 'same', 'same', 'same', 'same', 'moved', 'unread'), { minLength: 200, maxLength: 200 }),
    extra: fc.uniqueArray(fc.tuple(REF, OID), { selector: ([r]) => r, maxLength: 8 }),
    order: fc.constantFrom('git', 'git', 'utf16', 'reversed'),
    // all read as recorded (and only names the record cannot hold besides), one read otherwise, or any mix
    mode: fc.constantFrom('agree', 'one', 'mixed'),
    one: fc.nat(),
  })
  .map((w) => {
    // a record the full check verified holds only names isRecorded accepts (parseRecord refuses any other line)
    w.tips = w.tips.filter(([ref]) => isRecorded(ref));
    w.removed = w.removed.filter(([ref]) => isRecorded(ref));
    if (w.mode !== 'mixed') {
      w.reads = w.reads.map(() => 'same');
      if (w.mode === 'one' && w.tips.length) w.reads[w.one % w.tips.length] = w.one % 2 ? 'moved' : 'unread';
      w.extra = w.extra.filter(([ref]) => !isRecorded(ref));
    }
    const rec: RecordState = { commit: null, entries: new Map(w.tips.map(([ref, oid]) => [ref, { oid, seen: 1 }])), removed: new Map(w.removed.map(([ref, oid, why]) => [ref, { oid, at: 2, why: why as 'removed' | 'archived' }])) };
    const read = new Map<string, string>();
    w.tips.forEach(([ref, oid], i) => {
      const how = w.reads[i] ?? 'same';
      if (how === 'same') read.set(ref, oid);
      else if (how === 'moved') read.set(ref, OIDS[(OIDS.indexOf(oid) + 1) % OIDS.length]);
    });
    for (const [ref, oid] of w.extra) if (!read.has(ref)) read.set(ref, oid);
    const refs = [...read].map(([ref, oid]) => ({ ref, oid }));
    refs.sort(w.order === 'utf16' ? (a, b) => (a.ref < b.ref ? -1 : 1) : (a, b) => byteOrder(a.ref, b.ref));
    if (w.order === 'reversed') refs.reverse();
    return { text: serializeRecord(rec), refs };
  });

describe("reads compared on the record's text", () => {
  it("answers as the map of the record's tips does, for any record and any refs read, many or few, in any order", () => {
    let walked = 0;
    let searched = 0;
    let agreed = 0;
    fc.assert(
      fc.property(world, ({ text, refs }) => {
        const tips = tipsOf(text);
        const want = refs.every((x) => agreesWith(tips, x));
        const got = textAgrees(text, refs);
        const many = refs.filter((x) => /^refs\/(handoffs|handoff-archive|notes\/handoff-reads)/.test(x.ref)).length >= 64;
        if (got === null) {
          // only the walk gives up, and only on refs out of the record's order
          expect(many).toBe(true);
          expect(refs.every((x, i) => i === 0 || refs[i - 1].ref < x.ref)).toBe(false);
        } else expect(got).toBe(want);
        if (got !== null) (many ? walked++ : searched++);
        if (got && many) agreed++;
      }),
      { numRuns: 600 },
    );
    expect(walked).toBeGreaterThan(20);
    expect(searched).toBeGreaterThan(20);
    expect(agreed).toBeGreaterThan(20);
  });

  it('a record whose tip lines are out of order (not one serializeRecord writes) never agrees where the map would not', () => {
    fc.assert(
      fc.property(world, fc.integer({ min: 0, max: 1000 }), ({ text, refs }, seed) => {
        const lines = text.split('\n');
        const tipLines = lines.filter((l) => l.startsWith('tip '));
        if (tipLines.length < 2) return;
        // swap two tip lines
        const i = seed % tipLines.length;
        const j = (seed * 7 + 1) % tipLines.length;
        [tipLines[i], tipLines[j]] = [tipLines[j], tipLines[i]];
        const shuffled = [lines[0], ...tipLines, ...lines.slice(1).filter((l) => !l.startsWith('tip '))].join('\n');
        const got = textAgrees(shuffled, refs);
        if (got === true) expect(refs.every((x) => agreesWith(tipsOf(shuffled), x))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a listing of many handoffs, one rewritten in place', () => {
  it('`list --all` (the walk) reports the one ref moved, a listing of another branch (a search each) does not; recover restores it', async () => {
    const repo = makeRepo({ commit: true });
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    // 80 handoffs on 4 branches in one fast-import, as a long-lived repository has them
    const parts: string[] = [];
    for (let i = 0; i < 80; i++) {
      const branch = `team-${i % 4}`;
      const topic = `topic-${i}-notes`;
      const body = `# ${topic}\n\nitem ${i}\n`;
      const message = buildMessage({ topic, body, session: `sess-${i % 5}`, branch, head, client: 'cli' });
      parts.push(`commit ${handoffRef(branch, topic)}\ncommitter T <t@example.com> ${1_750_000_000 + i} +0000\ndata ${Buffer.byteLength(message)}\n${message}\nM 100644 inline handoff.md\ndata ${Buffer.byteLength(body)}\n${body}\n`);
    }
    repo.git(['fast-import', '--quiet'], { input: parts.join('') });
    expect((await ok(repo, ['list', '--all'])).stderr).toBe('');
    expect((await ok(repo, ['list', '--all'])).stderr).toBe('');
    // topic-41-notes of team-1 moved to topic-45-notes' commit: same size, inode and mtime
    const ref = handoffRef('team-1', 'topic-41-notes');
    const file = path.join(repo.dir, '.git', ref);
    const was = readFileSync(file, 'utf8').trim();
    const other = repo.git(['rev-parse', handoffRef('team-1', 'topic-45-notes')]).stdout.trim();
    const stamp = path.join(repo.home, 'stamp');
    execFileSync('touch', ['-r', file, stamp]);
    writeFileSync(file, `${other}\n`);
    execFileSync('touch', ['-r', stamp, file]);
    const moved = new RegExp(`${ref} was moved to ${other.slice(0, 12)}, a history that does not contain its recorded version ${was.slice(0, 12)}`);
    // another branch's listing (20 refs: each searched for) reads none of it
    expect((await ok(repo, ['list', '--branch', 'team-2'])).stderr).toBe('');
    // the whole listing (80: the walk) reads it
    expect((await ok(repo, ['list', '--all', '--json'])).stderr).toMatch(moved);
    await ok(repo, ['recover']);
    expect(repo.git(['rev-parse', ref]).stdout.trim()).toBe(was);
    expect((await ok(repo, ['list', '--all'])).stderr).toBe('');
  });
});
