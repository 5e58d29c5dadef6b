// Issue 23: the git hooks come with the agent wiring, and a client's trust gate is a broken state with its fix.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf, ROOT } from '../helpers/repo';

const REF = 'refs/handoffs/main/login-redirect-loop';
const onPath = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };

describe('install --agent brings the git hooks', () => {
  for (const agent of ['codex', 'gemini']) {
    it(`${agent}: a raw update-ref -d of another session's handoff is refused by the hooks, whatever the client runs`, async () => {
      const repo = makeRepo({ commit: true });
      const install = await repo.cli(['install', '--agent', agent], { env: onPath });
      expect(install.exitCode).toBe(0);
      expect(install.stdout).toMatch(/reference-transaction/);
      // the step that fixes the client's gate is printed at install
      expect(install.stdout).toMatch(agent === 'codex' ? /trust each git-handoff hook/ : /TRUST_FOLDER/);
      expect((await repo.cli(['write', 'login-redirect-loop', '-m', 'Goal: x', '--session', 'sess-owner'], { env: onPath })).exitCode).toBe(0);
      const tip = refOf(repo, REF);
      // what the model ran, in a shell with no git-handoff session of the owner
      const r = repo.git(['update-ref', '-d', REF], { allowFail: true, env: { ...onPath, CODEX_THREAD_ID: 'sess-model' } });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/ref updates aborted by hook|refused/);
      expect(refOf(repo, REF)).toBe(tip);
    });
  }

  it('--no-hooks wires the agent only, and says what that leaves', async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['install', '--agent', 'claude', '--no-hooks'], { env: onPath });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/git hooks not installed \(--no-hooks\)/);
    const hooks = json(await repo.cli(['doctor', '--json'], { env: onPath })).items.filter((i: any) => /reference-transaction/.test(i.component));
    expect(hooks.every((i: any) => i.status !== 'ok')).toBe(true);
  });
});

describe('trust gates in doctor', () => {
  it('Gemini CLI: broken in a folder not trusted, ok once trusted; doctor exits non-zero while a row is broken', async () => {
    const repo = makeRepo({ commit: true });
    await repo.cli(['install', '--agent', 'gemini'], { env: onPath });
    let d = await repo.cli(['doctor', '--json'], { env: onPath });
    expect(json(d).items.find((i: any) => i.component === 'agent gemini trust')).toMatchObject({ status: 'broken', detail: expect.stringContaining(`"${repo.dir}": "TRUST_FOLDER"`) });
    expect(d.exitCode).not.toBe(0);
    mkdirSync(path.join(repo.home, '.gemini'), { recursive: true });
    writeFileSync(path.join(repo.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [repo.dir]: 'TRUST_FOLDER' }));
    d = await repo.cli(['doctor', '--json'], { env: onPath });
    expect(json(d).items.find((i: any) => i.component === 'agent gemini trust').status).toBe('ok');
    // folder trust turned off in Gemini's settings: its project hooks run anywhere
    writeFileSync(path.join(repo.home, '.gemini', 'trustedFolders.json'), '{}');
    writeFileSync(path.join(repo.home, '.gemini', 'settings.json'), JSON.stringify({ security: { folderTrust: { enabled: false } } }));
    d = await repo.cli(['doctor', '--json'], { env: onPath });
    expect(json(d).items.find((i: any) => i.component === 'agent gemini trust').status).toBe('ok');
  });

  it('Codex before it ever ran: broken, naming what it will skip and the step', async () => {
    const repo = makeRepo({ commit: true });
    await repo.cli(['install', '--agent', 'codex'], { env: onPath });
    const d = await repo.cli(['doctor', '--json'], { env: onPath });
    expect(json(d).items.find((i: any) => i.component === 'agent codex trust')).toMatchObject({ status: 'broken', detail: expect.stringMatching(/has not run here yet.*skip every git-handoff hook.*Fix: /) });
    expect(d.exitCode).toBe(1);
  });

  it('the plugin install path says how to add the git hooks per repository', async () => {
    const repo = makeRepo({ commit: true });
    // the OpenCode plugin installs for the user with no client binary needed (Claude's and Gemini's run their CLI)
    const r = await repo.cli(['install', '--agent', 'opencode', '--plugin'], { env: { ...onPath, XDG_CONFIG_HOME: path.join(repo.home, '.config') } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('git handoff install --hooks');
  });
});
