// `git handoff doctor` calls a client nobody wired "not wired", with the command that wires it.
import { describe, expect, it } from 'vitest';
import { json, makeRepo } from '../helpers/repo';

describe('messages that say what is there', () => {
  it('doctor calls a client nobody wired "not wired", with the command that wires it', async () => {
    const repo = makeRepo({ commit: true });
    const items = json(await repo.cli(['doctor', '--json'])).items;
    expect(items.find((i: any) => i.component === 'agent claude')).toEqual({
      component: 'agent claude',
      status: 'info',
      detail: 'not wired (.claude/settings.json not present); to use it: git handoff install --agent claude',
    });
  });
});
