// `git handoff redact`: never-pushed versions rewritten in one compare-and-swap, accepted by the reference-transaction
// check and the server only as the command makes them; pushed versions refused with the steps to rotate.
import { describe, expect, it } from 'vitest';
import { json, refOf, type TestRepo } from '../../helpers/repo';
import { handoffRefs, makeWorld, ok } from '../../sync/world';
import { touchedFiles } from '../secrets/helpers';

const REF = 'refs/handoffs/main/auth-notes';
const GH = 'ghp_' + 'Rd4'.repeat(12);
const SLACK = 'xoxb-123456789012-1234567890123-' + 'Pq7'.repeat(8);

/** A version with a secret made with plumbing (write would refuse it): body, state.json, an extra trailer. */
function leakyVersion(repo: TestRepo, body: string, session = 'sess-a'): string {
  const blob = repo.git(['hash-object', '-w', '--stdin'], { input: body }).stdout.trim();
  const state = repo.git(['hash-object', '-w', '--stdin'], { input: `{\n  "branch": "main",\n  "note": "${SLACK}"\n}\n` }).stdout.trim();
  const tree = repo.git(['mktree'], { input: `100644 blob ${blob}\thandoff.md\n100644 blob ${state}\tstate.json\n` }).stdout.trim();
  const parent = refOf(repo, REF);
  const env = { GIT_AUTHOR_DATE: '2026-01-02T03:04:05Z', GIT_COMMITTER_DATE: '2026-01-02T03:04:06Z' };
  const oid = repo.git(['commit-tree', tree, ...(parent ? ['-p', parent] : [])], { input: `handoff(auth-notes): ${body.split('\n')[0]}\n\nClaude-Session-Id: ${session}\nHandoff-Topic: auth-notes\n`, env }).stdout.trim();
  repo.git(['update-ref', REF, oid]);
  return oid;
}

const commitOf = (repo: TestRepo, oid: string) => repo.git(['cat-file', 'commit', oid]).stdout;

describe('redact', () => {
  it('rewrites every never-pushed version in one transaction, keeping every other byte; push then goes through', async () => {
    const { a, bare } = await makeWorld('file', { server: true });
    await ok(a, ['install']);
    a.git(['config', 'core.logAllRefUpdates', 'always']);
    await ok(a, ['write', 'auth-notes', '-m', 'clean start', '--session', 'sess-a']);
    await ok(a, ['push']);
    const pushed = refOf(a, REF)!;
    const v1 = leakyVersion(a, `first leak ${GH}\nline two\n`);
    const v2 = leakyVersion(a, `second, clean body\n`);
    a.git(['reflog', 'expire', '--expire=now', '--all']);
    const before = a.git(['reflog', 'show', '--format=%H', REF], { allowFail: true }).stdout.trim().split('\n').filter(Boolean).length;

    const r = await a.cli(['redact', 'auth-notes', '--session', 'sess-a', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const out = json(r);
    expect(out.previous).toBe(v2);
    expect(out.rewritten.map((x: { from: string }) => x.from)).toEqual([v1, v2]);
    expect(out.redacted).toBe(4); // v1: body, subject, state.json; v2: state.json
    // one update of the ref: one reflog entry, from v2 to the new tip
    const log = a.git(['reflog', 'show', '--format=%H %gs', REF]).stdout.trim().split('\n');
    expect(log.length - before).toBe(1);
    expect(log[0]).toBe(`${out.oid} handoff redact auth-notes`);

    const [n1, n2] = out.rewritten.map((x: { to: string }) => x.to);
    expect(a.git(['show', `${n1}:handoff.md`]).stdout).toBe('first leak [REDACTED:github]\nline two\n');
    expect(a.git(['show', `${n1}:state.json`]).stdout).toBe('{\n  "branch": "main",\n  "note": "[REDACTED:slack]"\n}\n');
    // headers (author, committer, dates) kept; parents the rewrites; the message redacted and one trailer added
    const strip = (c: string) => c.replace(/^(tree|parent) .*\n/gm, '');
    expect(strip(commitOf(a, n1))).toBe(strip(commitOf(a, v1)).replace(GH, '[REDACTED:github]').replace(/\n$/, `\nHandoff-Redacted-From: ${v1} by sess-a\n`));
    expect(strip(commitOf(a, n2))).toBe(strip(commitOf(a, v2)) + `Handoff-Redacted-From: ${v2} by sess-a\n`);
    expect(a.git(['rev-parse', `${n1}^`]).stdout.trim()).toBe(pushed);
    expect(a.git(['rev-parse', `${n2}^`]).stdout.trim()).toBe(n1);
    expect(a.git(['rev-parse', `${n2}:handoff.md`]).stdout).toBe(a.git(['rev-parse', `${v2}:handoff.md`]).stdout);

    await ok(a, ['push']);
    expect(handoffRefs(bare)).toContain(`${REF} ${out.oid}`);
    const seen = [String(r.stdout), String(r.stderr), ...touchedFiles(a)].join('\n');
    expect(seen).not.toContain(GH);
    expect(seen).not.toContain(SLACK);
  });

  it('refuses a version already pushed (exit 6, steps to rotate), and leaves the ref alone', async () => {
    const { a, bare } = await makeWorld('file');
    leakyVersion(a, `leak ${GH}\n`);
    a.git(['push', '--no-verify', 'origin', `${REF}:${REF}`]);
    a.git(['fetch', 'origin', `+refs/handoffs/*:refs/handoff-remotes/origin/handoffs/*`]);
    const tip = refOf(a, REF);
    const r = await a.cli(['redact', 'auth-notes', '--session', 'sess-a']);
    expect(r.exitCode).toBe(6);
    expect(String(r.stderr)).toMatch(/already been pushed[^]*rotate the secret now/);
    expect(refOf(a, REF)).toBe(tip);
    expect(refOf(bare, REF)).toBe(tip);
    expect(String(r.stderr)).not.toContain(GH);
  });

  it("is the owner's: another session needs --take-over --reason, recorded in a trailer", async () => {
    const { a } = await makeWorld('file');
    leakyVersion(a, `leak ${GH}\n`);
    const refused = await a.cli(['redact', 'auth-notes', '--session', 'sess-b']);
    expect(refused.exitCode).toBe(3);
    // the way on is redact's own takeover, not a write's
    expect(String(refused.stderr)).toContain('git handoff redact auth-notes --take-over --reason "<why>"');
    const noReason = await a.cli(['redact', 'auth-notes', '--session', 'sess-b', '--take-over']);
    expect(noReason.exitCode).toBe(2);
    const r = await a.cli(['redact', 'auth-notes', '--session', 'sess-b', '--take-over', '--reason', 'owner is gone, token leaked']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const msg = a.git(['log', '-1', '--format=%B', REF]).stdout;
    expect(msg).toMatch(/Claude-Session-Id: sess-a\n/);
    expect(msg).toMatch(/Handoff-Redacted-From: [0-9a-f]{40} by sess-b\nHandoff-Redact-Reason: owner is gone, token leaked\n+$/);
  });

  it('the reference-transaction check and the server refuse a rewrite that does more than redact', async () => {
    const { a, bare } = await makeWorld('file', { server: true });
    await ok(a, ['install']);
    const v1 = leakyVersion(a, `leak ${GH}\n`);
    // a hand-made "redaction" that also changes a word: same trailer, but not only markers
    const forge = (body: string) => {
      const blob = a.git(['hash-object', '-w', '--stdin'], { input: body }).stdout.trim();
      const state = a.git(['hash-object', '-w', '--stdin'], { input: a.git(['show', `${v1}:state.json`]).stdout.replace(SLACK, '[REDACTED:slack]') }).stdout.trim();
      const tree = a.git(['mktree'], { input: `100644 blob ${blob}\thandoff.md\n100644 blob ${state}\tstate.json\n` }).stdout.trim();
      const raw = commitOf(a, v1).replace(/^tree .*$/m, `tree ${tree}`).replace(GH, '[REDACTED:github]').replace(/\n$/, `\nHandoff-Redacted-From: ${v1} by sess-a\n`);
      return a.git(['hash-object', '-t', 'commit', '-w', '--stdin'], { input: raw }).stdout.trim();
    };
    const bad = forge('LEAK [REDACTED:github]\n');
    // markers over text that is no finding: a "redaction" that blanks a handoff is no redaction either
    const blank = forge('[REDACTED:gcp]\n');
    for (const forged of [bad, blank]) {
      const moved = a.git(['update-ref', REF, forged, v1], { allowFail: true });
      expect(moved.status).not.toBe(0);
      expect(moved.stderr).toMatch(/history rewritten/);
      expect(refOf(a, REF)).toBe(v1);
    }
    // the same check on the server: a forced push of the forged rewrite over the pushed original is refused
    // the server has the original (put there by hand: its receive check would refuse the secret)
    bare.git(['fetch', a.dir, `${REF}:${REF}`]);
    const good = forge('leak [REDACTED:github]\n');
    expect(refOf(bare, REF)).toBe(v1);
    for (const forged of [bad, blank]) {
      const forced = a.git(['push', '--no-verify', '--force', 'origin', `${forged}:${REF}`], { allowFail: true });
      expect(forced.status).not.toBe(0);
      expect(forced.stderr).toMatch(/history rewritten/);
      expect(refOf(bare, REF)).toBe(v1);
    }
    // a rewrite exactly as redact makes it passes the local check and the server's
    expect(a.git(['update-ref', REF, good, v1], { allowFail: true }).status).toBe(0);
    const accepted = a.git(['push', '--no-verify', '--force', 'origin', `${good}:${REF}`], { allowFail: true });
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(refOf(bare, REF)).toBe(good);
  });
});
