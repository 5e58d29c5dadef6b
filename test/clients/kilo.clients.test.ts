// The real Kilo Code CLI (7.7.7), offline (a custom OpenAI-compatible provider against a scripted Chat Completions
// API), in a repository wired by `git handoff install --agent kilo` (the plugin .kilo/plugin/git-handoff.js): the
// startup view in the system prompt, another session's handoff file overwritten with its write tool and deleted from
// its shell refused (the model's tool result is the reason, the turn goes on), a background process deleting it
// refused too, a write of a claimed path told with the holder's note (handoff.claims=tell), and its own `git handoff write` recorded under
// its session (KILO_SESSION_ID in the shell); uninstall gives the files back byte for byte.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { TestRepo } from '../helpers/repo';
import { chatServer, type ChatServer, type ScriptCall } from './chat-script';
import { ensureKilo, KILO_OFFLINE, PATH_WITH_BIN, useOffline } from './deps';
import { expectTheirsIntact, expectUninstalled, HOLDER, NOTE, OTHER, preparedFor, THEIR_FILE, THEIR_TOPIC } from './new-client-scenario';

const client = useOffline(KILO_OFFLINE, 'kilo', ensureKilo);

const bash = (command: string): ScriptCall => ({ tool: 'bash', args: { command, description: 'run it' } });
const write = (file: string, content: string): ScriptCall => ({ tool: 'write', args: { filePath: file, content } });

/** One `kilo run --auto` turn with the script; Kilo, like OpenCode, takes its project folder from PWD. */
async function run(repo: TestRepo, script: ScriptCall[]): Promise<{ api: ChatServer; out: string }> {
  const api = await chatServer(script);
  const config = {
    autoupdate: false,
    share: 'disabled',
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    permission: { bash: 'allow', edit: 'allow', webfetch: 'deny', external_directory: 'allow' },
    provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: api.url, apiKey: 'sk-fake' }, models: { 'fake-model': { name: 'Fake Model', tool_call: true, limit: { context: 128000, output: 4096 } } } } },
  };
  const env = {
    ...(repo.env as Record<string, string>),
    PATH: PATH_WITH_BIN,
    PWD: repo.dir,
    KILO_CONFIG_CONTENT: JSON.stringify(config),
    KILO_DISABLE_MODELS_FETCH: '1',
    KILO_DISABLE_AUTOUPDATE: '1',
    KILO_DISABLE_SHARE: '1',
    KILO_TELEMETRY_LEVEL: 'off',
    XDG_DATA_HOME: path.join(repo.home, '.local', 'share'),
  };
  try {
    const r = await execa(client.path, ['run', '--auto', '--print-logs', 'do the task'], { cwd: repo.dir, env, extendEnv: false, reject: false, timeout: 280_000, input: '' });
    expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
    return { api, out: `${r.stdout}\n${r.stderr}` };
  } finally {
    await api.close();
  }
}

describe('Kilo Code CLI, offline, wired by install --agent kilo', () => {
  it("the startup view; another session's handoff file overwritten, deleted, deleted in the background: refused, the turn goes on; a claim told; its own write under its session; uninstall gives the files back", async () => {
    const { repo, before } = await preparedFor('kilo');
    // claims told, not refused: the write lands and the model hears who holds the path (refusals: above)
    repo.git(['config', 'handoff.claims', 'tell']);
    const claimed = path.join(repo.dir, 'src', 'auth', 'login.ts');
    const { api, out } = await run(repo, [
      write(path.join(repo.dir, THEIR_FILE), 'mine now\n'),
      bash(`rm ${THEIR_FILE}`),
      { tool: 'background_process', args: { action: 'start', command: `rm -f ${THEIR_FILE}` } },
      write(claimed, 'export const login = 1;\n'),
      bash('git handoff write own-notes -m "written by the model"'),
    ]);
    const session = /\b(ses_[A-Za-z0-9]+)/.exec(out)?.[1] ?? '';
    expect(session, out.slice(-3000)).toMatch(/^ses_/);
    const [overwrite, del, background, claim] = api.results;
    expectTheirsIntact(repo);
    expect(overwrite).toContain(`belongs to session ${OTHER}`);
    expect(del).toContain('not yours to delete');
    expect(background).toContain('not yours to delete');
    // the claimed path was written, and the model told who claims it and why (appended to the tool's output)
    expect(readFileSync(claimed, 'utf8')).toBe('export const login = 1;\n');
    expect(claim).toContain(`claimed by session ${HOLDER}`);
    expect(claim).toContain(NOTE);
    // its shell has KILO_SESSION_ID (the plugin's shell.env): its write is recorded under its session, as Kilo Code
    const trailers = repo.git(['log', '-1', '--format=%(trailers)', 'refs/handoffs/main/own-notes'], { allowFail: true }).stdout;
    expect(trailers, api.results[4]).toContain(`Claude-Session-Id: ${session}`);
    expect(trailers).toContain('Handoff-Client: kilo-code');
    // the startup view in the system prompt of the session's requests
    const system = api.requests[0].messages.filter((m: any) => m.role === 'system').map((m: any) => JSON.stringify(m.content)).join('\n');
    expect(system).toContain(`you are session ${session}`);
    expect(system).toContain(`${THEIR_TOPIC} · owner ${OTHER}`);
    await expectUninstalled(repo, 'kilo', before);
    // Kilo leaves its own .kilo/.gitignore behind; the plugin folder install made is gone
    expect(existsSync(path.join(repo.dir, '.kilo', 'plugin'))).toBe(false);
  });
});
