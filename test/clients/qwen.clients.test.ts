// The real Qwen Code (0.24.4), offline against a scripted Chat Completions API (shared/tools/qwen-offline), in a
// repository wired by `git handoff install --agent qwen` (.qwen/settings.json in Claude Code's format): refusals in
// the hookSpecificOutput shape it obeys, QWEN_CODE_SESSION_ID, the startup view; and its folder-trust gate as
// doctor reports it, checked against the client itself.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { json, type TestRepo } from '../helpers/repo';
import { expectScenario, preparedRepo, scenario, THEIR_REF } from './agent-scenario';
import { chatServer, type ChatServer, type ScriptCall } from './chat-script';
import { ensureQwen, PATH_WITH_BIN, QWEN_OFFLINE, useOffline } from './deps';

const client = useOffline(QWEN_OFFLINE, 'qwen-offline', ensureQwen);

const shell = (command: string): ScriptCall => ({ tool: 'run_shell_command', args: { command, description: 'run it' } });
const writeFile = (file: string, content: string): ScriptCall => ({ tool: 'write_file', args: { file_path: file, content } });

/** The user's Qwen settings: OpenAI-compatible auth (the fake API); `folderTrust` turns its trust gate on. */
function userSettings(repo: TestRepo, folderTrust = false): void {
  mkdirSync(path.join(repo.home, '.qwen'), { recursive: true });
  const settings = { security: { auth: { selectedType: 'openai' }, ...(folderTrust ? { folderTrust: { enabled: true } } : {}) }, privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true } };
  writeFileSync(path.join(repo.home, '.qwen', 'settings.json'), JSON.stringify(settings));
}

/** One `qwen -p --approval-mode yolo` run with the script; its session id read off its chat file. */
async function run(repo: TestRepo, script: ScriptCall[]): Promise<{ api: ChatServer; session: string; out: string }> {
  const api = await chatServer(script);
  try {
    const r = await execa(process.execPath, [client.path, '-p', 'do the task', '--approval-mode', 'yolo'], {
      cwd: repo.dir,
      env: { ...(repo.env as Record<string, string>), PATH: PATH_WITH_BIN, OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: api.url, OPENAI_MODEL: 'fake-model' },
      extendEnv: false,
      reject: false,
      timeout: 240_000,
      input: '',
    });
    const projects = path.join(repo.home, '.qwen', 'projects');
    const chats = readdirSync(projects).flatMap((p) => {
      try {
        return readdirSync(path.join(projects, p, 'chats'));
      } catch {
        return [];
      }
    });
    const sessions = chats.filter((c) => c.endsWith('.jsonl')).map((c) => c.slice(0, -'.jsonl'.length));
    expect(sessions, `${r.stdout}\n${r.stderr}`).toHaveLength(1);
    return { api, session: sessions[0], out: `${r.stdout}\n${r.stderr}` };
  } finally {
    await api.close();
  }
}

describe('Qwen Code, offline', () => {
  it('install --agent qwen: refusals in its own shape, QWEN_CODE_SESSION_ID, the startup view', async () => {
    const repo = await preparedRepo('qwen');
    userSettings(repo);
    const doctor = json(await repo.cli(['doctor', '--json'], { env: { PATH: PATH_WITH_BIN } })).items;
    expect(doctor.find((i: any) => i.component === 'agent qwen')).toMatchObject({ status: 'ok' });
    expect(doctor.find((i: any) => i.component === 'agent qwen trust')).toMatchObject({ status: 'ok', detail: expect.stringContaining('folder trust is off') });
    const { api, session, out } = await run(repo, scenario(repo, shell, writeFile));
    expect(api.results.every((r) => r !== undefined), out).toBe(true);
    // the handoff skill install put in .agents/skills reaches the model
    expect(JSON.stringify(api.requests).includes('Write, read or check the handoff notes')).toBe(true);
    expectScenario(repo, api, session, 'qwen-code');
  });

  it('with folder trust on and the repository untrusted, doctor says it is broken and Qwen Code indeed runs no hook', async () => {
    const repo = await preparedRepo('qwen');
    userSettings(repo, true);
    const doctor = await repo.cli(['doctor', '--json'], { env: { PATH: PATH_WITH_BIN } });
    expect(json(doctor).items.find((i: any) => i.component === 'agent qwen trust')).toMatchObject({ status: 'broken', detail: expect.stringContaining('TRUST_FOLDER') });
    expect(doctor.exitCode).not.toBe(0);
    // what doctor warns of: no hook ran (no startup view, no session seen), and the model was offered no shell
    const { api } = await run(repo, [shell(`git update-ref -d ${THEIR_REF}`)]);
    expect(api.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(api.requests).includes('you are session'), 'no startup view').toBe(false);
    expect(api.requests.every((r) => !(r.tools ?? []).some((t: any) => t.function?.name === 'run_shell_command'))).toBe(true);
    // trusted as doctor says: ok
    writeFileSync(path.join(repo.home, '.qwen', 'trustedFolders.json'), JSON.stringify({ [repo.dir]: 'TRUST_FOLDER' }));
    const after = json(await repo.cli(['doctor', '--json'], { env: { PATH: PATH_WITH_BIN } })).items;
    expect(after.find((i: any) => i.component === 'agent qwen trust')).toMatchObject({ status: 'ok' });
  });
});
