// The one trailer parser (src/git/trailers.ts): the cases its readers handled before they were one — the handoff
// format (document.ts), leases (first value won), the secret scan's record (the last won), the archive's
// migration mark, the sessions a code commit claims — and git's block read from a real repository.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo';
import { messageFileTrailerLines } from '../../src/git/trailer-reads';
import { looseTrailerValues, messageTrailerLines, trailerBlockLines, trailerReader, TRAILER_BLOCK_MAX } from '../../src/git/trailers';
import { besideEntries } from '../../src/handoff/store/format';
import { claimedSessions, parseTrailerLines, secretTrailersOf } from '../../src/handoff/store/document';
import { listLeases } from '../../src/handoff/store/leases';
import { makeRepo } from '../helpers/repo';

const read = trailerReader({ session: 'Claude-Session-Id', branch: 'Handoff-Branch' }, { to: 'Handoff-To' });

describe('the strict reader', () => {
  it('reads named keys in their spelling or in any case, keeps list values in order, passes other keys over', () => {
    const t = read(['Claude-Session-Id: s1', 'handoff-branch:  main ', 'Handoff-To: a', 'X-Other: y', 'HANDOFF-TO: b']);
    expect(t).toEqual({ session: 's1', branch: 'main', to: ['a', 'b'], problem: null });
    expect(read(['Claude-Session-Id:s1']).session).toBe('s1');
    expect(read([]).to).toEqual([]);
  });

  it('passes over free text no reader takes for a key', () => {
    expect(read(['(cherry picked from commit abc)', 'Claude-Session-Id: s1']).session).toBe('s1');
  });

  it('makes a block ambiguous: a second value, a continuation line, a control byte, a key-like line, a block too large', () => {
    const cases: Array<[string[], RegExp]> = [
      [['Claude-Session-Id: s1', 'claude-session-id: s2'], /two Claude-Session-Id trailers/],
      [['X-Note: x', ' Claude-Session-Id: s1'], /a continuation line/],
      [['Claude-Session-Id: s1\r'], /a control character/],
      [['Claude-Session-Id: s1\u001b[0m'], /a control character/],
      [['Claude-Session-Id : s1'], /not `Key: value`/],
      [['Claude-Session-Id: s1', `X-Pad: ${'p'.repeat(TRAILER_BLOCK_MAX)}`], /a trailer block of/],
    ];
    for (const [lines, why] of cases) {
      const t = read(lines);
      expect(t.problem, JSON.stringify(lines)).toMatch(why);
      expect(t.session).toBeNull();
      expect(t.to).toEqual([]);
    }
    expect(read.refuse('two owners').problem).toBe('ambiguous trailer block (two owners)');
  });

  it('keeps a control character in a value only when asked (leases: a worktree path may hold a tab)', () => {
    const lease = trailerReader({ worktree: 'Handoff-Worktree' }, {}, { controlsInValues: true });
    expect(lease(['Handoff-Worktree: /w/a\tb']).worktree).toBe('/w/a\tb');
    expect(trailerReader({ worktree: 'Handoff-Worktree' })(['Handoff-Worktree: /w/a\tb']).worktree).toBeNull();
  });
});

describe('the lenient reading and the message forms', () => {
  it('every value any reader could take: any case, spaces around the colon, distinct', () => {
    expect(looseTrailerValues(['claude-session-id : a', ' Claude-Session-Id:b', 'CLAUDE-SESSION-ID: a', 'Claude-Session-Id-X: c', 'X: Claude-Session-Id: d'], 'Claude-Session-Id')).toEqual(['a', 'b']);
    expect(claimedSessions(['X-Note: x', ' Claude-Session-Id: A', 'Claude-Session-Id: A'])).toEqual(['A']);
  });

  it('a message: its last paragraph, none when it has one paragraph; git block: one line per element', () => {
    expect(messageTrailerLines('subject\n\nbody\n\nA: 1\nB: 2\n\n')).toEqual(['A: 1', 'B: 2']);
    expect(messageTrailerLines('A: 1\n')).toEqual([]);
    expect(trailerBlockLines('A: 1\nB: 2\n')).toEqual(['A: 1', 'B: 2']);
    expect(trailerBlockLines('')).toEqual([]);
  });
});

describe('the readers, through it', () => {
  it('the handoff format: a person owns as person:<email>, two owners are ambiguous and claimed', () => {
    expect(parseTrailerLines(['Handoff-Person: Ann <ann@x.org>', 'Handoff-Head: none']).session).toBe('person:ann@x.org');
    const two = parseTrailerLines(['Claude-Session-Id: s1', 'Handoff-Person: Ann <ann@x.org>']);
    expect(two.problem).toMatch(/two owners/);
    expect(two.claimed).toEqual(['s1']);
  });

  it('the secret record: one scan record (two record nothing, SPEC 2), allowed rules in order, keys in any case', () => {
    expect(secretTrailersOf('s\n\nHandoff-Scanned: p@1\nhandoff-allowed-secret: r1\nHandoff-Allowed-Secret: r2\n')).toEqual({ problem: null, scanned: 'p@1', allowed: ['r1', 'r2'] });
    // the last value won before; SPEC 2 names each key once, so a second one makes the block name nothing
    expect(secretTrailersOf('s\n\nHandoff-Scanned: p@1\nHandoff-Scanned: p@2\nHandoff-Allowed-Secret: r1\n')).toEqual({ problem: expect.stringMatching(/ambiguous/), scanned: null, allowed: [] });
    expect(secretTrailersOf('Handoff-Scanned: p@1\n')).toEqual({ problem: null, scanned: null, allowed: [] });
  });

  it('the archive mark: the format-1 entry each format-2 entry stands beside', () => {
    expect([...besideEntries([{ trailers: ['Claude-Session-Id: s', 'Handoff-Migrated-From: refs/a/1'] }, { trailers: ['X: y'] }])]).toEqual(['refs/a/1']);
  });

  it('git\'s block of real commits and refs, a message file as git parses it, and a lease that names its holder twice', () => {
    const t = makeRepo({ commit: true });
    t.commit('one\n\nbody\n\nClaude-Session-Id: s1\nHandoff-Tag: x\n');
    const tip = t.git(['rev-parse', 'HEAD']).stdout.trim();
    const repo = openRepo(t.dir);
    expect(repo.commitsVia(['HEAD'], { not: ['HEAD~1'] }).map((r) => [r.oid, r.ref, r.trailers])).toEqual([[tip, 'HEAD', ['Claude-Session-Id: s1', 'Handoff-Tag: x']]]);
    expect(repo.commitsVia(['--glob=refs/heads/*'])[0].ref).toBe('refs/heads/main');
    expect(repo.commitsVia(['no-such-rev'])).toEqual([]);
    const file = path.join(t.dir, '.git', 'MSG');
    writeFileSync(file, 'subject\n\nClaude-Session-Id: s2\n# a comment\n');
    expect(messageFileTrailerLines(repo, file)).toEqual(['Claude-Session-Id: s2']);
    // leases: the first value won before; a lease naming two holders now names none (SPEC 2: each key once)
    const empty = t.git(['hash-object', '-t', 'tree', '-w', '--stdin'], { input: '' }).stdout.trim();
    const lease = (msg: string) => t.git(['commit-tree', empty, '-m', msg]).stdout.trim();
    t.git(['update-ref', 'refs/handoff-leases/one', lease('lease: a\n\nClaude-Session-Id: a\nHandoff-Worktree: /w/one\nHandoff-Pid: 12')]);
    t.git(['update-ref', 'refs/handoff-leases/two', lease('lease: a\n\nClaude-Session-Id: a\nClaude-Session-Id: b\nHandoff-Worktree: /w/two')]);
    expect(repo.listRefs(['refs/handoff-leases/']).length).toBe(2);
    expect(listLeases(repo).map((l) => [l.session, l.worktree, l.pid])).toEqual([['a', '/w/one', 12]]);
  });
});

describe('a block read whole (a listing reads 10,000)', () => {
  // lines made of the tool's keys in several spellings, free text, continuations, controls, colons without a space
  const KEYS = ['Claude-Session-Id', 'claude-session-id', 'CLAUDE-SESSION-ID', 'Handoff-Branch', 'Handoff-To', 'handoff-to', 'X-Other', 'Claude-Session', '(cherry picked from'];
  const piece = fc.oneof(
    fc.constantFrom(...KEYS),
    fc.constantFrom(': ', ':', ' : ', ': : ', ' ', '\t', '\r', '\u001b', '\u2028', '\u0085', 'é', ''),
    fc.string({ maxLength: 6 }),
  );
  const line = fc.array(piece, { maxLength: 5 }).map((p) => p.join('').replace(/\n/g, ''));
  const block = fc.tuple(fc.array(line, { maxLength: 8 }), fc.constantFrom('', '\n', '\n\n')).map(([ls, end]) => ls.join('\n') + end);
  const readers = [read, trailerReader({ worktree: 'Handoff-Worktree', session: 'Claude-Session-Id' }, {}, { controlsInValues: true })];

  it('reads exactly what the reading of its lines does, for any block', () => {
    fc.assert(
      fc.property(block, (b) => {
        for (const r of readers) expect(r.block(b)).toEqual(r(trailerBlockLines(b)));
      }),
      { numRuns: 3000 },
    );
    // and the blocks the product writes, large ones included
    for (const b of ['Claude-Session-Id: s1\nHandoff-Branch: main\nHandoff-To: a\nHandoff-To: b\n', `Claude-Session-Id: s1\nX-Pad: ${'p'.repeat(TRAILER_BLOCK_MAX)}\n`, '', '\n'])
      expect(read.block(b)).toEqual(read(trailerBlockLines(b)));
    expect(read.block('Claude-Session-Id: s1\nHandoff-To: a\nhandoff-to: b\n')).toEqual({ session: 's1', branch: null, to: ['a', 'b'], problem: null });
  });
});
