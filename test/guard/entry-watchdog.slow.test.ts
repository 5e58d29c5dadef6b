// src/guard/entry.ts against an attacker, through the real `git-handoff guard`: bounded inputs, linear patterns and a
// real watchdog — quadratic and oversized commands are decided, and past its budget the guard refuses a call that
// names protected things and allows any other.
import { describe, expect, it } from 'vitest';
import { refOf } from '../helpers/repo';
import { bash, denial, withHandoff } from './helpers';

const REF = 'refs/handoffs/main/auth-refactor';

describe('bounded inputs, linear patterns and a real watchdog (15)', () => {
  it('quadratic and oversized commands are decided quickly: refused when they name protected things', async () => {
    const repo = await withHandoff();
    const cases: Array<[string, 'deny' | 'allow']> = [
      // read as git reads a cluster, forced up to the unknown `!` (which git refuses itself); what matters is the time
      [`git push -${'f'.repeat(200 * 1024)}! origin ${REF}`, 'deny'],
      [`git push -${'f'.repeat(200 * 1024)} origin ${REF}`, 'deny'],
      ['git ' + '1'.repeat(640 * 1024), 'deny'],
      ['1'.repeat(640 * 1024) + ' > out.txt', 'allow'],
      [`git update-ref ${'refs/'.repeat(60 * 1024)}`, 'deny'],
      ['git add x;'.repeat(3000), 'deny'],
    ];
    for (const [command, expected] of cases) {
      const started = Date.now();
      const r = await bash(repo, command);
      expect(r.exitCode).toBe(0);
      expect(denial(r) === null ? 'allow' : 'deny', command.slice(0, 40)).toBe(expected);
      // well inside the watchdog (15 s) even on a loaded machine
      expect(Date.now() - started, command.slice(0, 40)).toBeLessThan(15_000);
    }
    expect(refOf(repo, REF)).not.toBeNull();
  });

  it('past its budget the guard refuses a call that names protected things and allows any other', async () => {
    const repo = await withHandoff();
    const budget = { GIT_HANDOFF_GUARD_BUDGET_MS: '1' };
    // a line long enough that reading it takes longer than 1 ms
    const heavy = `${'echo a > /dev/null; '.repeat(4000)}git update-ref -d ${REF}`;
    expect(denial(await bash(repo, heavy, budget))).toMatch(/could not check this call|moves a handoff ref/);
    expect(denial(await bash(repo, `${'echo a > /dev/null; '.repeat(4000)}echo done > out.txt`, budget))).toBeNull();
  });
});
