// The real OpenCode (1.18.33), offline against a scripted Chat Completions API (shared/tools/opencode-offline),
// in a repository wired by `git handoff install --agent opencode` (the plugin .opencode/plugin/git-handoff.js):
// the plugin's throw refuses a call and the model reads why, the shell gets OPENCODE_SESSION_ID, and the startup
// view reaches the model in the session's system prompt.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { type TestRepo } from '../helpers/repo';
import { expectScenario, preparedRepo, scenario } from './agent-scenario';
import { chatServer, type ChatServer, type ScriptCall } from './chat-script';
import { ensureOpencode, OPENCODE_OFFLINE, PATH_WITH_BIN, useOffline } from './deps';

const client = useOffline(OPENCODE_OFFLINE, 'opencode-offline', ensureOpencode);

const shell = (command: string): ScriptCall => ({ tool: 'bash', args: { command, description: 'run it' } });
const writeFile = (file: string, content: string): ScriptCall => ({ tool: 'write', args: { filePath: file, content } });

/** The environment an offline OpenCode runs with: the fake API as its one provider, its folders in the test HOME. */
function opencodeEnv(repo: TestRepo, api: ChatServer): Record<string, string> {
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    permission: { bash: 'allow', edit: 'allow', webfetch: 'deny', external_directory: 'allow' },
    provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: api.url, apiKey: 'sk-fake' }, models: { 'fake-model': { name: 'Fake Model', tool_call: true, limit: { context: 128000, output: 4096 } } } } },
  };
  const home = repo.home;
  return {
        ...(repo.env as Record<string, string>),
        PATH: PATH_WITH_BIN,
        // OpenCode takes its project folder from PWD, not from the process's cwd
        PWD: repo.dir,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_DATA_HOME: path.join(home, '.local', 'share'),
        XDG_CACHE_HOME: path.join(home, '.cache'),
        XDG_STATE_HOME: path.join(home, '.local', 'state'),
        OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_SHARE: '1',
  };
}

/** One `opencode run` with the script. */
async function run(repo: TestRepo, script: ScriptCall[]): Promise<{ api: ChatServer; out: string }> {
  const api = await chatServer(script);
  try {
    const r = await execa(client.path, ['run', '--print-logs', '--log-level', 'INFO', 'do the task'], {
      cwd: repo.dir,
      env: opencodeEnv(repo, api),
      extendEnv: false,
      reject: false,
      timeout: 240_000,
      input: '',
    });
    return { api, out: `${r.stdout}\n${r.stderr}` };
  } finally {
    await api.close();
  }
}

/** The session id OpenCode gave the turn: in its log (`sessionID=ses_…`) and in each tool call the plugin saw. */
const sessionOf = (out: string) => /\b(ses_[A-Za-z0-9]+)/.exec(out)?.[1] ?? '';

describe('OpenCode, offline', () => {
  it('install --agent opencode: the plugin refuses by throwing, gives the shell OPENCODE_SESSION_ID, and puts the startup view before the model', async () => {
    const repo = await preparedRepo('opencode');
    mkdirSync(path.join(repo.home, '.config', 'opencode'), { recursive: true });
    const { api, out } = await run(repo, scenario(repo, shell, writeFile));
    const session = sessionOf(out);
    expect(session, out.slice(-3000)).toMatch(/^ses_/);
    expect(api.results.every((r) => r !== undefined), out.slice(-3000)).toBe(true);
    expectScenario(repo, api, session, 'opencode');
    // how OpenCode puts it before the model: in the system prompt of the session's requests (the plugin's
    // experimental.chat.system.transform), the view computed once at session.created
    const first = api.requests.find((r) => (r.tools ?? []).length > 0);
    const system = first.messages.filter((m: any) => m.role === 'system').map((m: any) => JSON.stringify(m.content)).join('\n');
    expect(system.includes(`you are session ${session}`), 'the view in the system prompt').toBe(true);
    // the handoff skill install put in .agents/skills reaches the model
    expect(JSON.stringify(api.requests).includes('Write, read or check the handoff notes'), 'the skill offered').toBe(true);
  });

  it('nudges once at session.idle, as Stop does elsewhere: files changed and no handoff written (a served session: `opencode run` itself exits at idle)', async () => {
    const repo = await preparedRepo('opencode');
    const api = await chatServer([shell('echo changed > notes.txt')]);
    const env = opencodeEnv(repo, api);
    const server = execa(client.path, ['serve', '--port', '0', '--print-logs', '--log-level', 'INFO'], { cwd: repo.dir, env, extendEnv: false, reject: false, buffer: true, all: true });
    try {
      // the address it listens on, from its log
      let url = '';
      server.all!.on('data', (d) => {
        const m = /(https?:\/\/127\.0\.0\.1:\d+)/.exec(String(d));
        if (m && !url) url = m[1];
      });
      for (let i = 0; i < 600 && !url; i++) await new Promise((r) => setTimeout(r, 100));
      expect(url, 'opencode serve listening').not.toBe('');
      const r = await execa(client.path, ['run', '--attach', url, '--dir', repo.dir, 'do the task'], { cwd: repo.dir, env, extendEnv: false, reject: false, timeout: 240_000, input: '' });
      const nudged = () => api.requests.filter((q) => JSON.stringify(q.messages ?? []).includes('left no handoff note'));
      for (let i = 0; i < 600 && nudged().length === 0; i++) await new Promise((res) => setTimeout(res, 100));
      expect(nudged().length, `${r.stdout}\n${r.stderr}`).toBeGreaterThan(0);
      // once: after the model's answer to it, the next idle asks nothing more
      await new Promise((res) => setTimeout(res, 5000));
      expect(nudged().every((q) => (JSON.stringify(q.messages).match(/left no handoff note/g) ?? []).length === 1)).toBe(true);
    } finally {
      server.kill('SIGTERM');
      await server;
      await api.close();
    }
  });
});
