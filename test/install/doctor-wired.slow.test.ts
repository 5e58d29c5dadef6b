// `git handoff doctor` where the repository is wired: the plugin and the extension are not "missing", and no
// format-1 paragraph; with nothing wired the plugin is what is missing.
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';
import { cliText as cli } from '../cli/helpers';

describe('a newcomer\'s setup (item 14)', () => {
  it('doctor where the repository is wired: the plugin and the extension are not "missing", and no format-1 paragraph', async () => {
    const repo = makeRepo({ commit: true });
    expect((await cli(repo, ['install', '--agent', 'claude,gemini'])).exitCode).toBe(0);
    const items = JSON.parse((await cli(repo, ['doctor', '--json'])).stdout).items as Array<{ component: string; status: string; detail: string }>;
    for (const c of ['plugin claude', 'extension gemini']) expect(items.find((i) => i.component === c), c).toMatchObject({ status: 'info', detail: expect.stringContaining('not needed here') });
    const text = (await cli(repo, ['doctor'])).stdout;
    expect(text).not.toMatch(/missing/);
    expect(text).not.toContain('format-1');
    // with nothing wired, the plugin is still what is missing
    const bare = makeRepo({ commit: true });
    const none = JSON.parse((await cli(bare, ['doctor', '--json'])).stdout).items as Array<{ component: string; status: string }>;
    expect(none.find((i) => i.component === 'plugin claude')?.status).toBe('missing');
  });
});
