// A claim taken over (SPEC 10): the taker takes the holder's whole claim, not only the path it asked, and both are
// told exactly that; after the takeover only the taker may write anywhere in it (through the guard). A claim taken
// over in another clone is told to its holder in its own clone once both have synced.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload } from '../../guard/helpers';
import { makeClones } from './world';

const THIRD = 'third-3c2d1e0f-cccc';

const writeCall = (repo: TestRepo, rel: string, session: string) =>
  payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, rel), content: 'x\n' } }, session);
const contextOf = (a: any): string => a?.hookSpecificOutput?.additionalContext ?? '';

async function cli(repo: TestRepo, args: string[]) {
  const r = await repo.cli(args);
  expect(r.exitCode, `git handoff ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return String(r.stdout);
}

describe('a claim taken over', () => {
  it("takes the holder's whole claim: both told so, and only the taker may write the rest of it", async () => {
    const repo = makeRepo({ commit: true });
    // the holder has made tool calls here: a session this clone's guard knows
    await guard(repo, writeCall(repo, 'notes.txt', OTHER));
    await cli(repo, ['claim', 'src/auth/', '--session', OTHER, '--note', 'moving login to OAuth']);
    const took = await cli(repo, ['claim', 'src/auth/a.ts', '--session', ME, '--take-over', '--reason', 'the OAuth move is mine now']);
    expect(took).toContain(`claimed src/auth/a.ts src/auth/ on main`);
    expect(took).toContain(`took over session ${OTHER}'s claim on src/auth/ (asked: src/auth/a.ts)`);

    const told = contextOf((await guard(repo, writeCall(repo, 'notes.txt', OTHER))).answer);
    expect(told).toContain(`session ${ME} (cli) took over your claim on src/auth/ (branch main)`);
    expect(told).toContain('"the OAuth move is mine now"');
    expect(told).toContain('it holds src/auth/a.ts src/auth/ now (asked: src/auth/a.ts), your whole claim with it');

    // the rest of the directory: the taker's alone
    expect(denial(await guard(repo, writeCall(repo, 'src/auth/b.ts', ME)))).toBeNull();
    expect(denial(await guard(repo, writeCall(repo, 'src/auth/b.ts', OTHER)))).toContain(`src/auth/b.ts is claimed by session ${ME}`);
    expect(denial(await guard(repo, writeCall(repo, 'src/auth/b.ts', THIRD)))).toContain(`src/auth/b.ts is claimed by session ${ME}`);
  }, 120_000);

  it('taken over in another clone: its holder is told at its next tool call once both clones have synced', async () => {
    const { clones } = await makeClones('file', 2);
    const [a, b] = clones;
    await guard(a, writeCall(a, 'notes.txt', OTHER));
    expect(await cli(a, ['claim', 'src/auth/', '--session', OTHER])).toContain('published to origin');
    await cli(b, ['sync']);
    expect(await cli(b, ['claim', 'src/auth/a.ts', '--session', ME, '--take-over', '--reason', 'holder is away'])).toContain(`took over session ${OTHER}'s claim on src/auth/`);
    // before a's sync, nothing is told there
    expect(contextOf((await guard(a, writeCall(a, 'notes.txt', OTHER))).answer)).not.toContain('took over your claim');
    await cli(a, ['sync']);
    const told = contextOf((await guard(a, writeCall(a, 'notes.txt', OTHER))).answer);
    expect(told).toContain(`session ${ME} (cli) took over your claim on src/auth/ (branch main)`);
    expect(told).toContain('"holder is away"');
    // told once
    expect(contextOf((await guard(a, writeCall(a, 'notes.txt', OTHER))).answer)).not.toContain('took over your claim');
    expect(denial(await guard(a, writeCall(a, 'src/auth/b.ts', OTHER)))).toContain(`claimed by session ${ME}`);
  }, 120_000);
});
