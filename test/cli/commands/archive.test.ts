// `git handoff archive` and `restore` as a new user meets them: a refusal suggests the command that works, and it
// does; --reason without --take-over is an error; show and log reach an archived handoff, restore brings it back.
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf } from '../../helpers/repo';
import { cliExpect as cli } from '../helpers';

const A = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';
const B = '9e1b7c33-0000-4000-8000-00000000000b';
const REF = 'refs/handoffs/main/auth-refactor';
/** The command a refusal gives as its takeover step, as an argument list. */
function takeoverStep(stderr: string): string[] {
  const line = /take it over, on the record: git handoff (.*)$/m.exec(stderr)![1];
  return line.replace('"<why>"', 'REASON').split(' ').map((w) => (w === 'REASON' ? 'the owner finished' : w));
}

describe('refusals on archive and restore (bug 4)', () => {
  it('suggest the command that works, and it does', async () => {
    const repo = makeRepo({ commit: true });
    await cli(repo, ['write', 'auth-refactor', '--session', A, '-m', 'Goal: x']);
    const refused = await cli(repo, ['archive', 'auth-refactor', '--session', B], 3);
    expect(String(refused.stderr)).toContain('git handoff archive auth-refactor --take-over --reason "<why>"');
    expect(String(refused.stderr)).not.toContain('write auth-refactor --take-over');
    expect(String(refused.stderr)).toMatch(/last version (just now|\d+ \w+ ago)/);
    await cli(repo, [...takeoverStep(String(refused.stderr)), '--session', B]);
    expect(refOf(repo, REF)).toBeNull();

    const back = await cli(repo, ['restore', 'auth-refactor', '--session', A], 3);
    expect(String(back.stderr)).toMatch(/git handoff restore main\/auth-refactor\/\d+-[0-9a-f]{12} --take-over --reason "<why>"/);
    await cli(repo, [...takeoverStep(String(back.stderr)), '--session', A]);
    expect(json(await cli(repo, ['show', 'auth-refactor', '--json'])).session).toBe(A);
  });

  it('--reason without --take-over is an error, and nothing moves', async () => {
    const repo = makeRepo({ commit: true });
    await cli(repo, ['write', 'auth-refactor', '--session', A, '-m', 'x']);
    const tip = refOf(repo, REF);
    for (const args of [['write', 'auth-refactor', '-m', 'y'], ['archive', 'auth-refactor']]) {
      const r = await cli(repo, [...args, '--session', A, '--reason', 'why'], 2);
      expect(String(r.stderr)).toContain('--reason goes with --take-over');
      expect(refOf(repo, REF)).toBe(tip);
    }
  });
});

describe('the archive is readable', () => {
  it('show and log reach an archived handoff, show --at says how many versions there are, restore <topic> brings it back', async () => {
    const repo = makeRepo({ commit: true });
    await cli(repo, ['write', 'auth-refactor', '--session', A, '-m', 'Goal: one']);
    await cli(repo, ['write', 'auth-refactor', '--session', A, '-m', 'Goal: two']);
    const arch = await cli(repo, ['archive', 'auth-refactor', '--session', A]);
    expect(String(arch.stdout)).toContain('`git handoff restore auth-refactor` brings it back');
    const shown = await cli(repo, ['show', 'auth-refactor']);
    expect(String(shown.stdout)).toContain('refs/handoff-archive/main/auth-refactor/');
    expect(String(shown.stdout)).toContain('archived: `git handoff restore auth-refactor` brings it back');
    expect(String(shown.stdout)).toContain('Goal: two');
    // the archive itself is a version (it records who archived), so the first write is the oldest of n
    const n = json(await cli(repo, ['log', 'auth-refactor', '--json'])).length;
    expect(n).toBeGreaterThanOrEqual(2);
    expect(String((await cli(repo, ['show', 'auth-refactor', '--at', `~${n - 1}`, '--raw'])).stdout)).toBe('Goal: one');
    const far = await cli(repo, ['show', 'auth-refactor', '--at', '~5'], 2);
    expect(String(far.stderr)).toContain(`it has ${n} versions: ~0 (the newest) to ~${n - 1}`);
    const log = await cli(repo, ['log', 'auth-refactor']);
    expect(String(log.stdout)).toMatch(/^archived as main\/auth-refactor\/\d+-[0-9a-f]{12}/);
    expect(String(log.stdout).match(/handoff\(auth-refactor\)/g)).toHaveLength(n);
    await cli(repo, ['restore', 'auth-refactor', '--session', A]);
    expect(json(await cli(repo, ['show', 'auth-refactor', '--json'])).ref).toBe(REF);
    // archived twice: restore <topic> takes the newest and names the others
    await cli(repo, ['archive', 'auth-refactor', '--session', A]);
    const again = await cli(repo, ['restore', 'auth-refactor', '--session', A]);
    expect(String(again.stdout)).toContain('the newest of 2 archived versions');
    const none = await cli(repo, ['show', 'no-such-topic'], 2);
    expect(String(none.stderr)).toContain('live or archived');
  });
});
