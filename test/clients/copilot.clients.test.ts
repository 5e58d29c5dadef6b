// The real GitHub Copilot CLI (1.0.102), offline in its BYOK mode against a scripted Chat Completions API
// (shared/tools/copilot-offline), in a trusted repository wired by `git handoff install --agent copilot`: its
// native hooks refuse in the flat shape it obeys, and with the Claude Code wiring there too (Copilot runs both)
// every call is answered once.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { json, ROOT, type TestRepo } from '../helpers/repo';
import { expectScenario, preparedRepo, scenario, THEIR_REF } from './agent-scenario';
import { chatServer, type ChatServer, type ScriptCall } from './chat-script';
import { COPILOT_CACHE, COPILOT_OFFLINE, ensureCopilot, PATH_WITH_BIN, useOffline } from './deps';

const client = useOffline(COPILOT_OFFLINE, 'copilot-offline', ensureCopilot);

const shell = (command: string): ScriptCall => ({ tool: 'bash', args: { command, description: 'run it' } });
const create = (file: string, content: string): ScriptCall => ({ tool: 'create', args: { path: file, file_text: content } });

/** The folder trusted the way a person does it: listed in ~/.copilot/config.json (what doctor checks). */
function trust(repo: TestRepo): void {
  mkdirSync(path.join(repo.home, '.copilot'), { recursive: true });
  writeFileSync(path.join(repo.home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [repo.dir] }));
}

/** One `copilot -p` run with the script; its session id read off Copilot's own session state. */
async function run(repo: TestRepo, script: ScriptCall[], env: Record<string, string> = {}): Promise<{ api: ChatServer; session: string; out: string }> {
  const api = await chatServer(script);
  try {
    const r = await execa(client.path, ['-p', 'do the task', '--allow-all-tools'], {
      cwd: repo.dir,
      env: {
        ...(repo.env as Record<string, string>),
        PATH: PATH_WITH_BIN,
        COPILOT_OFFLINE: 'true',
        COPILOT_AUTO_UPDATE: 'false',
        COPILOT_CACHE_HOME: COPILOT_CACHE,
        COPILOT_PROVIDER_BASE_URL: api.url,
        COPILOT_PROVIDER_API_KEY: 'sk-fake',
        COPILOT_MODEL: 'gpt-4.1',
        ...env,
      },
      extendEnv: false,
      reject: false,
      timeout: 240_000,
      input: '',
    });
    const state = path.join(repo.home, '.copilot', 'session-state');
    const sessions = existsSync(state) ? readdirSync(state).filter((n) => /^[0-9a-f-]{36}$/.test(n)) : [];
    expect(sessions, String(r.stdout) + String(r.stderr)).toHaveLength(1);
    return { api, session: sessions[0], out: `${r.stdout}\n${r.stderr}` };
  } finally {
    await api.close();
  }
}

describe('GitHub Copilot CLI, offline', () => {
  it('install --agent copilot: refusals in its own shape, its session id from the payload and COPILOT_AGENT_SESSION_ID, the startup view', async () => {
    const repo = await preparedRepo('copilot');
    trust(repo);
    const doctor = json(await repo.cli(['doctor', '--json'], { env: { PATH: PATH_WITH_BIN } })).items;
    expect(doctor.find((i: any) => i.component === 'agent copilot')).toMatchObject({ status: 'ok' });
    expect(doctor.find((i: any) => i.component === 'agent copilot trust')).toMatchObject({ status: 'ok' });
    const { api, session, out } = await run(repo, scenario(repo, shell, create));
    expect(api.results.every((r) => r !== undefined), out).toBe(true);
    // Copilot prefixes a hook's refusal
    expect(api.results[0]).toContain('Denied by preToolUse hook');
    // the handoff skill install put in .agents/skills is offered to the model
    expect(JSON.stringify(api.requests).includes('<name>handoff</name>'), 'the skill offered').toBe(true);
    expectScenario(repo, api, session, 'copilot');
  });

  it('with the Claude Code wiring there too (Copilot runs both), every call is answered once, by the native hooks', async () => {
    const repo = await preparedRepo('copilot', ['claude']);
    trust(repo);
    // a guard front on PATH that logs which wiring ran it and what it answered
    const log = path.join(repo.home, 'guard-calls.log');
    const bin = path.join(repo.home, 'bin');
    mkdirSync(bin);
    writeFileSync(
      path.join(bin, 'git-handoff-guard'),
      `#!/bin/sh\nout=$("${path.join(ROOT, 'bin', 'git-handoff-guard')}" "$@")\nprintf '%s\\t%s\\n' "$*" "$(printf %s "$out" | head -c 60)" >>"${log}"\nprintf '%s\\n' "$out"\n`,
      { mode: 0o755 },
    );
    const { api, session } = await run(repo, scenario(repo, shell, create), { PATH: `${bin}:${PATH_WITH_BIN}` });
    expectScenario(repo, api, session, 'copilot');
    const calls = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split('\t'));
    // (the native wiring's bash hands the payload over: `--payload=env --client=copilot`)
    const by = (client: string) => calls.filter(([args]) => args.split(' ').includes(`--client=${client}`));
    // both wirings ran (Copilot reads .claude/settings.json in a trusted folder) …
    expect(by('claude-code').length).toBeGreaterThan(0);
    expect(by('copilot').length).toBeGreaterThan(0);
    // … and only the native hooks answered: the Claude Code wiring stood aside for every event
    expect(by('claude-code').filter(([, answer]) => answer)).toEqual([]);
    // the native hooks refused the ref deletion and the forged ref (the foreign write is git handoff's own refusal)
    expect(by('copilot').filter(([, answer]) => answer.includes('"permissionDecision":"deny"')).length).toBe(2);
    expect(by('copilot').some(([, answer]) => answer.startsWith('{"additionalContext":"git-handoff:'))).toBe(true);
    expect(api.results[0]).toContain(THEIR_REF.split('/').pop());
  });

  it('through the Claude Code wiring alone: Copilot\'s argument names are read (its create of a handoff ref is refused), its session recorded as copilot', async () => {
    const repo = await preparedRepo('copilot');
    expect((await repo.cli(['uninstall', '--agent', 'copilot'])).exitCode).toBe(0);
    expect((await repo.cli(['install', '--agent', 'claude'])).exitCode).toBe(0);
    trust(repo);
    const { api, session } = await run(repo, scenario(repo, shell, create));
    expectScenario(repo, api, session, 'copilot');
  });
});
