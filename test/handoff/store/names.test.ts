import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertTopic, decodeBranch, encodeBranch, handoffRef, isValidTopic, overlapOf, overlapTokens, parseRef } from '../../../src/handoff/store/names';

// Branch names as people and tools make them: ASCII with separators, unicode, and arbitrary strings.
const branchArb = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._\/%+@-]{1,60}$/),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 120 }).filter((s) => Buffer.from(s, 'utf8').toString('utf8') === s),
);

/** Refnames git itself accepts: checked in one `git check-ref-format --stdin`-less batch per sample. */
function gitAccepts(refs: string[]): boolean[] {
  return refs.map((r) => spawnSync('git', ['check-ref-format', r]).status === 0);
}

describe('topic grammar', () => {
  it('accepts the examples of the spec and refuses the colliding ones', () => {
    for (const t of ['auth-refactor', 'login-redirect-loop', 'a1-b2']) expect(isValidTopic(t)).toBe(true);
    for (const t of ['main', 'fix', 'fix-main', 'the-and', 'Auth-refactor', 'auth_refactor', 'auth--x', '-auth-x', 'auth-', 'a'.repeat(40) + '-' + 'b'.repeat(30)])
      expect(isValidTopic(t)).toBe(false);
  });
  it('refuses with exit code 2, the rule and an example', () => {
    try {
      assertTopic('fix-main');
      expect.unreachable();
    } catch (e: any) {
      expect(e.exitCode).toBe(2);
      expect(e.message).toMatch(/stopwords/);
      expect(e.message).toMatch(/auth-refactor/);
    }
  });
  it('overlap compares the first two non-stopword tokens', () => {
    expect(overlapTokens('fix-auth-token-refresh')).toEqual({ key: ['auth', 'token'], dropped: ['fix'] });
    expect(overlapTokens('login-redirect-loop').key).toEqual(['login', 'redirect']);
    expect(overlapOf('fix-auth-token-refresh', 'auth-token-expiry')).toEqual({ shared: ['auth', 'token'], dropped: ['fix'] });
    // the seed's own case: branch words are stopwords, so these two file stems overlap on search-index
    expect(overlapOf('feat-search-index-v1', 'main-search-index-rewrite')).toEqual({ shared: ['search', 'index'], dropped: ['feat', 'main'] });
  });
  it('never overlaps on fewer than two shared tokens (issue 15 bug 5)', () => {
    expect(overlapOf('test-pass', 'docs-pass')).toBeNull();
    expect(overlapOf('refactor-auth', 'auth-login')).toBeNull();
    expect(overlapOf('auth-login-v2', 'auth-logout')).toBeNull();
    expect(overlapOf('login-auth', 'auth-login')).toBeNull();
  });
});

describe('branch encoding', () => {
  it('matches the spec examples', () => {
    expect(encodeBranch('main')).toBe('main');
    expect(encodeBranch('feature/Login.v2')).toBe('feature%2F%4Cogin%2Ev2');
    expect(handoffRef('feature/Login.v2', 'auth-refactor')).toBe('refs/handoffs/feature%2F%4Cogin%2Ev2/auth-refactor');
  });
  it('keeps a name of kept bytes whole up to 200 bytes, and cuts it at 201', () => {
    expect(encodeBranch('x'.repeat(200))).toBe('x'.repeat(200));
    const b = 'a-b_9'.repeat(40) + 'z';
    expect(encodeBranch(b)).toBe(b.slice(0, 180) + '+' + createHash('sha1').update(b).digest('hex').slice(0, 16));
    expect(encodeBranch('main\u00e9')).toBe('main%C3%A9');
  });
  it('cuts a component over 200 bytes to 180 bytes, "+" and 16 hex of the SHA-1 of the name', () => {
    const b = 'x'.repeat(300);
    const sha = createHash('sha1').update(b).digest('hex');
    expect(encodeBranch(b)).toBe('x'.repeat(180) + '+' + sha.slice(0, 16));
    expect(decodeBranch(encodeBranch(b))).toBeNull();
  });
  it('round-trips, stays one component of allowed bytes, and is injective (property)', () => {
    fc.assert(
      fc.property(branchArb, (b) => {
        const e = encodeBranch(b);
        expect(e).toMatch(/^[a-z0-9_%+A-F-]+$/);
        expect(e.includes('/')).toBe(false);
        // A cut component (180 bytes + '+' + 16 hex = 197) is also <= 200 but does not decode: its name is in the trailer.
        if (!e.includes('+')) expect(decodeBranch(e)).toBe(b);
        else expect(decodeBranch(e)).toBeNull();
        expect(e.length).toBeLessThanOrEqual(200);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(branchArb, branchArb, (a, b) => {
        if (a !== b) expect(encodeBranch(a)).not.toBe(encodeBranch(b));
      }),
      { numRuns: 2000 },
    );
  });
  it('always gives a valid four-component refname under refs/handoffs (checked by git check-ref-format)', () => {
    const samples = fc.sample(branchArb, 150);
    samples.push('a', 'a/b', 'HEAD', '.hidden', 'x.lock', 'we ird', 'ü/ñ', 'a..b', '@{-1}', 'x'.repeat(300));
    const refs = samples.map((b) => handoffRef(b, 'auth-refactor'));
    for (const r of refs) expect(r.split('/')).toHaveLength(4);
    expect(gitAccepts(refs).every(Boolean)).toBe(true);
    for (const r of refs) expect(parseRef(r)?.topic).toBe('auth-refactor');
  });
});
