// src/guard/rules/anchors.ts: only the person moves the anchors. The guard by hand (every spelling of git-handoff's
// programs), install and uninstall, recover --from, and claim or release for another session are refused to a tool
// call in every client's shape in-process and through the real sh front; the commands themselves refuse inside an
// agent session (src/cli/person-only.ts) and the guard's SessionEnd ends no session but the one whose shell it runs
// in (src/guard/lifecycle.ts), so the attack run for real leaves the other session's lease and claims in place.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../../helpers/repo';
import { expectShell5, world5, type World5 } from '../world-wired';
import { ME, OTHER, payload, wroteFile } from '../helpers';

const leaseOf = (w: World5) => w.repo.git(['for-each-ref', '--format=%(contents)', 'refs/handoff-leases/']).stdout;
const claimsOf = async (w: World5) => JSON.parse(String((await w.repo.cli(['claims', '--json'])).stdout)) as Array<{ session: string; paths: string[] }>;

/** world5 with OTHER live in it (its lease, from a tool call of its own, and a claim), and OTHER's end event quoted for sh. */
async function liveOther(): Promise<{ w: World5; end: string }> {
  const w = await world5();
  await wroteFile(w.repo, 'src/other.ts', OTHER);
  const c = await w.repo.cli(['claim', 'src/a.ts', '--note', 'theirs'], { env: { GIT_HANDOFF_SESSION: OTHER } });
  expect(c.exitCode, String(c.stderr)).toBe(0);
  return { w, end: JSON.stringify(payload(w.repo, 'claude-code/real-session-end.json', {}, OTHER)).replace(/'/g, "'\\''") };
}

describe('only the person moves the anchors', () => {
  it("git-handoff's guard run by a tool call is refused in every spelling", async () => {
    const { w, end } = await liveOther();
    await expectShell5(
      w,
      [
        `printf '%s' '${end}' | git handoff guard`,
        `printf '%s' '${end}' | git-handoff guard`,
        `printf '%s' '${end}' | git handoff -C . guard --client=claude-code`,
        `git-handoff-guard --client=claude-code < /dev/null`,
        `git-handoff-front --client=claude-code < /dev/null`,
        `sh ${ROOT}/bin/git-handoff-guard --client=claude-code < /dev/null`,
        `. git-handoff-guard`,
        `node ${ROOT}/dist/guard.cjs guard < /dev/null`,
        `node /opt/gh/dist/guard.cjs < /dev/null`,
        `node ${ROOT}/dist/cli.cjs guard < /dev/null`,
        `env -i PATH=/usr/bin git handoff guard < /dev/null`,
        `sh -c 'git handoff guard' < /dev/null`,
        `bash -c "git-handoff guard" < /dev/null`,
        `echo x | xargs git handoff guard`,
        `"$(command -v git-handoff-guard)" --client=codex < /dev/null`,
        `${BIN} guard < /dev/null`,
        `exec -a x git-handoff-guard`,
        `npx git-handoff guard < /dev/null`,
        `npm exec -- git-handoff-guard --client=codex < /dev/null`,
        `python3 -c "import subprocess; subprocess.run(['git', 'handoff', 'guard'], input=b'{}')"`,
        `node -e "require('child_process').execSync('git-handoff-guard --client=claude-code', {input: '{}'})"`,
      ],
      'deny',
    );
  });

  it('install, uninstall, recover --from and claim/release for another session are refused; the session’s own forms pass', async () => {
    const { w } = await liveOther();
    await expectShell5(
      w,
      [
        'git handoff uninstall --agent claude',
        'git handoff uninstall',
        'git handoff install --agent codex',
        'git-handoff install --hooks',
        'sh -c "git handoff uninstall --agent gemini"',
        'git handoff recover --from origin',
        'git handoff recover --from=backup',
        `git handoff claim src/a.ts --session ${OTHER} --ttl 1m`,
        `GIT_HANDOFF_SESSION=${OTHER} git handoff claim src/a.ts --ttl 1m`,
        `CLAUDE_CODE_SESSION_ID=${OTHER} git handoff claim src/b.ts`,
        `git handoff release --session ${OTHER}`,
        `git handoff release src/a.ts --session=${OTHER}`,
        `node -e "require('child_process').execSync('git handoff uninstall --agent claude')"`,
        // git-handoff's installation changed by another program: a package manager, a client's plugin or extension command
        'npm uninstall -g git-handoff',
        'npm i -g git-handoff@0.0.1',
        'pnpm remove --global git-handoff',
        'claude plugin uninstall git-handoff@git-handoff',
        'gemini extensions disable git-handoff',
      ],
      'deny',
    );
    await expectShell5(
      w,
      [
        'git handoff claim src/mine.ts --note "mine"',
        `git handoff claim src/mine.ts --session ${ME}`,
        'git handoff release src/mine.ts',
        'git handoff recover',
        'git handoff recover --scan',
        'git handoff write my-own-note -m hello',
        'git handoff show auth-refactor',
        'git handoff list --all',
        'git handoff claims',
        'git handoff doctor',
        'git handoff sessions',
        'npm install',
        'npm i -D vitest',
        'npx vitest run',
        `python3 -c "import subprocess; subprocess.run(['git', 'status'])"`,
      ],
      'allow',
    );
  });

  it("the SessionEnd attack run for real from another session's shell ends nothing; the client's own end event still ends its session", async () => {
    const { w, end } = await liveOther();
    expect(leaseOf(w)).toContain(`Claude-Session-Id: ${OTHER}`);
    // ME's shell (its session variable set, as Claude Code exports it) pipes OTHER's end event into the guard
    const r = spawnSync('sh', ['-c', `printf '%s' '${end}' | "${BIN}" guard`], { cwd: w.repo.dir, env: { ...w.repo.env, CLAUDE_CODE_SESSION_ID: ME }, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(leaseOf(w)).toContain(`Claude-Session-Id: ${OTHER}`);
    expect((await claimsOf(w)).filter((c) => c.session === OTHER).map((c) => c.paths)).toEqual([['src/a.ts']]);
    // OTHER's own client, its variable naming it, ends it
    const own = spawnSync('sh', ['-c', `printf '%s' '${end}' | "${BIN}" guard`], { cwd: w.repo.dir, env: { ...w.repo.env, CLAUDE_CODE_SESSION_ID: OTHER }, encoding: 'utf8' });
    expect(own.status).toBe(0);
    expect(leaseOf(w)).not.toContain(`Claude-Session-Id: ${OTHER}`);
    expect((await claimsOf(w)).filter((c) => c.session === OTHER)).toEqual([]);
  });
});

describe('the commands refuse inside an agent session', () => {
  it('install, uninstall and recover --from exit 2 (person-only) and change nothing; claim and release for another session exit 2 (other-session)', async () => {
    const w = await world5();
    const settings = () => spawnSync('cat', [path.join(w.repo.dir, '.claude', 'settings.json')], { encoding: 'utf8' }).stdout;
    const before = settings();
    for (const [args, env] of [
      [['uninstall', '--agent', 'claude'], { CLAUDE_CODE_SESSION_ID: ME }],
      [['install', '--agent', 'codex'], { CODEX_THREAD_ID: ME }],
      [['uninstall', '--agent', 'claude'], { GEMINI_CLI: '1' }],
      [['recover', '--from', 'origin'], { QWEN_CODE_SESSION_ID: ME }],
    ] as const) {
      const r = await w.repo.cli([...args], { env });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(String(r.stderr)).toMatch(/the person's to run/);
      expect(settings()).toBe(before);
    }
    const claim = await w.repo.cli(['claim', 'src/a.ts', '--session', OTHER, '--json'], { env: { CLAUDE_CODE_SESSION_ID: ME } });
    expect(claim.exitCode).toBe(2);
    expect(JSON.parse(String(claim.stdout)).error.code).toBe('other-session');
    const release = await w.repo.cli(['release', '--session', OTHER], { env: { CLAUDE_CODE_SESSION_ID: ME } });
    expect(release.exitCode).toBe(2);
    // a person's terminal (no client variable) and a session acting for itself
    expect((await w.repo.cli(['claim', 'src/a.ts', '--session', OTHER])).exitCode).toBe(0);
    expect((await w.repo.cli(['claim', 'src/b.ts'], { env: { CLAUDE_CODE_SESSION_ID: ME } })).exitCode).toBe(0);
    expect((await w.repo.cli(['release', 'src/b.ts'], { env: { CLAUDE_CODE_SESSION_ID: ME } })).exitCode).toBe(0);
    const un = await w.repo.cli(['uninstall', '--agent', 'claude']);
    expect(un.exitCode, String(un.stderr)).toBe(0);
  });
});
