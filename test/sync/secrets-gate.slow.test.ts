// push/sync refuse to send an unscanned version with a secret (exit 6, nothing pushed); the server's receive check
// (install --server) scans every incoming version, whatever the client did.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, ROOT, type TestRepo } from '../helpers/repo';
import { secretsIn, touchedFiles } from '../handoff/secrets/helpers';
import { handoffRefs, makeWorld, ok } from './world';

const PLANTED = path.join(ROOT, 'fixtures', 'secrets', 'planted');
const topicOf = (rule: string) => `leak-${rule.replace(/[^a-z0-9]+/g, '-')}`;

/** A version made with plumbing (no scan record), as a script or an older git-handoff would. */
function plumbingVersion(repo: TestRepo, topic: string, body: string, session: string, extra = ''): string {
  const blob = repo.git(['hash-object', '-w', '--stdin'], { input: body }).stdout.trim();
  const tree = repo.git(['mktree'], { input: `100644 blob ${blob}\thandoff.md\n` }).stdout.trim();
  const ref = `refs/handoffs/main/${topic}`;
  const parent = repo.git(['rev-parse', '-q', '--verify', ref], { allowFail: true }).stdout.trim();
  const oid = repo.git(['commit-tree', tree, ...(parent ? ['-p', parent] : [])], { input: `handoff(${topic}): notes\n\nClaude-Session-Id: ${session}\n${extra}` }).stdout.trim();
  repo.git(['update-ref', ref, oid]);
  return oid;
}

/** One planted body per rule, each as a plumbing version on its own topic. */
async function plantAll(repo: TestRepo): Promise<Array<{ rule: string; oid: string; secrets: string[] }>> {
  const seen = new Set<string>();
  const out: Array<{ rule: string; oid: string; secrets: string[] }> = [];
  for (const f of readdirSync(PLANTED).sort()) {
    const rule = f.replace(/^\d+-/, '').replace(/\.md$/, '');
    if (rule.includes('+') || seen.has(rule)) continue;
    seen.add(rule);
    const body = readFileSync(path.join(PLANTED, f), 'utf8');
    out.push({ rule, oid: plumbingVersion(repo, topicOf(rule), body, 'sess-a'), secrets: await secretsIn(body) });
  }
  return out;
}

describe('push scans what it sends', () => {
  it('each rule of the preset: push exits 6 naming every ref, version and rule; nothing reaches the remote', async () => {
    const { a, bare } = await makeWorld('file');
    await ok(a, ['write', 'clean-notes', '-m', 'nothing secret here', '--session', 'sess-a']);
    const planted = await plantAll(a);
    expect(planted).toHaveLength(24);
    const r = await a.cli(['push']);
    expect(r.exitCode, String(r.stderr)).toBe(6);
    const err = String(r.stderr);
    expect(err).toContain('nothing was pushed');
    for (const p of planted) expect(err).toMatch(new RegExp(`refs/handoffs/main/${topicOf(p.rule)} version ${p.oid.slice(0, 12)}:\\n    handoff\\.md:\\d+:\\d+  ${p.rule} \\(`));
    expect(handoffRefs(bare)).toBe('');
    const j = await a.cli(['sync', '--json']);
    expect(j.exitCode).toBe(6);
    expect(json(j).error.code).toBe('secret-found');
    expect(json(j).error.data.versions).toHaveLength(24);
    expect(handoffRefs(bare)).toBe('');
    const seen = [String(r.stdout), err, String(j.stdout), String(j.stderr), ...touchedFiles(a), ...touchedFiles(bare)].join('\n');
    for (const p of planted) for (const s of p.secrets) expect(seen.includes(s), p.rule).toBe(false);
  });

  it('a version with a scan record is trusted; an allowed rule on an unscanned version passes too', async () => {
    const { a, bare } = await makeWorld('file', { server: true });
    const gh = 'ghp_' + 'Hj6'.repeat(12);
    await ok(a, ['write', 'fixture-notes', '-m', `test fixture ${gh}`, '--allow-secret', 'github', '--session', 'sess-a']);
    plumbingVersion(a, 'script-notes', `scripted ${gh}\n`, 'sess-a', 'Handoff-Allowed-Secret: github\n');
    const r = await a.cli(['push']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(handoffRefs(bare).split('\n')).toHaveLength(2);
  });

  it('an archive entry and a restore carry the scan record and the allowed rules of the version they keep', async () => {
    const { a, bare } = await makeWorld('file', { server: true });
    const gh = 'ghp_' + 'Hj6'.repeat(12);
    await ok(a, ['write', 'fixture-notes', '-m', `test fixture ${gh}`, '--allow-secret', 'github', '--session', 'sess-a']);
    const tip = a.git(['rev-parse', 'refs/handoffs/main/fixture-notes']).stdout.trim();
    await ok(a, ['archive', 'fixture-notes', '--session', 'sess-a']);
    // the archive version (beside it, the format-1 entry at the tip itself: SPEC 2 "Format version")
    const entry = a.git(['for-each-ref', '--format=%(objectname)', 'refs/handoff-archive/']).stdout.trim().split('\n').find((o) => o !== tip)!;
    const msg = a.git(['log', '-1', '--format=%B', entry]).stdout;
    expect(msg).toMatch(/^Handoff-Scanned: /m);
    expect(msg).toMatch(/^Handoff-Allowed-Secret: github$/m);
    const pushed = await a.cli(['push']);
    expect(pushed.exitCode, String(pushed.stderr)).toBe(0);
    await ok(a, ['restore', 'fixture-notes', '--session', 'sess-a']);
    expect(a.git(['log', '-1', '--format=%B', 'refs/handoffs/main/fixture-notes']).stdout).toMatch(/^Handoff-Allowed-Secret: github$/m);
    const again = await a.cli(['push']);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(bare.git(['for-each-ref', '--format=%(refname)', 'refs/handoffs/main/fixture-notes']).stdout.trim()).toBe('refs/handoffs/main/fixture-notes');
    // a takeover's reason is new text: the entry keeps the allowed rules (github) but not the record, so push scans it again
    await ok(a, ['archive', 'fixture-notes', '--session', 'sess-b', '--take-over', '--reason', `moved on ${'npm_' + 'Yu7'.repeat(12)}`]);
    const refused = await a.cli(['push']);
    expect(refused.exitCode).toBe(6);
  });

  it('a walk of the versions it would send that git cannot make sends nothing (the scan is not skipped)', async () => {
    const { a, bare } = await makeWorld('file');
    await ok(a, ['write', 'clean-notes', '-m', 'nothing secret here', '--session', 'sess-a']);
    const [leak] = await plantAll(a);
    expect(leak).toBeDefined();
    // a setting git log dies on, which git push never reads
    a.git(['config', 'log.date', 'no-such-format']);
    const r = await a.cli(['push']);
    expect(r.exitCode, String(r.stderr)).not.toBe(0);
    // git dies on the setting before it reads its stdin: either git's own words or the pipe it closed
    expect(String(r.stderr), String(r.stderr)).toMatch(/git log failed: .*unknown date format|could not run git: .*EPIPE/);
    expect(handoffRefs(bare)).toBe('');
  });
});

describe('the pre-push hook scans a plain git push of handoff refs', () => {
  it('refuses an unscanned version with a secret before anything leaves; autoSync keeps such handoffs here', async () => {
    const { a, bare } = await makeWorld('file');
    await ok(a, ['install']);
    const token = 'dckr_pat_' + 'Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7';
    const oid = plumbingVersion(a, 'docker-notes', `login with ${token}\n`, 'sess-a');
    const r = a.git(['push', 'origin', 'refs/handoffs/main/docker-notes:refs/handoffs/main/docker-notes'], { allowFail: true });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`refs/handoffs/main/docker-notes version ${oid.slice(0, 12)}:`));
    expect(r.stderr).toMatch(/handoff\.md:1:12  docker \(/);
    expect(r.stderr).not.toContain(token);
    expect(handoffRefs(bare)).toBe('');
    a.git(['config', 'handoff.autoSync', 'true']);
    const branch = a.git(['push', 'origin', 'HEAD:refs/heads/main'], { allowFail: true });
    expect(branch.status, branch.stderr).toBe(0);
    expect(branch.stderr).toMatch(/autoSync skipped: a version about to be pushed to origin contains secrets/);
    expect(handoffRefs(bare)).toBe('');
  });
});

describe('the server scans what it receives', () => {
  it('each rule of the preset: a plain git push of unscanned versions is refused, every version named', async () => {
    const { a, bare } = await makeWorld('file', { server: true });
    const planted = await plantAll(a);
    const r = a.git(['push', '--no-verify', 'origin', 'refs/handoffs/*:refs/handoffs/*'], { allowFail: true });
    expect(r.status).not.toBe(0);
    for (const p of planted) expect(r.stderr).toMatch(new RegExp(`refused \\(secret found\\) refs/handoffs/main/${topicOf(p.rule)} version ${p.oid.slice(0, 12)}:[^\\n]*\\n[^\\n]*handoff\\.md:\\d+:\\d+  ${p.rule} \\(`));
    expect(handoffRefs(bare)).toBe('');
    for (const p of planted) for (const s of p.secrets) expect(r.stderr.includes(s) || r.stdout.includes(s), p.rule).toBe(false);
  });

  it('a forged scan record does not get a secret past the server', async () => {
    const { a, bare } = await makeWorld('file', { server: true });
    const token = 'glpat-' + 'Wq2e7'.repeat(5);
    plumbingVersion(a, 'forged-notes', `leak ${token}\n`, 'sess-a', 'Handoff-Scanned: secretlint-preset-recommend@12.0.0\n');
    // the client no longer trusts a record it did not make (it refuses before sending); the server refuses it too
    const pushed = await a.cli(['push']);
    expect(pushed.exitCode).toBe(6);
    expect(String(pushed.stderr)).toMatch(/refs\/handoffs\/main\/forged-notes/);
    expect(handoffRefs(bare)).toBe('');
    const raw = a.git(['push', '--no-verify', 'origin', 'refs/handoffs/main/forged-notes'], { allowFail: true });
    expect(raw.stderr).toMatch(/refused \(secret found\) refs\/handoffs\/main\/forged-notes/);
    expect(handoffRefs(bare)).toBe('');
  });
});

describe('a scan record counts only where this clone made it for that version (issue 24, 12)', () => {
  it('a Handoff-Scanned trailer copied from another version does not let push skip the scan', async () => {
    const { a, bare } = await makeWorld('file');
    await ok(a, ['write', 'clean-notes', '-m', 'nothing secret here', '--session', 'sess-a']);
    const record = a.git(['log', '-1', '--format=%B', 'refs/handoffs/main/clean-notes']).stdout.split('\n').find((l) => l.startsWith('Handoff-Scanned: '))!;
    expect(record).toMatch(/ proof=[0-9a-f]{64}$/);
    const token = 'glpat-' + 'Wq2e7'.repeat(5);
    // the whole record, proof and all, on a version whose body it never covered; and one with its proof cut
    for (const [topic, copied] of [['copied-notes', record], ['cut-notes', record.replace(/ proof=.*$/, '')]]) {
      plumbingVersion(a, topic, `leak ${token}\n`, 'sess-a', `${copied}\n`);
      const pushed = await a.cli(['push']);
      expect(pushed.exitCode, topic).toBe(6);
      expect(String(pushed.stderr)).toMatch(new RegExp(`refs/handoffs/main/${topic}`));
      expect(String(pushed.stderr)).not.toContain(token);
      expect(handoffRefs(bare)).toBe('');
      a.git(['update-ref', '-d', `refs/handoffs/main/${topic}`]);
    }
    // the version the record was made for still goes without a second scan of its body
    expect((await a.cli(['push'])).exitCode).toBe(0);
  });
});

describe('sync --resolve scans the merged body', () => {
  it('refuses a merge that would keep a secret (exit 2, nothing written); a clean side resolves with a scan record', async () => {
    const { a, b } = await makeWorld('file');
    await ok(a, ['write', 'cache-notes', '-m', 'first', '--session', 'sess-a']);
    await ok(a, ['sync']);
    await ok(b, ['fetch']);
    await ok(a, ['write', 'cache-notes', '-m', 'second, from a', '--session', 'sess-a']);
    await ok(a, ['sync']);
    const token = 'hf_' + 'QwErTyUiOpAsDfGhJkLzXcVbNmQwErTyUi';
    plumbingVersion(b, 'cache-notes', `b's notes ${token}\n`, 'sess-a');
    await ok(b, ['fetch']);
    const tip = b.git(['rev-parse', 'refs/handoffs/main/cache-notes']).stdout.trim();
    const r = await b.cli(['sync', '--resolve', 'cache-notes', '--keep', 'both', '--session', 'sess-a', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(2);
    expect(json(r).error.code).toBe('secret-found');
    expect(String(r.stdout)).not.toContain(token);
    expect(b.git(['rev-parse', 'refs/handoffs/main/cache-notes']).stdout.trim()).toBe(tip);
    await ok(b, ['sync', '--resolve', 'cache-notes', '--keep', 'remote', '--session', 'sess-a']);
    expect(b.git(['log', '-1', '--format=%B', 'refs/handoffs/main/cache-notes']).stdout).toMatch(/^Handoff-Scanned: /m);
  });
});
