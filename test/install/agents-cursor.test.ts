// `git handoff install --agent cursor` writes a whole .cursor/hooks.json, no placeholders.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';
import { cliRun as run } from '../cli/helpers';

describe('papercuts', () => {
  it('install --agent cursor writes a whole .cursor/hooks.json, no placeholders', async () => {
    const repo = makeRepo({ commit: true });
    const { out } = await run(repo, ['install', '--agent', 'cursor', '--no-hooks']);
    expect(out).toContain('.cursor/hooks.json: wired');
    const text = readFileSync(path.join(repo.dir, '.cursor', 'hooks.json'), 'utf8');
    expect(text).not.toContain('[...');
    const file = JSON.parse(text);
    expect(Object.keys(file.hooks)).toEqual(['preToolUse', 'sessionStart', 'stop', 'preCompact', 'sessionEnd']);
    for (const entries of Object.values(file.hooks) as any[]) for (const e of entries) expect(e.command).toBe('git-handoff guard --client=cursor');
  });
});
