// src/cli/error-notes.ts: a topic on another branch names the --branch that reaches it; a mistyped topic gets "did you
// mean"; both commands work.
import { describe, expect, it } from 'vitest';
import { json, makeRepo } from '../helpers/repo';
import { cliRun as run } from './helpers';

describe('papercuts', () => {
  it('a topic on another branch names the --branch that reaches it; a mistyped topic gets "did you mean", and both commands work', async () => {
    const repo = makeRepo({ commit: true });
    await run(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: x']);
    repo.git(['checkout', '-q', '-b', 'feature']);
    const other = await run(repo, ['show', 'auth-refactor', '--no-receipt'], 2);
    const step = /git handoff (show .*--branch main)$/m.exec(other.err)![1].split(' ');
    expect(step).toEqual(['show', 'auth-refactor', '--no-receipt', '--branch', 'main']);
    expect((await run(repo, step)).out).toContain('Goal: x');
    repo.git(['checkout', '-q', 'main']);
    const typo = await run(repo, ['log', 'auth-refactr'], 2);
    expect(typo.err).toMatch(/did you mean auth-refactor\? git handoff log auth-refactor$/m);
    expect(json(await repo.cli(['show', 'auth-refactr', '--json'])).error.data.hint).toContain('did you mean auth-refactor?');
  });
});
