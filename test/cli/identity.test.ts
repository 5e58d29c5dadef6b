// src/cli/identity.ts: with no session id the refusal names --person, and --person works where it is named (sync
// --resolve takes it).
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';
import { cliRun as run } from './helpers';

describe('papercuts', () => {
  it('no session id names --person, and --person works where it is named (sync --resolve takes it)', async () => {
    const repo = makeRepo({ commit: true });
    const { err } = await run(repo, ['write', 'auth-refactor', '-m', 'x'], 5);
    expect(err).toContain('--person to act as the person in git config');
    await run(repo, ['write', 'auth-refactor', '--person', '-m', 'x']);
    // sync --resolve knows --person (it used to suggest --version); with nothing diverged it says so, not "unknown argument"
    const r = await repo.cli(['sync', '--resolve', 'auth-refactor', '--keep', 'local', '--person']);
    expect(String(r.stderr)).not.toMatch(/Unknown argument|did you mean --version/);
  });
});
