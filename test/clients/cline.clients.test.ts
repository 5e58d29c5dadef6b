// The real Cline CLI (3.0.65), offline, in a repository wired by `git handoff install --agent cline` (its hook files
// .clinerules/hooks/PreToolUse and SessionShutdown): another session's handoff file overwritten with its editor tool,
// and deleted from its shell, are refused — by Cline's one blocking answer, `{"cancel": true}`, which ends the whole
// task (the model reads nothing; the reason is in Cline's log); so is a write of a path another session claims, and
// with handoff.claims=tell it goes on and the model is told who claims it and why (a contextModification after the
// call). There is no session-start view: Cline starts TaskStart hooks detached. Uninstall gives the files back.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatServer, sentText, type ScriptCall } from './chat-script';
import { clineLog, freePort, runCline } from './cline-run';
import { expectTheirsIntact, expectUninstalled, HOLDER, NOTE, OTHER, preparedFor, THEIR_FILE } from './new-client-scenario';
import { PATH_WITH_BIN } from './deps';

const shell = (command: string): ScriptCall => ({ tool: 'run_commands', args: { commands: [command] } });
const editor = (file: string, text: string): ScriptCall => ({ tool: 'editor', args: { path: file, new_text: text } });

describe('Cline CLI, offline, wired by install --agent cline', () => {
  it("refuses an overwrite and a shell delete of another session's handoff file (the task ends), refuses a claimed path and tells it under claims=tell; uninstall gives the files back", async () => {
    const { repo, before } = await preparedFor('cline');
    const env = { PATH: PATH_WITH_BIN };
    // one hub for the test's turns: each later turn runs in it (with the first turn's environment)
    const port = await freePort();
    const turn = async (script: ScriptCall[]) => {
      const api = await chatServer(script);
      try {
        return { ...(await runCline(repo, api, env, port)), api };
      } finally {
        await api.close();
      }
    };

    // 1. its editor overwriting the other session's handoff file: the task is cancelled before the write
    const overwrite = await turn([editor(path.join(repo.dir, THEIR_FILE), 'mine now\n'), shell('echo after > after.txt')]);
    expect(overwrite.result?.finishReason, overwrite.r.stdout.slice(-2000)).toBe('aborted');
    expectTheirsIntact(repo);
    expect(existsSync(path.join(repo.dir, 'after.txt')), 'nothing after the cancel runs').toBe(false);
    // the reason is in Cline's log only (the first turn runs in the CLI process, which logs it; later ones in its hub)
    expect(clineLog(repo)).toContain(`belongs to session ${OTHER}`);
    // no session-start view: nothing of the handoffs reached the model before its first call
    expect(sentText(overwrite.api)).not.toContain('you are session');

    // 2. its shell deleting that file
    const del = await turn([shell(`rm ${THEIR_FILE}`)]);
    expect(del.result?.finishReason).toBe('aborted');
    expectTheirsIntact(repo);

    // 3. a write of a path session A claims: refused by default (the task ends), the file not written
    const claimed = path.join(repo.dir, 'src', 'auth', 'login.ts');
    const refused = await turn([editor(claimed, 'export const login = 1;\n')]);
    expect(refused.result?.finishReason).toBe('aborted');
    expect(existsSync(claimed)).toBe(false);

    // 4. with handoff.claims=tell it runs, and the model is told who claims it and why (after the call's result)
    repo.git(['config', 'handoff.claims', 'tell']);
    const told = await turn([editor(claimed, 'export const login = 1;\n')]);
    expect(told.result?.finishReason, told.r.stdout.slice(-2000)).toBe('completed');
    expect(readFileSync(claimed, 'utf8')).toBe('export const login = 1;\n');
    const sent = sentText(told.api);
    expect(sent).toContain(`src/auth/login.ts is claimed by session ${HOLDER}`);
    expect(sent).toContain(NOTE);

    await expectUninstalled(repo, 'cline', before);
  });
});
