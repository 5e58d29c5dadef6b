// The ground the guard stands on, as an attacker meets it: a world with the clients' hook wiring, the user's git
// configuration with an include, another session's committed handoff file and stashes; and each call's decision in
// every client's shape (Claude Code, Gemini CLI, Codex, Copilot CLI, Qwen Code, OpenCode's plugin, VS Code's agent
// through the Claude Code wiring) in-process and through the real sh front.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { detectClient, namedClient } from '../../src/clients/index';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import type { GuardClient } from '../../src/clients/event';
import { foreignWorld, FOREIGN_FILE, verdict } from './world';
import { tempDir, type TestRepo } from '../helpers/repo';
import { throughFront } from './spellings';
import { ME, OTHER, payload } from './helpers';

export const GUARD_CMD = 'git-handoff-guard --client=claude-code';
export const CLAUDE_SETTINGS = JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash|Write|Edit', hooks: [{ type: 'command', command: GUARD_CMD, timeout: 30 }] }] } }, null, 2) + '\n';
const wired = (client: string) => JSON.stringify({ hooks: { BeforeTool: [{ matcher: '.*', hooks: [{ type: 'command', command: `git-handoff-guard --client=${client}` }] }] } }, null, 2) + '\n';

export interface World5 {
  repo: TestRepo;
  home: string;
  empty: string;
  evilRepo: string;
  fill: (s: string) => string;
}

/** foreignWorld with its handoff file committed, every client wired, ~/.gitconfig including another file, two stashes. */
export async function world5(): Promise<World5> {
  const repo = await foreignWorld();
  const home = repo.env.HOME!;
  const empty = tempDir('gh-attack5-');
  const evilRepo = path.join(empty, 'evilrepo');
  mkdirSync(path.join(empty, 'out'));
  spawnSync('git', ['init', '-q', evilRepo], { env: repo.env });
  repo.write('.claude/settings.json', CLAUDE_SETTINGS);
  repo.write('.gemini/settings.json', wired('gemini-cli'));
  repo.write('.codex/hooks.json', wired('codex'));
  repo.write('.github/hooks/git-handoff.json', JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'git-handoff-guard --client=copilot' }] } }) + '\n');
  repo.commit('wiring and their note', { [FOREIGN_FILE]: `<!-- claude-session: ${OTHER} -->\ntheir note\n` });
  repo.commit('more', { 'src/a.ts': 'a\n' });
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  writeFileSync(path.join(home, '.claude', 'settings.json'), CLAUDE_SETTINGS);
  writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = T\n[include]\n\tpath = ~/extra.gitconfig\n');
  writeFileSync(path.join(home, 'extra.gitconfig'), '[color]\n\tui = auto\n');
  // stash@{1} holds their handoff file changed; stash@{0} only b.txt
  repo.write(FOREIGN_FILE, `<!-- claude-session: ${OTHER} -->\nchanged by stash\n`);
  repo.git(['stash', '-q']);
  repo.write('b.txt', 'stashed\n');
  repo.git(['stash', '-q']);
  const fill = (s: string) => s.split('$REPO').join(repo.dir).split('$HOME').join(home).split('$EVILREPO').join(evilRepo).split('$EMPTY').join(empty);
  return { repo, home, empty, evilRepo, fill };
}

/** A shell tool call in each client's own shape, OpenCode's plugin included. */
export const SHELLS5: Array<{ client: GuardClient; wired?: GuardClient; make: (repo: TestRepo, command: string) => Record<string, unknown> }> = [
  { client: 'claude-code', make: (repo, command) => payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command, description: 'run' } }) },
  { client: 'gemini-cli', make: (repo, command) => payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command } }) },
  { client: 'codex', make: (repo, command) => payload(repo, 'codex/pre-tool-use-bash.json', { tool_input: { command } }) },
  { client: 'copilot', make: (repo, command) => ({ ...payload(repo, 'copilot/real-pre-tool-use-bash.json', { sessionId: ME }, null), toolArgs: { command, description: 'run' } }) },
  { client: 'qwen-code', make: (repo, command) => payload(repo, 'qwen-code/real-pre-tool-use-run-shell-command.json', { tool_input: { command, description: 'run' } }) },
  { client: 'opencode', make: (repo, command) => payload(repo, 'opencode/real-pre-tool-use-bash.json', { tool_input: { command, description: 'd' } }) },
  // VS Code's agent runs the Claude Code wiring (`--client=claude-code`) in its own shape
  { client: 'vscode', wired: 'claude-code', make: (repo, command) => payload(repo, 'vscode/pre-tool-use-run-in-terminal.json', { tool_input: { command, explanation: 'run', goal: 'run', isBackground: false, timeout: 0 } }) },
];

/** A file tool writing `content` to `file`, in each client's shape. */
export const WRITES5: Array<{ client: GuardClient; wired?: GuardClient; make: (repo: TestRepo, file: string, content: string) => Record<string, unknown> }> = [
  { client: 'claude-code', make: (r, f, content) => payload(r, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: f, content } }) },
  { client: 'gemini-cli', make: (r, f, content) => payload(r, 'gemini-cli/before-tool-write-file.json', { tool_input: { file_path: f, content } }) },
  { client: 'codex', make: (r, f, content) => payload(r, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: `*** Begin Patch\n*** Add File: ${f}\n${content.replace(/\n$/, '').split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch` } }) },
  { client: 'copilot', make: (r, f, content) => ({ ...payload(r, 'copilot/real-pre-tool-use-create.json', { sessionId: ME }, null), toolArgs: { path: f, file_text: content } }) },
  { client: 'qwen-code', make: (r, f, content) => payload(r, 'qwen-code/real-pre-tool-use-write-file.json', { tool_input: { file_path: f, content } }) },
  { client: 'opencode', make: (r, f, content) => payload(r, 'opencode/real-pre-tool-use-write.json', { tool_input: { filePath: f, content } }) },
  { client: 'vscode', wired: 'claude-code', make: (r, f, content) => payload(r, 'vscode/pre-tool-use-create-file.json', { tool_input: { filePath: f, content } }) },
];

/** A file tool replacing `from` by `to` in `file`, in each client's shape. */
export const EDITS5: Array<{ client: GuardClient; wired?: GuardClient; make: (repo: TestRepo, file: string, from: string, to: string) => Record<string, unknown> }> = [
  { client: 'claude-code', make: (r, f, from, to) => payload(r, 'claude-code/pre-tool-use-edit.json', { tool_input: { file_path: f, old_string: from, new_string: to } }) },
  { client: 'gemini-cli', make: (r, f, from, to) => payload(r, 'gemini-cli/before-tool-replace.json', { tool_input: { file_path: f, old_string: from, new_string: to } }) },
  { client: 'codex', make: (r, f, from, to) => payload(r, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: `*** Begin Patch\n*** Update File: ${f}\n@@\n${from.split('\n').map((l) => `-${l}`).join('\n')}\n${to.split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch` } }) },
  { client: 'copilot', make: (r, f, from, to) => ({ ...payload(r, 'copilot/real-pre-tool-use-edit.json', { sessionId: ME }, null), toolArgs: { path: f, old_str: from, new_str: to } }) },
  { client: 'qwen-code', make: (r, f, from, to) => payload(r, 'qwen-code/real-pre-tool-use-edit.json', { tool_input: { file_path: f, old_string: from, new_string: to } }) },
  { client: 'opencode', make: (r, f, from, to) => payload(r, 'opencode/real-pre-tool-use-edit.json', { tool_input: { filePath: f, oldString: from, newString: to } }) },
  { client: 'vscode', wired: 'claude-code', make: (r, f, from, to) => payload(r, 'vscode/pre-tool-use-replace-string.json', { tool_input: { explanation: 'x', filePath: f, oldString: from, newString: to } }) },
];

/** The decision on a payload in-process, in the world's environment (its HOME), as the named client reads it. */
export async function inWorld(w: World5, client: GuardClient, p: Record<string, unknown>): Promise<{ verdict: string; reason: string }> {
  const adapter = detectClient(p, namedClient(['guard', `--client=${client}`]));
  const event = adapter.parse(p);
  // the git the guard starts reads this process's environment: the world's HOME and settings for the call
  const keys = ['HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'GIT_CONFIG_NOSYSTEM'] as const;
  const saved = keys.map((k) => process.env[k]);
  for (const k of keys) process.env[k] = w.repo.env[k];
  try {
    const d = await decide(new GuardContext(event, { ...w.repo.env, GIT_HANDOFF_SESSION: ME }));
    return { verdict: verdict(adapter.render(event, d) ?? ''), reason: d.deny ?? '' };
  } finally {
    keys.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
  }
}

/** Every call made by `make` for each item gets `expected` in every shape in-process, and in one shape (in turn) through the front. */
async function expectAll<T>(w: World5, items: T[], shapes: Array<{ client: GuardClient; wired?: GuardClient; make: (r: TestRepo, ...a: never[]) => Record<string, unknown> }>, args: (item: T) => unknown[], expected: 'deny' | 'allow'): Promise<void> {
  const wrong: string[] = [];
  for (const [i, item] of items.entries()) {
    const a = args(item);
    for (const s of shapes) {
      const r = await inWorld(w, s.wired ?? s.client, (s.make as (r: TestRepo, ...x: unknown[]) => Record<string, unknown>)(w.repo, ...a));
      if (r.verdict !== expected) wrong.push(`${s.client} in-process ${JSON.stringify(a).slice(0, 200)}: ${r.verdict} ${r.reason.slice(0, 200)}`);
    }
    const s = shapes[i % shapes.length];
    const f = throughFront(w.repo, s.wired ?? s.client, (s.make as (r: TestRepo, ...x: unknown[]) => Record<string, unknown>)(w.repo, ...a));
    if (f.verdict !== expected) wrong.push(`${s.client} front ${JSON.stringify(a).slice(0, 200)}: ${f.verdict} ${f.out.slice(0, 200)}`);
  }
  expect(wrong).toEqual([]);
}

export const expectShell5 = (w: World5, commands: string[], expected: 'deny' | 'allow') => expectAll(w, commands, SHELLS5, (c) => [w.fill(c)], expected);
export const expectWrite5 = (w: World5, writes: Array<[string, string]>, expected: 'deny' | 'allow') => expectAll(w, writes, WRITES5, ([f, c]) => [w.fill(f), c], expected);
export const expectEdit5 = (w: World5, edits: Array<[string, string, string]>, expected: 'deny' | 'allow') => expectAll(w, edits, EDITS5, ([f, a, b]) => [w.fill(f), a, b], expected);
