// Continue's `cn` CLI runs Claude Code's wiring (`.claude/settings.json`) with its own payload: Claude Code's fields
// (`transcript_path` empty) and its tools `Bash {command}`, `Write {filepath, content}`, `MultiEdit`. Each call is
// fed here to the wiring as cn runs it (continuedev/continue extensions/cli/src/hooks: every group whose matcher,
// an unanchored RegExp, finds the tool name; each distinct command once, by `/bin/sh -c`, the payload on stdin; a
// handler's whole stdout read as one JSON): the guard answers in Claude Code's protocol, and exactly one handler answers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { PATH_WITH_BIN } from './deps';
import { OTHER, THEIR_FILE, THEIR_TEXT, THEIR_TOPIC } from './new-client-scenario';

const SESSION = '5f9e2c1a-1111-4222-8333-944455556666';

/** The distinct PreToolUse commands cn runs for `tool` from the wiring. */
function commandsFor(repo: TestRepo, tool: string): string[] {
  const groups: Array<{ matcher?: string; hooks: Array<{ command: string }> }> = JSON.parse(readFileSync(path.join(repo.dir, '.claude', 'settings.json'), 'utf8')).hooks.PreToolUse;
  const hit = groups.filter((g) => !g.matcher || g.matcher === '*' || new RegExp(g.matcher).test(tool));
  return [...new Set(hit.flatMap((g) => g.hooks.map((h) => h.command)))];
}

/** Every answer the wiring's handlers gave one cn PreToolUse call, each parsed as cn parses it. */
async function answers(repo: TestRepo, tool: string, input: Record<string, unknown>): Promise<any[]> {
  const payload = { session_id: SESSION, transcript_path: '', cwd: repo.dir, permission_mode: 'normal', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 'call_1' };
  const env = { ...(repo.env as Record<string, string>), PATH: PATH_WITH_BIN, CLAUDE_PROJECT_DIR: repo.dir, CONTINUE_PROJECT_DIR: repo.dir };
  const out: any[] = [];
  for (const command of commandsFor(repo, tool)) {
    const r = await execa('/bin/sh', ['-c', command], { cwd: repo.dir, env, extendEnv: false, input: JSON.stringify(payload), reject: false });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    if (String(r.stdout).trim()) out.push(JSON.parse(String(r.stdout).trim()));
  }
  return out;
}

const denied = (a: any[]) => a.map((x) => x.hookSpecificOutput?.permissionDecision === 'deny' && x.hookSpecificOutput.permissionDecisionReason);

describe("Continue's cn CLI through the Claude Code wiring", () => {
  it('refuses its Write and MultiEdit of another session\'s handoff file and its raw ref deletion, each once, and lets an ordinary write through', async () => {
    const repo = makeRepo({ commit: true });
    repo.commit('their file', { [THEIR_FILE]: THEIR_TEXT });
    expect((await repo.cli(['install', '--agent', 'claude'], { env: { PATH: PATH_WITH_BIN } })).exitCode).toBe(0);
    expect((await repo.cli(['write', THEIR_TOPIC, '-m', 'their plan'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
    const theirs = path.join(repo.dir, THEIR_FILE);

    const write = await answers(repo, 'Write', { filepath: theirs, content: 'mine now\n' });
    expect(write).toHaveLength(1);
    expect(denied(write)[0]).toContain(`belongs to session ${OTHER}`);
    // MultiEdit: cn's unanchored matchers send it to two of the wiring's groups; one answers
    const multi = await answers(repo, 'MultiEdit', { file_path: theirs, edits: [{ old_string: 'Topic one', new_string: 'Mine' }] });
    expect(multi).toHaveLength(1);
    expect(denied(multi)[0]).toContain(`you are session ${SESSION}`);
    const del = await answers(repo, 'Bash', { command: `git update-ref -d refs/handoffs/main/${THEIR_TOPIC}` });
    expect(del).toHaveLength(1);
    expect(denied(del)[0]).toContain('git handoff archive');

    expect(await answers(repo, 'Write', { filepath: path.join(repo.dir, 'src', 'ok.ts'), content: 'export {};\n' })).toEqual([]);
    expect(readFileSync(theirs, 'utf8')).toBe(THEIR_TEXT);
  });
});
