// Every refusal and hint can be run as printed: the caller's whole session id, the flags that selected the handoff
// kept in the take-over command, a refused shell command quoted as written, and a clone merely behind told so.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { denial, guard, payload } from '../guard/helpers';
import { makeRepo } from '../helpers/repo';
import { makeWorld, ok } from '../sync/world';

const OWNER = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';
const CALLER = '9b1e77d0-2c3d-4e5f-8a9b-0c1d2e3f4a5b';

/** The take-over line of a refusal, made runnable: its placeholder filled in. */
function takeOverLine(stderr: string): string[] {
  const line = stderr.split('\n').find((l) => l.includes('--take-over'))!;
  const cmd = line.slice(line.indexOf('git handoff ')).replace('"<why>"', '"owner gone"').replace(/ …$/, ' -m "mine now"');
  // the words after `git handoff`, as a shell would split them (no quoting beyond the reason's)
  return cmd
    .slice('git handoff '.length)
    .match(/"[^"]*"|'[^']*'|\S+/g)!
    .map((w) => w.replace(/^["']|["']$/g, ''));
}

describe('the ownership refusal', () => {
  it("gives the caller's whole id, and a take-over that keeps --branch and -C: run as printed from elsewhere, it takes that handoff over", async () => {
    const repo = makeRepo({ commit: true });
    repo.git(['branch', 'feature']);
    await ok(repo, ['write', 'auth-refactor', '-m', 'theirs', '--branch', 'feature'], 0, { GIT_HANDOFF_SESSION: OWNER });
    const elsewhere = path.dirname(repo.dir);
    const refused = await repo.cli(['-C', repo.dir, 'write', 'auth-refactor', '-m', 'mine', '--branch', 'feature'], { cwd: elsewhere, env: { GIT_HANDOFF_SESSION: CALLER } });
    expect(refused.exitCode).toBe(3);
    const stderr = String(refused.stderr);
    expect(stderr).toContain(`you are session ${CALLER}.`);
    const args = takeOverLine(stderr);
    expect(args).toEqual(expect.arrayContaining(['--branch', 'feature', '-C', repo.dir, '--take-over']));
    const again = await repo.cli(args, { cwd: elsewhere, env: { GIT_HANDOFF_SESSION: CALLER } });
    expect(again.exitCode, String(again.stderr)).toBe(0);
    const owner = repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', 'refs/handoffs/feature/auth-refactor']).stdout.trim();
    expect(owner).toBe(CALLER);
    expect(repo.git(['for-each-ref', 'refs/handoffs/main/']).stdout).toBe('');
  });

  it('edit and rename-branch keep -C too: run as printed from elsewhere, each takes over', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '-m', 'theirs'], 0, { GIT_HANDOFF_SESSION: OWNER });
    const elsewhere = path.dirname(repo.dir);
    const env = { GIT_HANDOFF_SESSION: CALLER, GIT_EDITOR: 'true' };
    for (const [args, then] of [
      [['-C', repo.dir, 'edit', 'auth-refactor'], /^no change: auth-refactor/i],
      [['-C', repo.dir, 'rename-branch', 'main', 'other'], /taken over/],
    ] as const) {
      const refused = await repo.cli([...args], { cwd: elsewhere, env });
      expect(refused.exitCode, args.join(' ')).toBe(3);
      const line = takeOverLine(String(refused.stderr)).filter((w) => w !== '-m' && w !== 'mine now');
      expect(line).toEqual(expect.arrayContaining(['-C', repo.dir, '--take-over']));
      const again = await repo.cli(line, { cwd: elsewhere, env });
      expect(again.exitCode, `${line.join(' ')}: ${again.stderr}`).toBe(0);
      expect(String(again.stdout)).toMatch(then);
    }
  });

  it('keeps --person', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '-m', 'theirs'], 0, { GIT_HANDOFF_SESSION: OWNER });
    const refused = await repo.cli(['write', 'auth-refactor', '-m', 'mine', '--person']);
    expect(refused.exitCode).toBe(3);
    expect(takeOverLine(String(refused.stderr))).toEqual(expect.arrayContaining(['--person', '--take-over']));
  });
});

describe('a refused shell command is quoted as written', () => {
  it('`$(git rev-parse …)` and quotes stay', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '-m', 'theirs'], 0, { GIT_HANDOFF_SESSION: OWNER });
    const command = `echo start && git update-ref -d "refs/handoffs/main/auth-refactor" "$(git rev-parse refs/handoffs/main/auth-refactor)"; echo done`;
    const why = denial(await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, CALLER)));
    expect(why).toContain('`git update-ref -d "refs/handoffs/main/auth-refactor" "$(git rev-parse refs/handoffs/main/auth-refactor)"`');
  });
});

describe('verify names the likely cause', () => {
  it('a clone merely behind is told "not pulled?", with where the commit is', async () => {
    const { a, b } = await makeWorld('file');
    a.git(['push', 'origin', 'HEAD:main']);
    b.git(['fetch', 'origin']);
    b.git(['reset', '--hard', 'origin/main']);
    a.commit('more work', { 'x.txt': 'x\n' });
    a.git(['push', 'origin', 'HEAD:main']);
    await ok(a, ['write', 'auth-refactor', '-m', 'theirs'], 0, { GIT_HANDOFF_SESSION: OWNER });
    await ok(a, ['push']);
    b.git(['fetch', 'origin']);
    await ok(b, ['fetch']);
    const boot = await ok(b, ['boot', '--session', CALLER]);
    expect(boot.stdout).toContain('branch is behind what it describes: not pulled? (origin/main has it: git pull)');
  });

  it('a branch moved back with nothing that has the commit is still "reset?"', async () => {
    const repo = makeRepo({ commit: true });
    repo.commit('more', { 'x.txt': 'x\n' });
    await ok(repo, ['write', 'auth-refactor', '-m', 'theirs'], 0, { GIT_HANDOFF_SESSION: OWNER });
    repo.git(['reset', '--hard', 'HEAD~1']);
    const boot = await ok(repo, ['boot', '--session', CALLER]);
    expect(boot.stdout).toContain('branch is behind what it describes (reset?)');
  });
});
