// `git handoff list` says what is there: --mine with none of mine says how many others have, and an encoded branch is
// printed as people name it.
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../helpers/repo';
import { cliExpect as cli } from '../helpers';

const A = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';
const B = '9e1b7c33-0000-4000-8000-00000000000b';

describe('messages that say what is there', () => {
  it('list --mine with none of mine says how many others have; an encoded branch is printed as people name it', async () => {
    const repo = makeRepo({ commit: true });
    for (const t of ['auth-refactor', 'login-loop']) await cli(repo, ['write', t, '--session', A, '-m', 'x']);
    const mine = await cli(repo, ['list', '--mine', '--session', B]);
    expect(String(mine.stdout)).toBe('no handoffs of session 9e1b7c33 on branch main (2 of other sessions: git handoff list)');
    const w = await cli(repo, ['write', 'auth-refactor', '--session', A, '--branch', 'feature/login', '-m', 'x']);
    expect(String(w.stdout)).toMatch(/^refs\/handoffs\/feature%2Flogin\/auth-refactor \(branch feature\/login\) [0-9a-f]{7} \(created\)$/);
  });
});
