// src/handoff/store/address.ts: --to claude is client:claude-code.
import { describe, expect, it } from 'vitest';
import { json, makeRepo } from '../../helpers/repo';
import { cliRun as run } from '../../cli/helpers';

describe('papercuts', () => {
  it('--to claude is client:claude-code', async () => {
    const repo = makeRepo({ commit: true });
    await run(repo, ['write', 'release-plan', '--person', '--to', 'claude', '-m', 'x']);
    expect(json(await repo.cli(['show', 'release-plan', '--json'])).to).toEqual(['client:claude-code']);
  });
});
