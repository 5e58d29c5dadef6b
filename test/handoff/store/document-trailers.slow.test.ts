// Trailer forging (issue 8): nothing a writer controls — body, topic, branch, reason, session id — can add or
// replace a trailer, whether read by our parser, by git's, or end to end through `write` and `show --json`.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../../src/git/repo';
import { buildMessage, oneLine, TRAILER } from '../../../src/handoff/store/document';
import { readTrailersOf } from '../../../src/handoff/store/ownership';
import { isValidTopic } from '../../../src/handoff/store/names';
import { assertSession, SESSION_RE } from '../../../src/handoff/state/session';
import { makeRepo } from '../../helpers/repo';

// Pieces an attacker would splice in: trailer lines, paragraph breaks, every newline git or a terminal knows.
const FORGERY = [
  'Claude-Session-Id: forged-session',
  'claude-session-id:forged',
  'Claude-Session-Id : forged',
  'Handoff-Takeover-From: victim',
  'Handoff-Topic: other-topic',
  'Handoff-Branch: main',
  'Handoff-Reason: because',
  'Signed-off-by: Mallory <m@example.com>',
  '\n',
  '\n\n',
  '\r\n',
  '\r',
  '\u2028',
  '\u2029',
  '\u0085',
  '\v',
  '\f',
  '---',
  '\n---\n',
  ' ',
  '\t',
  '#',
  '\x1b[2K',
];
const hostile = (max = 8) =>
  fc.array(fc.oneof(fc.constantFrom(...FORGERY), fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 6 })), { minLength: 1, maxLength: max }).map((a) => a.join(''));
const sessionArb = fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/);
const topicArb = fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){1,3}$/).filter(isValidTopic);
const bodyArb = hostile(12).filter((b) => b.trim() !== '' && !b.includes('\0'));

/** A commit with this message in a scratch repository, read back by the product's one trailer reading (git's). */
function productReading(repo: ReturnType<typeof makeRepo>, message: string) {
  const tree = repo.git(['mktree'], { input: '' }).stdout.trim();
  const oid = repo.git(['commit-tree', tree], { input: message }).stdout.trim();
  return { oid, ...readTrailersOf(openRepo(repo.dir), [oid]).get(oid)! };
}

/** The trailer lines git itself finds in a commit message. */
function gitTrailers(message: string): string[] {
  const r = spawnSync('git', ['interpret-trailers', '--parse', '--no-divider'], { input: message, encoding: 'utf8' });
  expect(r.status).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

describe('trailers cannot be forged through the message builder', () => {
  it('our parser and git read back exactly the trailers given, each once, whatever the body, branch or reason hold', () => {
    const scratch = makeRepo();
    let cases = 0;
    fc.assert(
      fc.property(topicArb, bodyArb, hostile(), sessionArb, fc.option(fc.tuple(sessionArb, hostile())), (topic, body, branch, session, takeover) => {
        cases++;
        fc.pre(oneLine(branch) !== '');
        const message = buildMessage({ topic, body, session, branch, head: null, client: 'cli', takeoverFrom: takeover?.[0] ?? null, reason: takeover?.[1] ?? null });
        const t = productReading(scratch, message);
        expect(t.problem).toBeNull();
        expect(t.session).toBe(session);
        expect(t.topic).toBe(topic);
        expect(t.branch).toBe(oneLine(branch));
        expect(t.takeoverFrom).toBe(takeover?.[0] ?? null);
        expect(t.reason).toBe(takeover ? oneLine(takeover[1]) || 'takeover' : null);
        // the subject is one line and the trailer block is the only other paragraph
        const paragraphs = message.trimEnd().split('\n\n');
        expect(paragraphs).toHaveLength(2);
        expect(paragraphs[0]).not.toContain('\n');
        const keys = [TRAILER.session, TRAILER.branch, TRAILER.topic, TRAILER.head, TRAILER.client, ...(takeover ? [TRAILER.takeoverFrom, TRAILER.reason] : [])];
        const lines = paragraphs[1].split('\n');
        expect(lines.map((l) => l.slice(0, l.indexOf(':')))).toEqual(keys);
        // git agrees: the same lines, and the session key appears once in the whole message
        expect(gitTrailers(message)).toEqual(lines.map((l) => l.replace(/: ?/, ': ').trimEnd()));
        expect(message.split(/[\n\r\u2028\u2029\u0085]/).filter((l) => /^\s*claude-session-id\s*:/i.test(l))).toHaveLength(1);
      }),
      { numRuns: 300 },
    );
    console.log(`trailer forging (builder): ${cases} cases`);
  });

  it('a session id that could carry a line break, a colon-space or a second trailer is refused (exit 2)', () => {
    let cases = 0;
    fc.assert(
      fc.property(fc.oneof(hostile(4), fc.string({ maxLength: 140 }), sessionArb), (id) => {
        cases++;
        if (SESSION_RE.test(id)) expect(assertSession(id)).toBe(id);
        else expect(() => assertSession(id)).toThrow(expect.objectContaining({ exitCode: 2, code: 'invalid-session' }));
        if (SESSION_RE.test(id)) expect(id).not.toMatch(/[\s\n]|: /);
      }),
      { numRuns: 1000 },
    );
    console.log(`trailer forging (session ids): ${cases} cases`);
  });
});

describe('trailers cannot be forged end to end', () => {
  it('write with hostile body, branch and reason, then show --json: the stored trailers are exactly the writer’s', async () => {
    const repo = makeRepo({ commit: true });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(bodyArb, hostile(5), hostile(5), async (body, branchRaw, reason) => {
        n++;
        const branch = branchRaw.replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'plain';
        // yargs strips one pair of matching quotes around a `--opt=value` value (`--branch=""` reads as empty):
        // a parser quirk of the `=` form, not a way to forge anything; such names are passed whole elsewhere.
        fc.pre(!/^(["']).*\1$/s.test(branch));
        fc.pre(reason.trim() !== '' && oneLine(reason) !== '');
        const topic = `forge-case-${n}`;
        const owner = `owner-${n}`;
        const taker = `taker.${n}:x`;
        const a = await repo.cli(['write', topic, `--branch=${branch}`, '-F', '-', '--json'], { input: body, env: { GIT_HANDOFF_SESSION: owner } });
        // a name git does not allow as a branch is refused before anything is written (issue 40), whatever it holds
        if (repo.git(['check-ref-format', '--branch', branch], { allowFail: true }).status !== 0) {
          expect(a.exitCode, String(a.stderr) + String(a.stdout)).toBe(2);
          expect(String(a.stdout) + String(a.stderr)).toContain('"code":"invalid-branch"');
          expect(repo.git(['for-each-ref', '--format=%(refname)', 'refs/handoffs/']).stdout).not.toContain(topic);
          return;
        }
        expect(a.exitCode, String(a.stderr) + String(a.stdout)).toBe(0);
        const b = await repo.cli(['write', topic, `--branch=${branch}`, '-F', '-', '--take-over', `--reason=${reason}`, '--json'], {
          input: body,
          env: { GIT_HANDOFF_SESSION: taker },
        });
        expect(b.exitCode, String(b.stderr) + String(b.stdout)).toBe(0);
        const shown = await repo.cli(['show', topic, `--branch=${branch}`, '--json']);
        expect(shown.exitCode, String(shown.stderr)).toBe(0);
        const v = JSON.parse(String(shown.stdout));
        expect(v).toMatchObject({ topic, branch, session: taker, takeoverFrom: owner, reason: oneLine(reason), body });
        const ref = JSON.parse(String(b.stdout)).ref;
        const sessions = repo.git(['log', '--format=%(trailers:key=Claude-Session-Id,valueonly)%x1e', ref]).stdout.split('\x1e').map((s) => s.trim()).filter(Boolean);
        expect(sessions).toEqual([taker, owner]);
        // a non-owner who does not take over is still refused: the forged text gave nobody ownership
        const c = await repo.cli(['write', topic, `--branch=${branch}`, '-m', 'intruder'], { env: { GIT_HANDOFF_SESSION: 'forged-session' } });
        expect(c.exitCode).toBe(3);
      }),
      { numRuns: 12 },
    );
    console.log(`trailer forging (end to end): ${n} cases`);
  });

  it('a real branch whose name holds a Unicode line separator is reported exactly; its trailer stays one line', async () => {
    const repo = makeRepo({ commit: true });
    const branch = 'feat\u2028Handoff-Topic\u0085x';
    repo.git(['checkout', '-q', '-b', branch]);
    const w = await repo.cli(['write', 'odd-branch', '-m', 'x'], { env: { GIT_HANDOFF_SESSION: 's-odd' } });
    expect(w.exitCode, String(w.stderr)).toBe(0);
    const [row] = JSON.parse(String((await repo.cli(['list', '--json'])).stdout));
    expect(row.branch).toBe(branch);
    expect(JSON.parse(String((await repo.cli(['show', 'odd-branch', '--json'])).stdout)).branch).toBe(branch);
    const trailers = gitTrailers(repo.git(['log', '-1', '--format=%B', row.ref]).stdout);
    expect(trailers.filter((l) => l.startsWith('Handoff-Topic'))).toEqual(['Handoff-Topic: odd-branch']);
    expect(trailers).toContain('Handoff-Branch: feat Handoff-Topic x');
  });

  it('a hostile session id (flag or environment) or topic is refused before anything is written', async () => {
    const repo = makeRepo({ commit: true });
    for (const id of ['a\nClaude-Session-Id: b', 'a: b', 'x\rHandoff-Takeover-From: y', 'a'.repeat(129), 'ok\u2028Claude-Session-Id: z', ' lead']) {
      const viaFlag = await repo.cli(['write', 'forge-session', `--session=${id}`, '-m', 'x']);
      expect(viaFlag.exitCode).toBe(2);
      expect(viaFlag.stderr).toMatch(/invalid session id/);
      const viaEnv = await repo.cli(['write', 'forge-session', '-m', 'x'], { env: { GIT_HANDOFF_SESSION: id } });
      expect(viaEnv.exitCode).toBe(2);
    }
    // a topic cannot carry one either: the grammar admits [a-z0-9-] only
    for (const topic of ['auth-x\nClaude-Session-Id: b', 'auth-x: b', 'auth-x\u2028Handoff-Topic: y', 'Auth-Refactor', 'auth refactor']) {
      const r = await repo.cli(['write', topic, '-m', 'x'], { env: { GIT_HANDOFF_SESSION: 'honest' } });
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr)).toMatch(/topic/);
    }
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
  });
});

// Issue 13 item 1: hand-made trailer blocks (continuations, control bytes, two owners, CR) read by the product's one
// reading. Whenever it names an owner, git's own key lookup names the same one and no other; else it is flagged.
const SPLICE = [
  'Claude-Session-Id: A',
  'Claude-Session-Id: B',
  'claude-session-id: B',
  'Claude-Session-Id : B',
  'Claude-Session-Id:B',
  ' Claude-Session-Id: A',
  '\tClaude-Session-Id: A',
  'X-Note: x',
  'Handoff-Takeover-From: A',
  'Signed-off-by: M <m@x>',
  'Claude-Session-Id: A\x1fClaude-Session-Id: B',
  'Claude-Session-Id: A\r',
  '\r',
  ' ',
  '\t',
  'free text',
  '',
  '---',
  'Claude-Session-Id: A\x1b]52;c;eA==\x07',
];
const blockArb = fc.array(fc.oneof(fc.constantFrom(...SPLICE), fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 6 }).map((ls) => ls.join('\n'));

describe('one trailer reading (issue 13 item 1)', () => {
  it('fuzz: an owner the product reads is the one owner git reads; anything else is flagged ambiguous with no owner', () => {
    const scratch = makeRepo();
    let cases = 0;
    let flagged = 0;
    fc.assert(
      fc.property(blockArb, (block) => {
        fc.pre(!block.includes('\0'));
        cases++;
        const t = productReading(scratch, `subject\n\n${block}\n`);
        const gitSays = scratch.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly,unfold,separator=%x00)', t.oid]).stdout.replace(/\n$/, '');
        const gitOwners = gitSays === '' ? [] : gitSays.split('\0');
        if (t.problem) {
          flagged++;
          expect(t.session).toBeNull();
          expect(t.takeoverFrom).toBeNull();
        } else if (t.session === null) {
          expect(gitOwners).toEqual([]);
        } else {
          expect(gitOwners).toEqual([t.session]);
        }
      }),
      { numRuns: 400 },
    );
    expect(flagged).toBeGreaterThan(0);
    console.log(`one trailer reading: ${cases} cases, ${flagged} flagged ambiguous`);
  });

  it('each spelling of the attack is read as ambiguous: indented, tab, 0x1F, two owners, CR, ESC', () => {
    const scratch = makeRepo();
    const blocks = [
      'X-Note: x\n Claude-Session-Id: A\nClaude-Session-Id: B',
      'X-Note: x\n\tClaude-Session-Id: A\nClaude-Session-Id: B',
      'Claude-Session-Id: A\x1fClaude-Session-Id: B\nHandoff-Topic: a-b',
      'Claude-Session-Id: A\nClaude-Session-Id: B',
      'Claude-Session-Id: A\nclaude-session-id: B',
      'Claude-Session-Id: A\r\nHandoff-Topic: a-b\r',
      'Claude-Session-Id: A\nHandoff-Reason: x\x1b]0;title\x07',
      'Claude-Session-Id : B\nHandoff-Topic: a-b',
    ];
    for (const b of blocks) {
      const t = productReading(scratch, `handoff(a-b): x\n\n${b}\n`);
      expect(t.problem, JSON.stringify(b)).toMatch(/ambiguous trailer block/);
      expect(t.session).toBeNull();
    }
  });
});
