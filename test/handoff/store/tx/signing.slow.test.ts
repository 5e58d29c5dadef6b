// Optional signing (issue 8): handoff.sign=true signs with the user's git setup (here an SSH key), and
// show/log report what git says of each signature, in JSON and in text.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf, tempDir, type TestRepo } from '../../../helpers/repo';

const env = { GIT_HANDOFF_SESSION: 'signer-session' };

function sshKey(dir: string, name: string): { priv: string; pub: string } {
  const priv = path.join(dir, name);
  const r = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', priv]);
  expect(r.status, String(r.stderr)).toBe(0);
  return { priv, pub: priv + '.pub' };
}

function signingRepo(): { repo: TestRepo; key: { priv: string; pub: string }; allowed: string } {
  const repo = makeRepo({ commit: true });
  const keys = tempDir('gh-keys-');
  const key = sshKey(keys, 'signer');
  const allowed = path.join(keys, 'allowed_signers');
  repo.git(['config', 'gpg.format', 'ssh']);
  repo.git(['config', 'user.signingKey', key.pub]);
  repo.git(['config', 'handoff.sign', 'true']);
  return { repo, key, allowed };
}

const trust = (repo: TestRepo, allowed: string, pub: string, principal = 'test@example.com') => {
  writeFileSync(allowed, `${principal} ${readFileSync(pub, 'utf8')}`);
  repo.git(['config', 'gpg.ssh.allowedSignersFile', allowed]);
};

describe('optional signing', () => {
  it('signs handoff commits when handoff.sign is true, and show reports good / unverifiable / untrusted', async () => {
    const { repo, key, allowed } = signingRepo();
    const w = await repo.cli(['write', 'signed-notes', '-m', 'Goal: sign me'], { env });
    expect(w.exitCode, String(w.stderr)).toBe(0);
    const tip = refOf(repo, 'refs/handoffs/main/signed-notes')!;
    expect(repo.git(['cat-file', 'commit', tip]).stdout).toMatch(/^gpgsig -----BEGIN SSH SIGNATURE-----/m);

    // signed, but git has no allowed-signers file to check it against
    let v = JSON.parse(String((await repo.cli(['show', 'signed-notes', '--json'])).stdout));
    expect(v.signature.state).toBe('unverifiable');

    trust(repo, allowed, key.pub);
    v = JSON.parse(String((await repo.cli(['show', 'signed-notes', '--json'])).stdout));
    expect(v.signature).toMatchObject({ state: 'good', signer: 'test@example.com' });
    expect(v.signature.key).toMatch(/^SHA256:/);
    const text = await repo.cli(['show', 'signed-notes']);
    expect(String(text.stdout)).toMatch(/^signature: good \(test@example\.com, key SHA256:/m);

    // a key the allowed-signers file does not name: a valid signature of unknown validity
    trust(repo, allowed, sshKey(tempDir('gh-keys-'), 'stranger').pub, 'stranger@example.com');
    v = JSON.parse(String((await repo.cli(['show', 'signed-notes', '--json'])).stdout));
    expect(v.signature.state).toBe('untrusted');
  });

  it('log reports each version: signed, unsigned, and a forged copy that reuses a signature as bad', async () => {
    const { repo, key, allowed } = signingRepo();
    trust(repo, allowed, key.pub);
    expect((await repo.cli(['write', 'signed-notes', '-m', 'one'], { env })).exitCode).toBe(0);
    repo.git(['config', 'handoff.sign', 'false']);
    expect((await repo.cli(['write', 'signed-notes', '-m', 'two'], { env })).exitCode).toBe(0);
    const log = JSON.parse(String((await repo.cli(['log', 'signed-notes', '--json'])).stdout));
    expect(log.map((e: any) => e.signature.state)).toEqual(['none', 'good']);
    expect(log[1].signature.signer).toBe('test@example.com');
    const text = String((await repo.cli(['log', 'signed-notes'])).stdout);
    expect(text).toMatch(/signature: good \(test@example\.com/);
    expect(text.match(/signature:/g)).toHaveLength(1);

    // someone edits the signed commit's message (claiming another session) and keeps the signature
    const ref = 'refs/handoffs/main/signed-notes';
    const signed = refOf(repo, `${ref}~1`)!;
    const raw = repo.git(['cat-file', 'commit', signed]).stdout.replace('Claude-Session-Id: signer-session', 'Claude-Session-Id: forger-session');
    const forged = repo.git(['hash-object', '-t', 'commit', '-w', '--stdin'], { input: raw }).stdout.trim();
    repo.git(['update-ref', 'refs/handoffs/main/forged-copy', forged]);
    const v = JSON.parse(String((await repo.cli(['show', 'forged-copy', '--json'])).stdout));
    expect(v.session).toBe('forger-session');
    expect(v.signature.state).toBe('bad');
    const flog = JSON.parse(String((await repo.cli(['log', 'forged-copy', '--json'])).stdout));
    expect(flog[0].signature.state).toBe('bad');
  });

  it('an unverifiable signature is still reported as signed by log, and unsigned handoffs say none', async () => {
    const { repo } = signingRepo();
    expect((await repo.cli(['write', 'signed-notes', '-m', 'one'], { env })).exitCode).toBe(0);
    const log = JSON.parse(String((await repo.cli(['log', 'signed-notes', '--json'])).stdout));
    expect(log[0].signature.state).toBe('unverifiable');
    expect(String((await repo.cli(['log', 'signed-notes'])).stdout)).toMatch(/signature: unverifiable .*allowedSignersFile/);
    const plain = makeRepo({ commit: true });
    expect((await plain.cli(['write', 'plain-notes', '-m', 'x'], { env })).exitCode).toBe(0);
    const shown = JSON.parse(String((await plain.cli(['show', 'plain-notes', '--json'])).stdout));
    expect(shown.signature).toEqual({ state: 'none', key: null, signer: null });
  });

  it('a broken signing setup fails the write with exit 7 and the fix, and writes nothing', async () => {
    const { repo } = signingRepo();
    repo.git(['config', 'user.signingKey', path.join(repo.home, 'no-such-key.pub')]);
    const w = await repo.cli(['write', 'signed-notes', '-m', 'x'], { env });
    expect(w.exitCode).toBe(7);
    expect(String(w.stderr)).toMatch(/handoff\.sign is true but git could not sign/);
    expect(String(w.stderr)).toMatch(/git config handoff\.sign false/);
    expect(refOf(repo, 'refs/handoffs/main/signed-notes')).toBeNull();
  });

  it('redact signs its rewrites anew when handoff.sign is true, keeping author, committer and dates', async () => {
    const { repo, key, allowed } = signingRepo();
    trust(repo, allowed, key.pub);
    const REF = 'refs/handoffs/main/leaky-notes';
    // a signed version carrying a secret, made with plumbing (write would refuse it)
    const secret = 'ghp_' + 'Rd4'.repeat(12);
    const blob = repo.git(['hash-object', '-w', '--stdin'], { input: `leak ${secret}\n` }).stdout.trim();
    const tree = repo.git(['mktree'], { input: `100644 blob ${blob}\thandoff.md\n` }).stdout.trim();
    const dates = { GIT_AUTHOR_DATE: '2026-01-02T03:04:05Z', GIT_COMMITTER_DATE: '2026-01-02T03:04:06Z' };
    const leaky = repo.git(['commit-tree', '-S', tree], { input: 'handoff(leaky-notes): leak\n\nClaude-Session-Id: signer-session\nHandoff-Topic: leaky-notes\n', env: dates }).stdout.trim();
    repo.git(['update-ref', REF, leaky]);
    const r = await repo.cli(['redact', 'leaky-notes', '--json'], { env });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const tip = refOf(repo, REF)!;
    expect(tip).not.toBe(leaky);
    const commit = repo.git(['cat-file', 'commit', tip]).stdout;
    expect(commit).toMatch(/^gpgsig -----BEGIN SSH SIGNATURE-----/m);
    const who = (c: string) => c.split('\n').filter((l) => /^(author|committer) /.test(l));
    expect(who(commit)).toEqual(who(repo.git(['cat-file', 'commit', leaky]).stdout));
    expect(repo.git(['show', `${tip}:handoff.md`]).stdout).toBe('leak [REDACTED:github]\n');
    const shown = await repo.cli(['show', 'leaky-notes', '--json'], { env });
    expect(JSON.parse(String(shown.stdout)), String(shown.stderr)).toMatchObject({ signature: { state: 'good', signer: 'test@example.com' } });
  });
});
