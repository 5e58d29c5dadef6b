// `install --agent`: merges the guard into each client's settings beside the user's own entries, adds the
// startup note once, and `uninstall` gives back exactly what was there.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterCommand, HOOK_TIMEOUT_MIN_S, HOOK_TIMEOUT_S, payloadCommand, shPayloadCommand, timeoutSeconds } from '../../src/clients/wiring';
import { WIRING } from '../../src/clients/records';
import { matcherRoutes } from '../../src/clients/record';
import { WATCHDOG_MS } from '../../src/guard/entry';
import { DECISION_MS } from '../../src/guard/rules/reach';
import { json, makeRepo, refOf, ROOT, tempDir } from '../helpers/repo';

const read = (repo: any, f: string) => readFileSync(path.join(repo.dir, f), 'utf8');
/** Claude Code's hook command as install writes it; before, the plain front (OLD_CLAUDE_HOOK). */
const OLD_CLAUDE_HOOK = 'git-handoff-guard --client=claude-code';
const CLAUDE_HOOK = shPayloadCommand(OLD_CLAUDE_HOOK);
/** Its PreToolUse in two groups (Wiring.split): Bash and Edit read by sh's `read`, the other file tools with `cat`. */
const CLAUDE_LINE = shPayloadCommand(OLD_CLAUDE_HOOK, 'line');
const CLAUDE_PRE = [
  { matcher: 'Bash|Edit', hooks: [{ type: 'command', command: CLAUDE_LINE, timeout: 30 }] },
  { matcher: WIRING.claude.split!.rest, hooks: [{ type: 'command', command: shPayloadCommand(OLD_CLAUDE_HOOK, 'rest'), timeout: 30 }] },
];

describe('install --agent', () => {
  it('merges into existing settings, is idempotent, and uninstall restores them byte for byte', async () => {
    const repo = makeRepo({ commit: true });
    const userClaude = JSON.stringify(
      {
        permissions: { allow: ['Bash(npm test)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/lint-hook.sh' }] }], Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }] },
      },
      null,
      2,
    ) + '\n';
    repo.write('.claude/settings.json', userClaude);
    repo.write('CLAUDE.md', '# Project rules\n\nUse tabs.\n');
    const r = await repo.cli(['install', '--agent', 'all']);
    expect(r.exitCode).toBe(0);
    const claude = JSON.parse(read(repo, '.claude/settings.json'));
    expect(claude.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(claude.hooks.PreToolUse).toHaveLength(3);
    expect(claude.hooks.PreToolUse[0].hooks[0].command).toBe('./scripts/lint-hook.sh');
    // Claude Code starts hooks with /bin/sh: that sh runs the front itself (no second shell); Bash in a group of its
    // own, whose front reads the payload with sh's `read` (no cat)
    expect(claude.hooks.PreToolUse.slice(1)).toEqual(CLAUDE_PRE);
    expect(CLAUDE_HOOK).toBe('command set -o posix 2>/dev/null; set -- --sourced git-handoff-guard --client=claude-code; command . git-handoff-front; exec git-handoff-guard --client=claude-code');
    expect(CLAUDE_LINE).toBe('command set -o posix 2>/dev/null; set -- --sourced-line git-handoff-guard --client=claude-code; command . git-handoff-front-split; exec git-handoff-guard --client=claude-code');
    for (const ev of ['SessionStart', 'Stop', 'PreCompact', 'SessionEnd']) expect(claude.hooks[ev][0].hooks[0].command).toBe(CLAUDE_HOOK);
    // one hook process per tool call: PreToolUse records what PostToolUse used to
    expect(claude.hooks.PostToolUse).toBeUndefined();
    const gemini = JSON.parse(read(repo, '.gemini/settings.json'));
    // Gemini CLI starts hooks with bash: bash reads the payload for the front (no cat)
    expect(gemini.hooks.BeforeTool[0]).toMatchObject({ matcher: WIRING.gemini.events.BeforeTool, hooks: [{ command: payloadCommand('git-handoff-guard --client=gemini-cli'), timeout: 30000 }] });
    expect(gemini.hooks.BeforeTool[0].hooks[0].command).toContain('exec git-handoff-guard --payload=env --client=gemini-cli;');
    expect(Object.keys(gemini.hooks)).toEqual(expect.arrayContaining(['BeforeTool', 'AfterTool', 'SessionStart', 'AfterAgent']));
    // the after-tool hook says so, and bash looks for a pending note first (nothing started while none is)
    expect(gemini.hooks.AfterTool[0].hooks[0].command).toBe(afterCommand('git-handoff-guard --client=gemini-cli'));
    const codex = JSON.parse(read(repo, '.codex/hooks.json'));
    // every tool but Codex's read-only ones, an MCP server's too
    expect(codex.hooks.PreToolUse[0].matcher).toBe(WIRING.codex.events.PreToolUse);
    for (const tool of ['Bash', 'apply_patch', 'mcp__fs__write_file']) expect(matcherRoutes(codex.hooks.PreToolUse[0].matcher, tool), tool).toBe(true);
    expect(matcherRoutes(codex.hooks.PreToolUse[0].matcher, 'view_image')).toBe(false);
    // Codex shows a PreToolUse additionalContext to the model: one hook process per tool call, as for Claude Code
    expect(codex.hooks.PostToolUse).toBeUndefined();

    const snapshot = ['.claude/settings.json', '.gemini/settings.json', '.codex/hooks.json', 'CLAUDE.md', 'AGENTS.md', 'GEMINI.md'].map((f) => read(repo, f));
    expect(read(repo, 'CLAUDE.md')).toMatch(/^# Project rules\n\nUse tabs\.\n\n<!-- git-handoff:start -->/);
    expect((await repo.cli(['install', '--agent', 'all'])).exitCode).toBe(0);
    expect(['.claude/settings.json', '.gemini/settings.json', '.codex/hooks.json', 'CLAUDE.md', 'AGENTS.md', 'GEMINI.md'].map((f) => read(repo, f))).toEqual(snapshot);
    expect(read(repo, 'CLAUDE.md').match(/git-handoff:start/g)).toHaveLength(1);

    const onPath = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
    const doctor = await repo.cli(['doctor', '--json'], { env: onPath });
    const items = json(doctor).items.filter((i: any) => /^agent \w+$/.test(i.component));
    // every client's probe is refused in its own deny shape (Copilot's flat one, the OpenCode plugin's)
    // (VS Code's agent, which runs the Claude Code wiring in its own shape, probed through it: test/clients/vscode.test.ts)
    // (the clients of issue 56, each in its own protocol: test/clients/native-clients.slow.test.ts)
    expect(items.map((i: any) => i.component)).toEqual(['agent claude', 'agent vscode', ...Object.keys(WIRING).filter((a) => a !== 'claude').map((a) => `agent ${a}`)]);
    expect(items.map((i: any) => i.status)).toEqual(items.map(() => 'ok'));
    // Codex's own gates (its trust of the hooks, a login shell's PATH) are checked apart: test/clients/codex-trust.test.ts
    // before Codex ever ran it will skip every hook until trusted: broken (issue 23), with the step, and doctor fails
    expect(json(doctor).items.find((i: any) => i.component === 'agent codex trust')).toMatchObject({ status: 'broken', detail: expect.stringContaining('open /hooks and trust each git-handoff hook') });
    // Gemini CLI skips project hooks in a folder not trusted (nothing in ~/.gemini/trustedFolders.json here)
    expect(json(doctor).items.find((i: any) => i.component === 'agent gemini trust')).toMatchObject({ status: 'broken', detail: expect.stringContaining('TRUST_FOLDER') });
    expect(doctor.exitCode).toBe(1);
    expect(items[0].detail).toContain('probe');
    // A wired command that cannot run: doctor says so and fails.
    const settingsFile = path.join(repo.dir, '.claude/settings.json');
    const good = read(repo, '.claude/settings.json');
    expect(good).toContain(JSON.stringify(CLAUDE_LINE));
    writeFileSync(settingsFile, good.split(JSON.stringify(CLAUDE_LINE)).join('"/nonexistent/git-handoff-guard --client=claude-code"'));
    const broken = await repo.cli(['doctor', '--json'], { env: onPath });
    writeFileSync(settingsFile, good);
    expect(broken.exitCode).toBe(1);
    expect(json(broken).items.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'broken', detail: expect.stringContaining('did not run') });
    expect(refOf(repo, 'refs/handoffs/doctor/probe-wiring')).toBeNull();

    expect((await repo.cli(['uninstall', '--agent', 'all'])).exitCode).toBe(0);
    expect(read(repo, '.claude/settings.json')).toBe(userClaude);
    expect(read(repo, 'CLAUDE.md')).toBe('# Project rules\n\nUse tabs.\n');
    for (const f of ['.gemini/settings.json', '.codex/hooks.json', 'AGENTS.md', 'GEMINI.md', 'QWEN.md', '.qwen/settings.json', '.github/hooks/git-handoff.json', '.opencode/plugin/git-handoff.js']) {
      expect(existsSync(path.join(repo.dir, f))).toBe(false);
    }
    // the settings directories install created go too; the one the user had stays
    for (const d of ['.gemini', '.codex', '.qwen', '.github', '.opencode']) expect(existsSync(path.join(repo.dir, d))).toBe(false);
    expect(existsSync(path.join(repo.dir, '.claude'))).toBe(true);
  });

  it("Gemini CLI's AfterTool as the last version wired it (for every routed tool, the shell tool too): doctor says what it costs; install again narrows it", async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'gemini'])).exitCode).toBe(0);
    const file = path.join(repo.dir, '.gemini', 'settings.json');
    const now = JSON.parse(readFileSync(file, 'utf8'));
    expect(matcherRoutes(now.hooks.AfterTool[0].matcher, 'run_shell_command')).toBe(false);
    writeFileSync(file, JSON.stringify({ ...now, hooks: { ...now.hooks, AfterTool: [{ ...now.hooks.AfterTool[0], matcher: WIRING.gemini.events.BeforeTool }] } }));
    const onPath = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
    const items = json(await repo.cli(['doctor', '--json'], { env: onPath })).items;
    expect(items.find((i: any) => i.component === 'agent gemini wiring')).toMatchObject({ status: 'info', detail: expect.stringContaining('AfterTool for run_shell_command') });
    expect((await repo.cli(['install', '--agent', 'gemini'])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).hooks.AfterTool).toEqual(now.hooks.AfterTool);
    expect(json(await repo.cli(['doctor', '--json'], { env: onPath })).items.filter((i: any) => i.component === 'agent gemini wiring')).toEqual([]);
  });

  it('an older wiring (Codex PostToolUse, Gemini AfterTool without --after): doctor says what it costs; install again drops it', async () => {
    const repo = makeRepo({ commit: true });
    const hook = (command: string) => [{ matcher: 'Bash|apply_patch|Edit|Write', hooks: [{ type: 'command', command, timeout: 30 }] }];
    const old = 'git-handoff-guard --client=codex';
    repo.write('.codex/hooks.json', JSON.stringify({ hooks: { PreToolUse: hook(old), PostToolUse: hook(old), SessionStart: [{ hooks: [{ type: 'command', command: old }] }], Stop: [{ hooks: [{ type: 'command', command: old }] }], PreCompact: [{ hooks: [{ type: 'command', command: old }] }] } }));
    const g = (command: string) => [{ matcher: 'write_file|replace|run_shell_command', hooks: [{ name: 'git-handoff', type: 'command', command, timeout: 10000 }] }];
    const oldG = 'git-handoff-guard --client=gemini-cli';
    repo.write('.gemini/settings.json', JSON.stringify({ hooks: { BeforeTool: g(oldG), AfterTool: g(oldG), SessionStart: g(oldG), AfterAgent: g(oldG), PreCompress: g(oldG) } }));
    const onPath = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
    const before = json(await repo.cli(['doctor', '--json'], { env: onPath })).items;
    expect(before.find((i: any) => i.component === 'agent codex wiring')).toMatchObject({ status: 'info', detail: expect.stringContaining('PostToolUse') });
    expect(before.find((i: any) => i.component === 'agent gemini wiring')).toMatchObject({ status: 'info', detail: expect.stringContaining('AfterTool without --after') });
    // an AfterTool for the shell tool, whose warnings ride in the command's own output now: a hook run per shell call
    expect(before.find((i: any) => i.component === 'agent gemini wiring')).toMatchObject({ detail: expect.stringContaining('AfterTool for run_shell_command') });
    expect(before.find((i: any) => i.component === 'agent gemini wiring')).toMatchObject({ detail: expect.stringContaining('BeforeTool, SessionStart, AfterAgent, PreCompress without --payload=env') });
    expect(before.find((i: any) => i.component === 'agent codex wiring')).toMatchObject({ detail: expect.stringContaining('PreToolUse, SessionStart, Stop, PreCompact without --payload=env') });
    // a 10 s Gemini timeout (what an older install wrote) is under the guard's own watchdog; a hook with none is noted
    expect(before.find((i: any) => i.component === 'agent gemini timeout')).toMatchObject({ status: 'broken', detail: expect.stringContaining('10 s') });
    expect(before.find((i: any) => i.component === 'agent codex timeout')).toMatchObject({ status: 'info', detail: expect.stringContaining('no hook timeout') });
    // a matcher naming some tools leaves every other one (an MCP server's write_file) unchecked
    expect(before.find((i: any) => i.component === 'agent gemini routing')).toMatchObject({ status: 'broken', detail: expect.stringContaining('mcp_fs_move_file') });
    expect(before.find((i: any) => i.component === 'agent codex routing')).toMatchObject({ status: 'broken', detail: expect.stringContaining('mcp__fs__move_file') });
    expect((await repo.cli(['install', '--agent', 'codex', '--agent', 'gemini'])).exitCode).toBe(0);
    const codex = JSON.parse(read(repo, '.codex/hooks.json'));
    expect(Object.keys(codex.hooks).sort()).toEqual(['PreCompact', 'PreToolUse', 'SessionEnd', 'SessionStart', 'Stop']);
    expect(codex.hooks.PreToolUse).toHaveLength(1);
    const gemini = JSON.parse(read(repo, '.gemini/settings.json'));
    const g30 = (command: string, event: string) => g(command).map((x) => ({ ...x, matcher: WIRING.gemini.events[event]!, hooks: x.hooks.map((h) => ({ ...h, timeout: 30000 })) }));
    expect(gemini.hooks.AfterTool).toEqual(g30(afterCommand('git-handoff-guard --client=gemini-cli'), 'AfterTool'));
    expect(gemini.hooks.BeforeTool).toEqual(g30(payloadCommand(oldG), 'BeforeTool'));
    const after = json(await repo.cli(['doctor', '--json'], { env: onPath })).items;
    expect(after.filter((i: any) => / (wiring|timeout|routing)$/.test(i.component))).toEqual([]);
  });

  it("Claude Code's older wiring (the plain front, which starts cat): doctor notes it, works; install again replaces it; uninstall removes either", async () => {
    const repo = makeRepo({ commit: true });
    const onPath = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
    const mine = { type: 'command', command: './scripts/lint-hook.sh' };
    const old = (extra: object = {}) =>
      JSON.stringify({
        ...extra,
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [mine] }, { matcher: WIRING.claude.events.PreToolUse, hooks: [{ type: 'command', command: OLD_CLAUDE_HOOK, timeout: 30 }] }],
          ...Object.fromEntries(['SessionStart', 'Stop', 'PreCompact', 'SessionEnd'].map((ev) => [ev, [{ hooks: [{ type: 'command', command: OLD_CLAUDE_HOOK, timeout: 30 }] }]])),
        },
      }, null, 2) + '\n';
    repo.write('.claude/settings.json', old());
    const before = json(await repo.cli(['doctor', '--json'], { env: onPath })).items;
    // an info (it works: the probe through it is refused), not broken
    expect(before.find((i: any) => i.component === 'agent claude wiring')).toMatchObject({ status: 'info', detail: expect.stringContaining('PreToolUse, SessionStart, Stop, PreCompact, SessionEnd without --payload=env') });
    expect(before.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'ok', detail: expect.stringContaining('probe') });
    expect((await repo.cli(['install', '--agent', 'claude'])).exitCode).toBe(0);
    const once = read(repo, '.claude/settings.json');
    const claude = JSON.parse(once);
    expect(claude.hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [mine] }, ...CLAUDE_PRE]);
    expect(once).not.toContain(JSON.stringify(OLD_CLAUDE_HOOK));
    // twice: nothing changes
    const again = await repo.cli(['install', '--agent', 'claude']);
    expect(String(again.stdout)).toContain('already wired (claude)');
    expect(read(repo, '.claude/settings.json')).toBe(once);
    const after = json(await repo.cli(['doctor', '--json'], { env: onPath })).items;
    expect(after.filter((i: any) => /^agent claude (wiring|timeout)$/.test(i.component))).toEqual([]);
    expect(after.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'ok', detail: expect.stringContaining('probe') });
    // the wiring before PreToolUse was split (one group, read in with --sourced: Bash's payload read with cat): it
    // works, doctor says what it costs, install again splits it
    const single = (extra: object = {}) => old(extra).split(JSON.stringify(OLD_CLAUDE_HOOK)).join(JSON.stringify(CLAUDE_HOOK));
    repo.write('.claude/settings.json', single());
    const unsplit = json(await repo.cli(['doctor', '--json'], { env: onPath })).items;
    expect(unsplit.find((i: any) => i.component === 'agent claude wiring')).toMatchObject({ status: 'info', detail: expect.stringContaining('PreToolUse in one group, Bash, Edit without --sourced-line') });
    expect(unsplit.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'ok', detail: expect.stringContaining('probe') });
    expect(unsplit.find((i: any) => i.component === 'agent vscode')).toMatchObject({ status: 'ok' });
    expect((await repo.cli(['install', '--agent', 'claude'])).exitCode).toBe(0);
    expect(JSON.parse(read(repo, '.claude/settings.json'))).toEqual(claude);
    // changed since install (no byte-for-byte restore): our hooks come out, new wiring or old, the user's stay
    for (const text of [old({ model: 'x' }), single({ model: 'x' }), JSON.stringify({ ...claude, model: 'x' })]) {
      repo.write('.claude/settings.json', text);
      expect((await repo.cli(['uninstall', '--agent', 'claude'])).exitCode).toBe(0);
      expect(JSON.parse(read(repo, '.claude/settings.json'))).toEqual({ model: 'x', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mine] }] } });
    }
  });

  it('updates an outdated startup note in place', async () => {
    const repo = makeRepo({ commit: true });
    repo.write('AGENTS.md', 'intro\n\n<!-- git-handoff:start -->\nold text\n<!-- git-handoff:end -->\n\nafter\n');
    await repo.cli(['install', '--agent', 'codex']);
    const text = read(repo, 'AGENTS.md');
    expect(text).toMatch(/^intro\n\n<!-- git-handoff:start -->\n## Handoff notes/);
    expect(text).not.toContain('old text');
    expect(text).toMatch(/<!-- git-handoff:end -->\n\nafter\n$/);
    await repo.cli(['uninstall', '--agent', 'codex']);
    expect(read(repo, 'AGENTS.md')).toBe('intro\n\nafter\n');
  });

  it('refuses to touch settings that are not JSON, and doctor reports a partial wiring', async () => {
    const repo = makeRepo({ commit: true });
    repo.write('.gemini/settings.json', '{ not json');
    const r = await repo.cli(['install', '--agent', 'gemini']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('.gemini/settings.json');
    expect(read(repo, '.gemini/settings.json')).toBe('{ not json');
    repo.write('.claude/settings.json', JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'git handoff guard' }] }] } }));
    const items = json(await repo.cli(['doctor', '--json'])).items;
    expect(items.find((i: any) => i.component === 'agent claude')).toMatchObject({ status: 'broken' });
    expect(items.find((i: any) => i.component === 'agent gemini')).toMatchObject({ status: 'broken' });
  });

  it('uninstall gives a one-line settings file back byte for byte, and what install wrote is not a session\'s dirt (issue 15 bug 6)', async () => {
    const repo = makeRepo({ commit: true });
    const oneLine = '{"permissions":{"allow":["Bash(ls)"]}}';
    repo.write('.claude/settings.json', oneLine);
    repo.write('CLAUDE.md', '# Rules\n\nno trailing newline');
    repo.commit('agent config');
    const r = await repo.cli(['install', '--agent', 'claude']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain('commit .claude/settings.json, CLAUDE.md, .claude/skills/handoff/SKILL.md to wire everyone who clones');
    expect(read(repo, '.claude/settings.json')).not.toBe(oneLine);
    // Claude Code's sandbox, when on, keeps the other clients' wiring, git-handoff's state and the handoff files too
    expect(JSON.parse(read(repo, '.claude/settings.json')).sandbox).toEqual({ filesystem: { denyWrite: expect.arrayContaining(['.codex/hooks.json', '.gemini/settings.json', '.github/hooks', '.git/handoff', 'memory']) } });
    // a handoff written now does not report the files install changed as uncommitted work
    const w = await repo.cli(['write', 'auth-refactor', '--session', 's-1', '-m', 'x']);
    expect(w.exitCode, String(w.stderr)).toBe(0);
    expect(json(await repo.cli(['show', 'auth-refactor', '--json'])).verify.dirty).toBe(false);
    // an edit of one's own still counts
    repo.write('src.txt', 'mine\n');
    expect(json(await repo.cli(['show', 'auth-refactor', '--json'])).verify.dirty).toBe(true);
    expect((await repo.cli(['uninstall', '--agent', 'claude'])).exitCode).toBe(0);
    expect(read(repo, '.claude/settings.json')).toBe(oneLine);
    expect(read(repo, 'CLAUDE.md')).toBe('# Rules\n\nno trailing newline');
    expect(repo.git(['status', '--porcelain', '--', '.claude', 'CLAUDE.md']).stdout).toBe('');
    // a file created by install goes away with uninstall, and the directory install made with it
    const fresh = makeRepo({ commit: true });
    expect((await fresh.cli(['install', '--agent', 'claude'])).exitCode).toBe(0);
    expect(json(await fresh.cli(['list', '--json']))).toEqual([]);
    expect((await fresh.cli(['uninstall', '--agent', 'claude'])).exitCode).toBe(0);
    expect(existsSync(path.join(fresh.dir, '.claude'))).toBe(false);
    expect(existsSync(path.join(fresh.dir, 'CLAUDE.md'))).toBe(false);
    // changed since install: the hooks and the sandbox entries go, what the person added and had stays
    const changed = makeRepo({ commit: true });
    changed.write('.claude/settings.json', JSON.stringify({ sandbox: { enabled: true, filesystem: { denyWrite: ['secrets'] } } }));
    expect((await changed.cli(['install', '--agent', 'claude'])).exitCode).toBe(0);
    const after = JSON.parse(read(changed, '.claude/settings.json'));
    changed.write('.claude/settings.json', JSON.stringify({ ...after, model: 'x' }, null, 2));
    expect((await changed.cli(['uninstall', '--agent', 'claude'])).exitCode).toBe(0);
    expect(JSON.parse(read(changed, '.claude/settings.json'))).toEqual({ sandbox: { enabled: true, filesystem: { denyWrite: ['secrets'] } }, model: 'x' });
  });

});

/** Every number under a key named timeout (timeout, timeout_ms, timeoutSec) in a JSON value. */
const timeoutsIn = (v: unknown): number[] =>
  Array.isArray(v) ? v.flatMap(timeoutsIn) : v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => (/^timeout/i.test(k) && typeof x === 'number' ? [x] : timeoutsIn(x))) : [];

describe('hook timeouts and the after-tool hook', () => {
  it('every wiring install writes sets the one timeout: above the guard\'s own watchdog with room, under the clients\' 60 s default', async () => {
    // the guard answers itself (closed where it matters) by WATCHDOG_MS; its walks stop at DECISION_MS well before
    expect(DECISION_MS).toBeLessThan(WATCHDOG_MS);
    expect(HOOK_TIMEOUT_MIN_S * 1000).toBeGreaterThanOrEqual(WATCHDOG_MS + 5_000);
    expect(HOOK_TIMEOUT_S).toBeGreaterThanOrEqual(HOOK_TIMEOUT_MIN_S);
    expect(HOOK_TIMEOUT_S).toBeLessThan(60);
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'all'])).exitCode).toBe(0);
    for (const [agent, w] of Object.entries(WIRING)) {
      if (w.format === 'files') {
        // each timeout its files set (Cline's hook files and Windsurf's entries have none to set)
        const found = w.files!('', repo.dir).flatMap((f) => timeoutsIn(f.json ? JSON.parse(read(repo, f.file)) : null).concat(f.text ? [Number(/^const TIMEOUT_MS = (\d+)$/m.exec(read(repo, f.file))?.[1] ?? NaN)].filter((n) => !Number.isNaN(n)) : []));
        for (const v of found) expect(timeoutSeconds(w, v), `${agent}`).toBe(HOOK_TIMEOUT_S);
        continue;
      }
      const text = read(repo, w.settings);
      const values: unknown[] = Object.entries(JSON.parse(text).hooks).flatMap(([event, gs]: [string, any]) => gs.flatMap((g: any) => g.hooks.map((h: any) => (w.eventTimeouts?.[event] !== undefined ? { event, v: h.timeout } : h.timeout))));
      // one per event wired
      expect(values.length, agent).toBeGreaterThanOrEqual(Object.keys(w.events).length);
      // an event the client bounds lower (Codex's SessionEnd: 3 s) has that bound
      for (const v of values) {
        if (typeof v === 'object' && v) expect((v as any).v, `${agent} ${(v as any).event}`).toBe(w.eventTimeouts![(v as any).event]);
        else expect(timeoutSeconds(w, v as number), `${agent} ${w.settings}`).toBe(HOOK_TIMEOUT_S);
      }
    }
    const onPath = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
    expect(json(await repo.cli(['doctor', '--json'], { env: onPath })).items.filter((i: any) => / timeout$/.test(i.component))).toEqual([]);
    // Copilot's own file with a 5 s timeoutSec: Copilot could run the call before the guard answers
    const copilot = JSON.parse(read(repo, WIRING.copilot.settings));
    copilot.hooks.preToolUse[0].timeoutSec = 5;
    repo.write(WIRING.copilot.settings, JSON.stringify(copilot));
    const doctor = json(await repo.cli(['doctor', '--json'], { env: onPath })).items;
    expect(doctor.find((i: any) => i.component === 'agent copilot timeout')).toMatchObject({ status: 'broken', detail: expect.stringContaining('5 s') });
  });

  it('the after-tool hook starts nothing with .git here and no note pending; else the front, told --after, looks itself', async () => {
    const repo = makeRepo({ commit: true });
    // a stand-in front on PATH that says it ran, with its arguments
    const bin = tempDir();
    const ran = path.join(bin, 'ran');
    writeFileSync(path.join(bin, 'git-handoff-guard'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${ran}"\n`);
    chmodSync(path.join(bin, 'git-handoff-guard'), 0o755);
    const command = afterCommand('git-handoff-guard --client=gemini-cli');
    const hook = (cwd: string, session?: string) => {
      rmSync(ran, { force: true });
      // Gemini CLI runs hooks as `bash -c <command>`, the payload on stdin, its session id in GEMINI_SESSION_ID
      const env = { ...repo.env, PATH: `${bin}:${process.env.PATH}`, ...(session === undefined ? {} : { GEMINI_SESSION_ID: session }) };
      const r = spawnSync('bash', ['-c', command], { cwd, env, input: '{}' });
      expect(r.status).toBe(0);
      return existsSync(ran) ? readFileSync(ran, 'utf8') : null;
    };
    expect(hook(repo.dir)).toBeNull();
    mkdirSync(path.join(repo.dir, '.git', 'handoff', 'guard'), { recursive: true });
    expect(hook(repo.dir)).toBeNull();
    writeFileSync(path.join(repo.dir, '.git', 'handoff', 'guard', 'some-session.note'), 'a warning');
    expect(hook(repo.dir)).toBe('--client=gemini-cli\n--after\n');
    // with the client's session id: only its own note counts (another's waits for that session's next tool)
    expect(hook(repo.dir, 'my-session')).toBeNull();
    expect(hook(repo.dir, 'some-session')).toBe('--client=gemini-cli\n--after\n');
    // an id the note's file name could not be: any note sends it to the front
    expect(hook(repo.dir, 'Some/Session')).toBe('--client=gemini-cli\n--after\n');
    rmSync(path.join(repo.dir, '.git', 'handoff', 'guard', 'some-session.note'));
    // from a subdirectory (or a linked worktree, .git a file) bash cannot tell: the front finds the repository
    mkdirSync(path.join(repo.dir, 'src'));
    expect(hook(path.join(repo.dir, 'src'))).toBe('--client=gemini-cli\n--after\n');
  });
});
