// Which claimed paths overlap (src/handoff/claims/overlap.ts): files, directories and globs, read by picomatch.
import { describe, expect, it } from 'vitest';
import { normalizeSpec, overlapping, pathClaimed, specsOverlap } from '../../../src/handoff/claims/overlap';

describe('specsOverlap', () => {
  it.each([
    ['src/auth/', 'src/auth/login.ts', true],
    ['src/auth/', 'src/authz/login.ts', false],
    ['src/auth/', 'src/', true],
    ['src/a.ts', 'src/a.ts', true],
    ['src/a.ts', 'src/b.ts', false],
    ['src/**/*.ts', 'src/auth/login.ts', true],
    ['src/**/*.ts', 'src/auth/login.md', false],
    ['src/*.ts', 'src/auth/login.ts', false],
    ['src/**/*.ts', 'src/auth/*.ts', true],
    ['src/**/*.ts', 'src/**/*.md', false],
    ['src/**/*.ts', 'docs/**', false],
    ['src/auth/', 'src/**/*.md', true],
    ['*.ts', 'a*', true],
    ['lib/{a,b}.ts', 'lib/a.ts', true],
    ['lib/{a,b}.ts', 'lib/c.ts', false],
  ])('%s against %s: %s', (a, b, want) => {
    expect(specsOverlap(a, b)).toBe(want);
    expect(specsOverlap(b, a)).toBe(want);
  });

  it('names each overlapping pair, and the spec a written file falls under', () => {
    expect(overlapping(['src/auth/', 'docs/x.md'], ['src/**/*.ts', 'README.md'])).toEqual([['src/auth/', 'src/**/*.ts']]);
    expect(pathClaimed('src/auth/login.ts', ['docs/', 'src/auth/'])).toBe('src/auth/');
    expect(pathClaimed('src/db.ts', ['docs/', 'src/auth/'])).toBeNull();
  });
});

describe('normalizeSpec', () => {
  const top = '/repo';
  const dir = (abs: string) => abs === '/repo/src/auth';
  it('makes paths relative to the worktree top, and marks directories', () => {
    expect(normalizeSpec('auth', '/repo/src', top, dir)).toBe('src/auth/');
    expect(normalizeSpec('./login.ts', '/repo/src/auth', top, dir)).toBe('src/auth/login.ts');
    expect(normalizeSpec('**/*.ts', '/repo/src', top, dir)).toBe('src/**/*.ts');
    expect(normalizeSpec('/repo/docs/', '/repo/src', top, dir)).toBe('docs/');
  });
  it('refuses what is outside the worktree, the worktree itself, and empty input (exit 2)', () => {
    for (const bad of ['../x', '/etc/passwd', '.', '', ' ']) {
      let code: number | undefined;
      try {
        normalizeSpec(bad, '/repo', top, dir);
      } catch (e) {
        code = (e as { exitCode?: number }).exitCode;
      }
      expect(code, bad).toBe(2);
    }
  });
});
