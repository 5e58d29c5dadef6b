// The real Factory droid (0.225.2), offline (a BYOK custom model against a scripted Chat Completions API, no
// login), in a repository wired by `git handoff install --agent droid` (.factory/hooks.json): the startup view reaches
// the model (SessionStart's additionalContext), another session's handoff file overwritten with Create and deleted from
// Execute are refused in Claude Code's shape (the model reads `Error: <reason>`, the session goes on), its shell has no
// session so `git handoff write` is refused with the exact command to retry, a claimed path is refused with the
// holder's note, and under handoff.claims=tell written and told after the call (PostToolUse: droid shows a PreToolUse
// context to nobody); uninstall gives the files back byte for byte.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { TestRepo } from '../helpers/repo';
import { chatServer, sentText, type ScriptCall } from './chat-script';
import { DROID_OFFLINE, ensureDroid, PATH_WITH_BIN, useOffline } from './deps';
import { expectTheirsIntact, expectUninstalled, HOLDER, NOTE, OTHER, preparedFor, THEIR_FILE, THEIR_TOPIC } from './new-client-scenario';

const client = useOffline(DROID_OFFLINE, 'droid', ensureDroid);

const execute = (command: string): ScriptCall => ({ tool: 'Execute', args: { summary: 'Run the given command now', command, riskLevelReason: 'It only touches scratch files.', riskLevel: 'low' } });
const create = (file: string, content: string): ScriptCall => ({ tool: 'Create', args: { file_path: file, content } });

/** One `droid exec --auto high` turn with the script, the fake API as its custom model. */
async function run(repo: TestRepo, script: ScriptCall[]) {
  const api = await chatServer(script);
  try {
    mkdirSync(path.join(repo.home, '.factory'), { recursive: true });
    const model = { model: 'fake-model', displayName: 'Fake', baseUrl: api.url, apiKey: 'sk-fake', provider: 'generic-chat-completion-api', maxOutputTokens: 4096 };
    writeFileSync(path.join(repo.home, '.factory', 'settings.json'), JSON.stringify({ customModels: [model] }));
    const env = { ...(repo.env as Record<string, string>), PATH: PATH_WITH_BIN };
    const r = await execa(client.path, ['exec', '-m', 'custom:Fake-0', '-o', 'json', '--auto', 'high', 'do the task'], { cwd: repo.dir, env, extendEnv: false, reject: false, timeout: 240_000, input: '' });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    return { api, session: JSON.parse(r.stdout).session_id as string };
  } finally {
    await api.close();
  }
}

describe('Factory droid, offline, wired by install --agent droid', () => {
  it("the startup view; another session's handoff file overwritten or deleted: refused, the session goes on; a claim refused, then told under claims=tell; uninstall gives the files back", async () => {
    const { repo, before } = await preparedFor('droid');
    const claimed = path.join(repo.dir, 'src', 'auth', 'login.ts');
    const { api, session } = await run(repo, [
      create(path.join(repo.dir, THEIR_FILE), 'mine now\n'),
      execute(`rm ${THEIR_FILE}`),
      execute(`git update-ref -d refs/handoffs/main/${THEIR_TOPIC}`),
      create(claimed, 'export const login = 1;\n'),
      execute('git handoff write own-notes -m "written by the model"'),
      execute('echo after > after.txt'),
    ]);
    const [overwrite, del, ref, claim, write] = api.results;
    expectTheirsIntact(repo);
    expect(overwrite).toMatch(new RegExp(`^Error: .*belongs to session ${OTHER}`, 's'));
    expect(del).toMatch(/^Error: .*not yours to delete/s);
    expect(ref).toMatch(/^Error: .*git handoff archive/s);
    expect(claim).toContain(`claimed by session ${HOLDER}`);
    expect(claim).toContain(NOTE);
    expect(existsSync(claimed)).toBe(false);
    // its shell knows no session: the exact command to retry, with this session's id
    expect(write).toContain(`You are session ${session}. Run exactly this instead:`);
    expect(write).toContain(`GIT_HANDOFF_SESSION='${session}' GIT_HANDOFF_CLIENT=factory-droid; git handoff write own-notes`);
    // and the session went on after each refusal
    expect(existsSync(path.join(repo.dir, 'after.txt'))).toBe(true);
    // the startup view, naming this session and the other's handoff, before the model's first call
    const first = JSON.stringify(api.requests[0].messages);
    expect(first).toContain(`you are session ${session}`);
    expect(first).toContain(`${THEIR_TOPIC} · owner ${OTHER}`);
    expect(sentText(api)).toContain('git handoff archive');
    // with handoff.claims=tell the write lands, and the model is told after it (PostToolUse's context: droid shows a
    // PreToolUse one to nobody)
    repo.git(['config', 'handoff.claims', 'tell']);
    const told = await run(repo, [create(claimed, 'export const login = 1;\n')]);
    expect(readFileSync(claimed, 'utf8')).toBe('export const login = 1;\n');
    expect(JSON.stringify(told.api.requests[1]?.messages ?? [])).toContain(`src/auth/login.ts is claimed by session ${HOLDER}`);
    await expectUninstalled(repo, 'droid', before);
  });
});
