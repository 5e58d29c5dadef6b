// src/cli/parser.ts: -h examples are whole lines at any width; list's headers name the JSON key.
import { describe, expect, it } from 'vitest';
import { json, makeRepo } from '../helpers/repo';
import { cliRun as run } from './helpers';

describe('papercuts', () => {
  it('-h examples are whole lines at any width; list headers name the JSON key', async () => {
    const repo = makeRepo({ commit: true });
    for (const columns of ['80', '200']) {
      const { out } = await run(repo, ['write', '-h'], 0, { COLUMNS: columns });
      const examples = out.slice(out.indexOf('Examples:'));
      expect(examples).toContain('\n  git handoff write release-checklist --person --to client:claude-code -m "…"\n');
      expect(examples).toContain('\n  # as the person in git config, for the next Claude Code session\n');
    }
    await run(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'x']);
    const { out } = await run(repo, ['list']);
    expect(out.split('\n')[0].split(/\s+/)).toEqual(['BRANCH', 'TOPIC', 'SESSION', 'UPDATED', 'SYNC']);
    expect(Object.keys(json(await repo.cli(['list', '--json']))[0])).toContain('session');
  });
});
