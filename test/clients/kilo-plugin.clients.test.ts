// The real Kilo Code CLI (7.7.7, an OpenCode fork), offline against a scripted Chat Completions API (a custom
// OpenAI-compatible provider in KILO_CONFIG_CONTENT), with a logging plugin in the repository's .kilo/plugin/ — and
// the same plugin in .opencode/plugin/, which Kilo does not load: the hooks it calls for a shell call, a write, an
// edit, a shell delete, a background process, an MCP tool and a read; what a throw in tool.execute.before does; what
// the shell gets. Observed facts: test/clients/tools/kilo/README.md.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeRepo, ROOT } from '../helpers/repo';
import { chatServer } from './chat-script';
import { ensureKilo, FAKE_MCP, KILO_OFFLINE, logLines, useOffline } from './deps';

const client = useOffline(KILO_OFFLINE, 'kilo', ensureKilo);
const PLUGIN = path.join(ROOT, 'test', 'clients', 'tools', 'kilo', 'log-plugin.js');

describe('Kilo Code CLI, offline: the plugin hooks', () => {
  it('loads .kilo/plugin/ (not .opencode/plugin/); tool.execute.before gets {tool, sessionID, callID} and the args; a throw refuses with the message as the tool result', async () => {
    const repo = makeRepo({ commit: true });
    for (const dir of ['.kilo/plugin', '.opencode/plugin']) {
      mkdirSync(path.join(repo.dir, dir), { recursive: true });
      copyFileSync(PLUGIN, path.join(repo.dir, dir, 'log.js'));
    }
    const file = path.join(repo.dir, 'new.txt');
    const api = await chatServer([
      { tool: 'bash', args: { command: 'env > env.txt', description: 'env' } },
      { tool: 'write', args: { filePath: file, content: 'hello\n' } },
      { tool: 'edit', args: { filePath: file, oldString: 'hello', newString: 'bye' } },
      { tool: 'bash', args: { command: 'echo one > shell.txt && rm shell.txt', description: 'delete' } },
      { tool: 'background_process', args: { action: 'start', command: 'env > bg.txt' } },
      { tool: 'fake_write_note', args: { path: 'note.txt', content: 'x' } },
      { tool: 'read', args: { filePath: file } },
      { tool: 'bash', args: { command: 'echo BLOCKME > blocked.txt', description: 'blocked' } },
    ]);
    const config = {
      autoupdate: false,
      share: 'disabled',
      model: 'fake/fake-model',
      small_model: 'fake/fake-model',
      permission: { bash: 'allow', edit: 'allow', webfetch: 'deny', external_directory: 'allow' },
      provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: api.url, apiKey: 'sk-fake' }, models: { 'fake-model': { name: 'Fake Model', tool_call: true, limit: { context: 128000, output: 4096 } } } } },
      mcp: { fake: { type: 'local', command: [process.execPath, FAKE_MCP] } },
    };
    const logFile = path.join(repo.home, 'plugin.log');
    try {
      // Kilo, like OpenCode, takes its project folder from PWD, not from its working directory
      const env = { ...(repo.env as Record<string, string>), PWD: repo.dir, PLUGIN_LOG: logFile, KILO_CONFIG_CONTENT: JSON.stringify(config), KILO_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_AUTOUPDATE: '1', KILO_DISABLE_SHARE: '1', KILO_TELEMETRY_LEVEL: 'off', XDG_DATA_HOME: path.join(repo.home, '.local', 'share') };
      const r = await execa(client.path, ['run', '--auto', 'do the task'], { cwd: repo.dir, env, extendEnv: false, reject: false, timeout: 280_000, input: '' });
      expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
    } finally {
      await api.close();
    }
    const log = logLines(logFile);
    expect([...new Set(log.map((l) => path.relative(repo.dir, l.file)))]).toEqual([path.join('.kilo', 'plugin', 'log.js')]);
    const before = log.filter((l) => l.hook === 'tool.execute.before');
    expect(before.map((l) => l.input.tool)).toEqual(['bash', 'write', 'edit', 'bash', 'background_process', 'fake_write_note', 'read', 'bash']);
    const session = log.find((l) => l.hook === 'event:session.created').input.sessionID;
    expect(session).toMatch(/^ses_/);
    for (const l of before) expect(l.input).toEqual({ tool: l.input.tool, sessionID: session, callID: expect.any(String) });
    expect(before.map((l) => l.output.args)).toEqual([
      { command: 'env > env.txt', description: 'env' },
      { filePath: file, content: 'hello\n' },
      { filePath: file, oldString: 'hello', newString: 'bye' },
      { command: 'echo one > shell.txt && rm shell.txt', description: 'delete' },
      { action: 'start', command: 'env > bg.txt' },
      { path: 'note.txt', content: 'x' },
      { filePath: file },
      { command: 'echo BLOCKME > blocked.txt', description: 'blocked' },
    ]);
    // shell.env runs after tool.execute.before for each bash call that goes on; not for a background process
    expect(log.filter((l) => l.hook === 'shell.env').map((l) => l.input.callID)).toEqual([before[0].input.callID, before[3].input.callID]);
    // the throw: the command did not run and the model's tool result is the message
    expect(existsSync(path.join(repo.dir, 'blocked.txt'))).toBe(false);
    expect(api.results[7]).toBe('blocked by test plugin: BLOCKME');
    expect(log.some((l) => l.hook === 'tool.execute.after' && l.input.callID === before[7].input.callID)).toBe(false);
    // the shell and the background process get Kilo's markers but no session id
    const shellEnv = readFileSync(path.join(repo.dir, 'env.txt'), 'utf8');
    expect(shellEnv).toMatch(/^KILO=1$/m);
    expect(shellEnv).toMatch(/^OPENCODE=1$/m);
    expect(shellEnv).not.toContain(session);
    for (let i = 0; i < 50 && !existsSync(path.join(repo.dir, 'bg.txt')); i++) await new Promise((res) => setTimeout(res, 100));
    const bgEnv = readFileSync(path.join(repo.dir, 'bg.txt'), 'utf8');
    expect(bgEnv).toMatch(/^KILO_BACKGROUND_PROCESS_ID=bgp_/m);
    expect(bgEnv).not.toContain(session);
    expect(readFileSync(file, 'utf8')).toBe('bye\n');
    expect(readFileSync(path.join(repo.dir, 'note.txt'), 'utf8')).toBe('x');
    // the first hook of a session is the session.created event; session.idle comes last
    expect(log.find((l) => l.hook.startsWith('event:'))?.hook).toBe('event:session.created');
    expect(log.some((l) => l.hook === 'event:session.idle')).toBe(true);
    // Kilo writes into the repository: .kilo/.gitignore
    expect(existsSync(path.join(repo.dir, '.kilo', '.gitignore'))).toBe(true);
  });
});
