// The sh front (bin/git-handoff-guard) against the full guard: every payload of the shell corpus, every client
// fixture and a fast-check generator goes through both. The front runs as a real `sh` process beside a stand-in
// `git-handoff` (a sh script) that captures what it is handed; where the front answers alone, its stdout must be the
// full guard's answer byte for byte; where it hands over, the stand-in must get the payload byte for byte with the
// same argv. Then: concurrent sessions appending at once lose no line, the front's generated block is what the
// generator makes of src/guard/allow.ts, and whatever plain line the front allows the allowlist allows.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectClient } from '../../src/clients/index';
import { clientName } from '../../src/clients/names';
import { afterCommand, PAYLOAD_MAX_CHARS, PAYLOAD_VAR, payloadCommand, shPayloadCommand } from '../../src/clients/wiring';
import { frontClients } from '../../src/clients/front';
import { FILE_FUNCTIONS, FRONT_CONSTANTS, FRONT_FUNCTIONS } from '../../src/guard/front-constants';
import { eventCommand, eventGroups, guardCommand } from '../../src/install/agents';
import { WIRING } from '../../src/clients/records';
import { pluginGuardCommand } from '../../src/install/plugin-folders';
import { hookFiles } from '../../src/clients/hook-files';
import { userDirs } from '../../src/user-dirs';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import { readLedger } from '../../src/handoff/state/ledger';
import { GIT_READ_ONLY, PROJECT_RUNNERS, READ_ONLY, surelyHarmless, firstParse } from '../../src/guard/allow';
import * as allow from '../../src/guard/allow';
// @ts-expect-error: a build script, plain JavaScript
import { fileBlock, frontBlock, withBlock } from '../../scripts/front-words.mjs';
import { FOREIGN_FILE, foreignWorld, OWN_FILE } from './world';
import { makeRepo, ROOT, tempDir, type TestRepo } from '../helpers/repo';
import { FIXTURES, ME, OTHER, payload as fixturePayload } from './helpers';

const FRONT = path.join(ROOT, 'bin', 'git-handoff-guard');
const HANDED = '__handed_to_the_full_guard__';

/** A path as one sh word (single quotes). */
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const REAL_CAT = spawnSync('sh', ['-c', 'command -v cat'], { encoding: 'utf8' }).stdout.trim();

/** A directory with a `cat` that leaves `<capture>.cat` and then is the real one (the stand-ins use the real one). */
function catSpy(capture: string): string {
  const dir = path.join(path.dirname(capture), 'spy');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cat'), `#!/bin/sh\n: > ${shq(`${capture}.cat`)}\nexec ${REAL_CAT} "$@"\n`);
  chmodSync(path.join(dir, 'cat'), 0o755);
  return dir;
}

/**
 * The front copied beside stand-ins that record their stdin and argv and print HANDED: `dist/guard.cjs` (run by
 * node, what the front hands over to) and, for a copy without dist/, the `git-handoff` launcher.
 */
function frontWithStandIn(withDist = true, root = tempDir()): { front: string; capture: string; viaNode: boolean } {
  const bin = path.join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  const capture = path.join(bin, 'capture');
  copyFileSync(FRONT, path.join(bin, 'git-handoff-guard'));
  writeFileSync(path.join(bin, 'git-handoff'), `#!/bin/sh\n${REAL_CAT} > ${shq(`${capture}.in`)}\nprintf '%s\\n' "$@" > ${shq(`${capture}.argv`)}\nprintf %s "\${${PAYLOAD_VAR}+leaked}" > ${shq(`${capture}.env`)}\necho ${HANDED}\n`);
  if (withDist) {
    mkdirSync(path.join(root, 'dist'));
    writeFileSync(
      path.join(root, 'dist', 'guard.cjs'),
      `const fs = require('node:fs');\nfs.writeFileSync(${JSON.stringify(`${capture}.in`)}, fs.readFileSync(0));\n` +
        `fs.writeFileSync(${JSON.stringify(`${capture}.argv`)}, process.argv.slice(2).map((a) => a + '\\n').join(''));\n` +
        `fs.writeFileSync(${JSON.stringify(`${capture}.env`)}, ${JSON.stringify(PAYLOAD_VAR)} in process.env ? 'leaked' : '');\nconsole.log(${JSON.stringify(HANDED)});\n`,
    );
  }
  chmodSync(path.join(bin, 'git-handoff'), 0o755);
  chmodSync(path.join(bin, 'git-handoff-guard'), 0o755);
  return { front: path.join(bin, 'git-handoff-guard'), capture, viaNode: withDist };
}

const CLIENT_OF: Record<string, string> = { 'claude-code': 'claude-code', 'gemini-cli': 'gemini-cli', codex: 'codex', cursor: 'cursor', copilot: 'copilot', 'qwen-code': 'qwen-code' };

/** A fixture with this session; Copilot CLI's own payloads carry it (and a tool's arguments) camelCase. */
function payload(repo: TestRepo, fixture: string, over: Record<string, unknown> = {}, session: string | null = ME): Record<string, unknown> {
  const p = fixturePayload(repo, fixture, over, session);
  if (!('sessionId' in p)) return p;
  const { session_id: _, tool_input: input, ...rest } = p;
  return { ...rest, ...(session === null ? {} : { sessionId: session }), ...(input === undefined ? {} : { toolArgs: input }) };
}

/** Env without any client process or session (the reference and the front see the same). */
function cleanEnv(repo: TestRepo): NodeJS.ProcessEnv {
  const env = { ...repo.env };
  for (const k of ['CLAUDE_PID', 'GIT_HANDOFF_BYPASS', 'GIT_HANDOFF_SESSION']) delete env[k];
  return env;
}

interface Tally {
  alone: number;
  handed: number;
  wrong: string[];
}

/** The full guard's answer in-process (detect → parse → decide → render), as `git-handoff guard` prints it. */
async function reference(repo: TestRepo, text: string, client: string | null = null, over: NodeJS.ProcessEnv = {}): Promise<string> {
  let p: unknown;
  try {
    p = JSON.parse(text);
  } catch {
    return '';
  }
  if (!p || typeof p !== 'object' || Array.isArray(p)) return '';
  const adapter = detectClient(p as Record<string, unknown>, client === null ? null : clientName(client));
  const event = adapter.parse(p as Record<string, unknown>);
  // node runs in the client's environment: the git it starts too (its configuration files, its HOME)
  const env = { ...cleanEnv(repo), ...over };
  const saved = process.env;
  process.env = env;
  let out: string | null;
  try {
    out = adapter.render(event, await decide(new GuardContext(event, env)));
  } finally {
    process.env = saved;
  }
  return out ? out + '\n' : '';
}

/**
 * What the full guard is handed: the payload but for its trailing newlines (as `cat` read it; bash's read keeps them),
 * with one newline after it when node gets it straight.
 */
const handedForm = (text: string, viaNode: boolean, keep = false) => Buffer.from((keep ? text : text.replace(/\n+$/, '')) + (viaNode ? '\n' : ''), 'utf8');

/** A hook command as a client runs it: `shell -c <command for the front's path and arguments>`, in `env` (PATH: the spy `cat` first). */
interface Wired {
  shell: string;
  command: (front: string, args: string[]) => string;
  env?: NodeJS.ProcessEnv;
  /** it reads the payload as `$(cat)` does without a `cat` (a split event's line group: sh's `read`, trailing newlines dropped) */
  asCat?: boolean;
}

/**
 * The front run on one payload as a client runs it: `sh <front>`, or (`shell`) the command a bash client's wiring runs
 * (payloadCommand) through that shell, or a given wiring, with a `cat` on PATH that leaves `<capture>.cat` when it runs.
 */
async function compare(repo: TestRepo, f: { front: string; capture: string; viaNode: boolean }, text: string, client: string, t: Tally, extra: string[] = [], cwd = repo.dir, shell?: string | Wired, over: NodeJS.ProcessEnv = {}): Promise<void> {
  for (const x of ['in', 'cat', 'env']) rmSync(`${f.capture}.${x}`, { force: true });
  const args = [`--client=${client}`, ...extra];
  const wired: Wired | undefined = typeof shell === 'string' ? { shell, command: (front, a) => payloadCommand(`"${front}" ${a.join(' ')}`) } : shell;
  const env = wired ? { ...cleanEnv(repo), ...over, ...wired.env, PATH: `${catSpy(f.capture)}:${wired.env?.PATH ?? repo.env.PATH}` } : { ...cleanEnv(repo), ...over };
  const r = wired
    ? spawnSync(wired.shell, ['-c', wired.command(f.front, args)], { cwd, env, input: text, maxBuffer: 1 << 28 })
    : spawnSync('sh', [f.front, ...args], { cwd, env, input: text, maxBuffer: 1 << 28 });
  const out = r.stdout.toString('utf8');
  const what = `${client} ${text.slice(0, 300)}`;
  if (r.status !== 0) return void t.wrong.push(`${what}: exit ${r.status} ${r.stderr}`);
  if (out === `${HANDED}\n`) {
    t.handed++;
    if (!readFileSync(`${f.capture}.in`).equals(handedForm(text, f.viaNode, !!shell && !wired?.asCat && !existsSync(`${f.capture}.cat`)))) t.wrong.push(`${what}: handed over a changed payload`);
    if (readFileSync(`${f.capture}.env`, 'utf8') !== '') t.wrong.push(`${what}: ${PAYLOAD_VAR} reached the full guard`);
    if (readFileSync(`${f.capture}.argv`, 'utf8') !== ['guard', ...args].map((a) => a + '\n').join('')) t.wrong.push(`${what}: handed over changed arguments`);
    return;
  }
  t.alone++;
  const full = await reference(repo, text, client, over);
  if (out !== full) t.wrong.push(`${what}: front ${JSON.stringify(out)} but the full guard ${JSON.stringify(full)}`);
}

/** A repository where the session is known, its lease fresh and the config cached: the front answers what it can. */
async function world(): Promise<TestRepo> {
  const repo = await foreignWorld();
  mkdirSync(path.join(repo.dir, 'src'), { recursive: true });
  writeFileSync(path.join(repo.dir, 'src', 'app.ts'), 'export const x = 1;\n');
  mkdirSync(path.join(repo.dir, 'a b'), { recursive: true });
  mkdirSync(path.join(repo.dir, 'caf\u00e9'), { recursive: true });
  mkdirSync(path.join(repo.dir, 'x.git'), { recursive: true });
  symlinkSync(path.join(repo.dir, 'memory'), path.join(repo.dir, 'notes-link'));
  symlinkSync(path.join(repo.dir, 'memory', 'handoff-main-auth-refactor.md'), path.join(repo.dir, 'src', 'plain.ts'));
  symlinkSync(path.join(repo.dir, '.git'), path.join(repo.dir, 'gitlink'));
  // this session's own protected files as the front must read them (OWN_FILE is one), and ones it must not trust
  const mark = `<!-- claude-session: ${ME} -->`;
  writeFileSync(path.join(repo.dir, 'memory', 'handoff-feat-auth-fix.md'), `${mark}\nmine\n`);
  writeFileSync(path.join(repo.dir, 'memory', 'handoff-main-nul-notes.md'), `${mark.slice(0, 30)}\0${mark.slice(30)}\nmine?\n`);
  writeFileSync(path.join(repo.dir, 'memory', 'handoff-main-crlf-notes.md'), `${mark}\r\nmine\r\n`);
  writeFileSync(path.join(repo.dir, 'memory', 'handoff-main-bom-notes.md'), `\ufeff${mark}\nmine\n`);
  writeFileSync(path.join(repo.dir, 'memory', 'handoff-main-fix-test.md'), `${mark}\nno valid topic\n`);
  writeFileSync(path.join(repo.dir, 'memory', 'handoff-main-marker-only.md'), mark);
  symlinkSync(path.join(repo.dir, OWN_FILE), path.join(repo.dir, 'memory', 'handoff-main-link-notes.md'));
  mkdirSync(path.join(repo.dir, '.git', 'memory'));
  writeFileSync(path.join(repo.dir, '.git', 'memory', 'handoff-main-in-git.md'), `${mark}\n`);
  await reference(repo, JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', {}, ME)));
  return repo;
}

const freshBeat = (repo: TestRepo) => {
  const dir = path.join(repo.dir, '.git', 'handoff', 'guard');
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.beat'))) writeFileSync(path.join(dir, f), `${Date.now()}\n`);
};

/** Path segments of the places the guard protects beside handoff files (the generated paths put them together). */
const PLACE_SEGMENTS = ['.claude', 'settings.json', 'settings.local.json', '.codex', 'config.toml', 'hooks.json', '.gemini', '.qwen', 'trustedFolders.json', '.github', 'hooks', 'git-handoff.json', '.copilot', 'config.json', 'opencode.json', '.opencode', 'plugin', '.cursor', '.gitconfig', '.config', 'git', 'config', '.cache', 'git-handoff', 'claude-cfg', 'codex-home', 'global.gitconfig'];
const FIXTURE_FILES = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
const CORPUS: Array<{ command: string }> = JSON.parse(readFileSync(path.join(ROOT, 'test', 'guard', 'fixtures', 'shell-corpus.json'), 'utf8'));
const SHELL_SHAPES: Array<[string, string]> = [
  ['claude-code', 'claude-code/pre-tool-use-bash.json'],
  ['gemini-cli', 'gemini-cli/before-tool-shell.json'],
  ['codex', 'codex/pre-tool-use-bash.json'],
  ['qwen-code', 'qwen-code/real-pre-tool-use-run-shell-command.json'],
  ['copilot', 'copilot/real-pre-tool-use-bash.json'],
];

describe('the sh front agrees with the full guard', () => {
  it('on every client fixture (every session) and the whole shell corpus in each client shape', async () => {
    const repo = await world();
    const f = frontWithStandIn();
    // a copy without dist/ (a source checkout before its build) hands over to the launcher (a sh stand-in: cheap)
    const launcherOnly = frontWithStandIn(false);
    const t: Tally = { alone: 0, handed: 0, wrong: [] };
    for (const fx of FIXTURE_FILES) {
      const client = CLIENT_OF[fx.split('/')[0]];
      for (const session of [ME, null]) {
        // the node stand-in costs a node start per hand-over: a few fixtures go that way, every one to the launcher
        for (const via of FIXTURE_FILES.indexOf(fx) % 8 === 0 ? [f, launcherOnly] : [launcherOnly]) {
          freshBeat(repo);
          await compare(repo, via, JSON.stringify(payload(repo, fx, {}, session)) + (via === f ? '' : '\n\n'), client, t);
        }
      }
    }
    // every corpus entry once, the client shapes taken in turn
    for (const [i, e] of CORPUS.entries()) {
      for (const [client, fx] of [SHELL_SHAPES[i % SHELL_SHAPES.length]]) {
        freshBeat(repo);
        await compare(repo, launcherOnly, JSON.stringify(payload(repo, fx, { tool_input: { command: e.command } }, ME)), client, t);
      }
    }
    // for the report: how many the front answered alone, how many it handed over
    console.log(`front vs full guard, fixtures + corpus: ${t.alone} answered alone, ${t.handed} handed over, ${t.wrong.length} disagreements`);
    expect(t.wrong).toEqual([]);
    expect(t.alone).toBeGreaterThan(20);
    expect(t.handed).toBeGreaterThan(150);
  }, 120_000);

  it('answers a Write or Edit of a plain file alone and records it; hands over other handoff files and a second hard link', async () => {
    const repo = await world();
    const f = frontWithStandIn(false);
    const real = frontWithStandIn(true);
    copyFileSync(FRONT, real.front);
    rmSync(path.join(path.dirname(real.front), '..', 'dist'), { recursive: true });
    symlinkSync(path.join(ROOT, 'dist'), path.join(path.dirname(real.front), '..', 'dist'));
    const mark = `<!-- claude-session: ${ME} -->`;
    const write = (client: string, file: string, content = 'x\n') =>
      client === 'copilot'
        ? payload(repo, 'copilot/real-pre-tool-use-create.json', { tool_input: { path: file, file_text: content } })
        : payload(repo, { 'gemini-cli': 'gemini-cli/before-tool-write-file.json', 'qwen-code': 'qwen-code/real-pre-tool-use-write-file.json' }[client] ?? 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: file, content } });
    const t: Tally = { alone: 0, handed: 0, wrong: [] };
    for (const client of ['claude-code', 'gemini-cli', 'qwen-code', 'copilot']) {
      for (const file of ['src/app.ts', path.join(repo.dir, 'src', 'new.ts')]) {
        freshBeat(repo);
        await compare(repo, f, JSON.stringify(write(client, file)), client, t);
      }
    }
    // the new clients' edit tools: Qwen Code's `edit`, Copilot CLI's `edit` and `str_replace` (its `path`)
    const edits: Array<[string, Record<string, unknown>]> = [
      ['qwen-code', payload(repo, 'qwen-code/real-pre-tool-use-edit.json', { tool_input: { file_path: 'src/app.ts', old_string: 'x', new_string: 'y' } })],
      ['copilot', payload(repo, 'copilot/real-pre-tool-use-edit.json', { tool_input: { path: 'src/app.ts', old_str: 'x', new_str: 'y' } })],
      ['copilot', payload(repo, 'copilot/real-pre-tool-use-edit.json', { toolName: 'str_replace', tool_input: { path: 'src/app.ts', old_str: 'x', new_str: 'y' } })],
    ];
    for (const [client, p] of edits) {
      freshBeat(repo);
      await compare(repo, f, JSON.stringify(p), client, t);
    }
    // Codex's apply_patch on plain files
    const patch = (lines: string[]) => ({ ...payload(repo, 'codex/pre-tool-use-apply-patch.json'), tool_input: { command: ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') } });
    // (a line's escapes, a header straight after a header, a header last: each line is one case in the front's loop)
    for (const p of [patch(['*** Update File: src/app.ts', '@@', '-export const x = 1;', '+export const x = "2";']), patch(['*** Add File: src/new.ts', '+x', '*** Update File: src/app.ts', '@@', '+y']), patch(['*** Update File: src/app.ts', '+a\tb "c"', '*** Delete File: src/gone.ts', '*** Add File: src/new.ts'])]) {
      freshBeat(repo);
      await compare(repo, f, JSON.stringify(p), 'codex', t);
    }
    expect(t).toMatchObject({ alone: 14, handed: 0, wrong: [] });
    // Copilot: a path node would read as file_path instead, a call already run (toolResult), a sub-agent's; Qwen Code's
    // `edit` named by another client (an unknown tool there: node judges every path-like argument)
    for (const [client, p] of [
      ['copilot', payload(repo, 'copilot/real-pre-tool-use-create.json', { tool_input: { path: 'src/app.ts', file_path: OWN_FILE, file_text: 'x' } })],
      ['copilot', { ...write('copilot', 'src/app.ts'), toolResult: { resultType: 'success' } }],
      ['copilot', { ...write('copilot', 'src/app.ts'), agentId: 'agent-1' }],
      ['claude-code', { ...edits[0][1], tool_input: { file_path: 'src/app.ts', target: OWN_FILE } }],
      // a sub-agent's or Cursor's id key anywhere (the front matches the whole string, not a substring of the payload)
      ['claude-code', { ...edits[0][1], tool_input: { file_path: 'src/app.ts', agent_id: 'a' } }],
      ['claude-code', { conversation_id: 'c', ...edits[0][1] }],
    ] as Array<[string, Record<string, unknown>]>) {
      const h: Tally = { alone: 0, handed: 0, wrong: [] };
      freshBeat(repo);
      await compare(repo, f, JSON.stringify(p), client, h);
      expect(h, JSON.stringify(p)).toEqual({ alone: 0, handed: 1, wrong: [] });
    }
    // this session's own file added whole: node's (the next test looks closer)
    const added = { alone: 0, handed: 0, wrong: [] as string[] };
    freshBeat(repo);
    await compare(repo, f, JSON.stringify(patch([`*** Add File: ${OWN_FILE}`, `+${mark}`])), 'codex', added);
    expect(added).toEqual({ alone: 0, handed: 1, wrong: [] });
    for (const p of [patch(['*** Update File: src/app.ts', '*** Frobnicate', '+x']), patch(['*** Update File: src/a\\pp.ts', '+x']), patch(['*** Update File: src/a\tpp.ts', '+x']), patch(['*** Update File: src/app.ts', '*** Move to: .git/config']), patch(['*** Add File: src/new.ts', `*** Delete File: ${OWN_FILE}`]), patch(['*** Move to: .git/config']), patch(['*** Update File: src/app.ts', ' *** Move to: .codex/hooks.json']), patch([' *** Update File: .codex/config.toml', '+x']), patch(['*** Update File: src/app.ts', '+x', '\t*** Add File: .claude/settings.json', '+y'])]) {
      // a header's line with leading blanks (Codex trims it) is node's too
      const h: Tally = { alone: 0, handed: 0, wrong: [] };
      freshBeat(repo);
      await compare(repo, f, JSON.stringify(p), 'codex', h);
      expect(h, JSON.stringify(p.tool_input)).toEqual({ alone: 0, handed: 1, wrong: [] });
    }
    // the real front appends the intent the full guard would
    const ledger = path.join(repo.dir, '.git', 'handoff', 'ledger', `${ME}.jsonl`);
    const before = readFileSync(ledger, 'utf8').split('\n').filter(Boolean).length;
    freshBeat(repo);
    const r = spawnSync('sh', [real.front, '--client=claude-code'], { cwd: repo.dir, env: cleanEnv(repo), input: JSON.stringify(write('claude-code', 'src/new.ts')) });
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe('');
    const lines = readFileSync(ledger, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(lines.length).toBe(before + 1);
    expect(lines.at(-1)).toMatchObject({ session: ME, worktree: repo.dir, paths: ['src/new.ts'], gone: ['src/new.ts'], intent: true });
    // every handoff file but this session's own (the next test), and a file with a second hard link
    linkSync(path.join(repo.dir, 'memory', 'handoff-main-auth-refactor.md'), path.join(repo.dir, 'src', 'linked.md'));
    for (const file of ['memory/handoff-main-auth-refactor.md', 'memory/handoff-main-new-notes.md', 'src/linked.md', 'notes-link/x.md', 'src/plain.ts', 'gitlink/config']) {
      const h: Tally = { alone: 0, handed: 0, wrong: [] };
      freshBeat(repo);
      await compare(repo, f, JSON.stringify(write('claude-code', file, `${mark}\nx\n`)), 'claude-code', h);
      expect(h, file).toEqual({ alone: 0, handed: 1, wrong: [] });
    }
  }, 120_000);

  it("hands over every call on what the guard protects, in every client's write and edit shape: handoff files (this session's own too), each client's hook, settings and trust files at every scope, git's files, the guard's own folders, another worktree", async () => {
    const repo = await world();
    const f = frontWithStandIn(false);
    const mark = `<!-- claude-session: ${ME} -->`;
    // the worktree is the home too, and every variable that moves a client's or the guard's folder points into it: the
    // user-scope places then lie in the worktree, where the front would answer a plain file
    const over: NodeJS.ProcessEnv = { HOME: repo.dir, XDG_CONFIG_HOME: path.join(repo.dir, 'cfg'), XDG_CACHE_HOME: path.join(repo.dir, 'cache'), XDG_STATE_HOME: path.join(repo.dir, 'state'), XDG_DATA_HOME: path.join(repo.dir, 'data'), CLAUDE_CONFIG_DIR: path.join(repo.dir, 'claude-cfg'), CODEX_HOME: path.join(repo.dir, 'codex-home'), GIT_CONFIG_GLOBAL: path.join(repo.dir, 'global.gitconfig') };
    writeFileSync(over.GIT_CONFIG_GLOBAL!, '[user]\n\tname = T\n\temail = t@example.com\n');
    const linked = path.join(tempDir(), 'wt2');
    repo.git(['worktree', 'add', '-q', linked]);
    mkdirSync(path.join(linked, 'src'), { recursive: true });
    const places = (env: NodeJS.ProcessEnv) => {
      const h = hookFiles([repo.dir], env.HOME ?? repo.home, { ...cleanEnv(repo), ...env });
      // a file of each directory a client reads (its trust files live beside its settings: ~/.gemini/trustedFolders.json)
      return [...h.files.map((x) => x.file), ...h.dirs.map((x) => path.join(x.file, 'x.json')), ...h.plugins.map((x) => path.join(x.file, 'x.js')), ...userDirs({ ...cleanEnv(repo), ...env }).map((d) => path.join(d, 'state.json')), path.join(env.HOME ?? repo.home, '.gemini', 'trustedFolders.json'), path.join(env.HOME ?? repo.home, '.qwen', 'trustedFolders.json'), path.join(env.HOME ?? repo.home, '.copilot', 'config.json')];
    };
    const files: Array<[string, NodeJS.ProcessEnv]> = [
      ...[OWN_FILE, FOREIGN_FILE, 'memory/handoff-feat-auth-fix.md', 'memory/handoff-main-new-notes.md', 'Memory/HANDOFF-main-a-b.md', 'docs/handoff.md'].map((x) => [x, {}] as [string, NodeJS.ProcessEnv]),
      ...['.git/config', '.git/hooks/pre-commit', '.git/handoff/ledger/x.jsonl', '.git/info/attributes', 'gitlink/config', path.join(linked, 'src', 'app.ts'), path.join(linked, '.claude', 'settings.json')].map((x) => [x, {}] as [string, NodeJS.ProcessEnv]),
      ...places({}).filter((x) => x.startsWith(`${repo.dir}/`)).map((x) => [x, {}] as [string, NodeJS.ProcessEnv]),
      ...places(over).filter((x) => x.startsWith(`${repo.dir}/`)).map((x) => [x, over] as [string, NodeJS.ProcessEnv]),
      [path.join(repo.dir, '.gitconfig'), { HOME: repo.dir }],
      [over.GIT_CONFIG_GLOBAL!, over],
    ];
    expect(files.length).toBeGreaterThan(40);
    const content = (file: string) => (file.endsWith('.md') ? `${mark}\nnotes\n` : file.endsWith('.toml') ? '[features]\ncodex_hooks = false\n' : file.endsWith('.json') ? '{"disableAllHooks": true, "hooks": {}}\n' : 'x\n');
    const shapes = (file: string): Array<[string, Record<string, unknown>]> => [
      ['claude-code', payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: file, content: content(file) } })],
      ['claude-code', payload(repo, 'claude-code/pre-tool-use-edit.json', { tool_input: { file_path: file, old_string: 'notes', new_string: 'more notes' } })],
      ['gemini-cli', payload(repo, 'gemini-cli/before-tool-write-file.json', { tool_input: { file_path: file, content: content(file) } })],
      ['qwen-code', payload(repo, 'qwen-code/real-pre-tool-use-edit.json', { tool_input: { file_path: file, old_string: 'notes', new_string: 'x' } })],
      ['copilot', payload(repo, 'copilot/real-pre-tool-use-create.json', { tool_input: { path: file, file_text: content(file) } })],
      ['codex', payload(repo, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: ['*** Begin Patch', `*** Add File: ${file}`, ...content(file).split('\n').filter(Boolean).map((l) => `+${l}`), '*** End Patch'].join('\n') } })],
      ['codex', payload(repo, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: ['*** Begin Patch', '*** Update File: src/app.ts', '@@', '+y', `*** Update File: ${file}`, '@@', '+x', '*** End Patch'].join('\n') } })],
    ];
    const t: Tally = { alone: 0, handed: 0, wrong: [] };
    for (const env of [{}, over]) {
      freshBeat(repo);
      // node's summary of the configuration this environment gives git (the front answers a plain file then: checked below)
      await reference(repo, JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: 'src/app.ts', content: 'x' } })), null, env);
      const plainWrite = { alone: 0, handed: 0, wrong: [] as string[] };
      freshBeat(repo);
      await compare(repo, f, JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: 'src/app.ts', content: 'x' } })), 'claude-code', plainWrite, [], repo.dir, undefined, env);
      expect(plainWrite, JSON.stringify(env)).toEqual({ alone: 1, handed: 0, wrong: [] });
    }
    for (const [file, env] of files) {
      for (const [client, p] of shapes(file)) {
        const h: Tally = { alone: 0, handed: 0, wrong: [] };
        freshBeat(repo);
        await compare(repo, f, JSON.stringify(p), client, h, [], repo.dir, undefined, env);
        if (h.alone || h.wrong.length) t.wrong.push(`${client} ${file} (${JSON.stringify(env)}): ${h.wrong.join('; ') || 'answered by the front'}`);
        t.handed += h.handed;
      }
    }
    expect(t.wrong).toEqual([]);
    // the calls issue 52 found the front answering after a first ordinary Write: node refuses each
    for (const file of ['.claude/settings.json', '.claude/settings.local.json', '.gemini/settings.json', '.codex/hooks.json', '.codex/config.toml', '.qwen/settings.json']) {
      mkdirSync(path.join(repo.dir, path.dirname(file)), { recursive: true });
      writeFileSync(path.join(repo.dir, file), file.endsWith('.toml') ? '' : '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "git-handoff-guard --client=x"}]}]}}\n');
      for (const [client, p] of shapes(file).slice(0, 1).concat(shapes(file).slice(2, 3))) {
        const h: Tally = { alone: 0, handed: 0, wrong: [] };
        freshBeat(repo);
        await compare(repo, f, JSON.stringify(p), client, h);
        expect(h, `${client} ${file}`).toEqual({ alone: 0, handed: 1, wrong: [] });
        expect(await reference(repo, JSON.stringify(p), client), `${client} ${file}`).toMatch(/deny/);
      }
    }
  }, 300_000);

  it("takes the payload from bash in a bash client's wiring (no cat) with the same answers and hand-overs; a long payload, another shell: stdin as before", async () => {
    const repo = await world();
    const f = frontWithStandIn(false);
    const t: Tally = { alone: 0, handed: 0, wrong: [] };
    const bashClients = Object.values(WIRING).filter((w) => w.bash).map((w) => w.client as string);
    expect(bashClients.sort()).toEqual(['codex', 'copilot', 'gemini-cli', 'qwen-code']);
    // what install writes: the payload command for each bash client's events (Gemini CLI's AfterTool keeps its own)
    for (const w of Object.values(WIRING)) {
      for (const event of Object.keys(w.events)) {
        const command = eventCommand(w, event, `git-handoff-guard --client=${w.client}`);
        if (w.bash && event !== w.after && !command.includes(`exec git-handoff-guard --payload=env --client=${w.client}; `)) t.wrong.push(`${w.client} ${event}: ${command}`);
        if (!w.bash && !w.sh && command.includes('--payload=env')) t.wrong.push(`${w.client} ${event}: ${command}`);
      }
    }
    /** One run; whether `cat` ran. */
    const run = async (text: string, client: string, shell = 'bash'): Promise<boolean> => {
      freshBeat(repo);
      await compare(repo, f, text, client, t, [], repo.dir, shell);
      return existsSync(`${f.capture}.cat`);
    };
    const shapes = FIXTURE_FILES.filter((fx) => bashClients.includes(CLIENT_OF[fx.split('/')[0]]));
    const texts: Array<[string, string]> = shapes.map((fx) => [CLIENT_OF[fx.split('/')[0]], JSON.stringify(payload(repo, fx, {}, ME))]);
    // each client's ordinary calls (answered alone), and one with trailing newlines (bash keeps them: handed as read)
    const files: Record<string, [string, Record<string, unknown>]> = {
      'gemini-cli': ['gemini-cli/before-tool-write-file.json', { file_path: 'src/app.ts', content: 'x "q" \\ y\n' }],
      'qwen-code': ['qwen-code/real-pre-tool-use-write-file.json', { file_path: 'src/app.ts', content: 'x\n' }],
      copilot: ['copilot/real-pre-tool-use-create.json', { path: 'src/app.ts', file_text: 'x\n' }],
      codex: ['codex/pre-tool-use-apply-patch.json', { command: '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-a\n+b\n*** End Patch' }],
    };
    for (const [client, [fx, input]] of Object.entries(files)) texts.push([client, JSON.stringify(payload(repo, fx, { tool_input: input }))], [client, JSON.stringify(payload(repo, fx, { tool_input: input })) + '\n\n']);
    for (const [client, fx] of SHELL_SHAPES.filter(([c]) => bashClients.includes(c))) texts.push([client, JSON.stringify(payload(repo, fx, { tool_input: { command: 'ls -la' } }))]);
    const before = t.alone;
    for (const [client, text] of texts) if (await run(text, client)) t.wrong.push(`${client} ${text.slice(0, 200)}: cat ran under bash`);
    expect(t.alone - before).toBeGreaterThanOrEqual(12);
    expect(t.handed).toBeGreaterThan(10);
    // the limit, in characters: one under it in the environment, at it and past it piped (what bash read first, then the rest)
    const fx = 'gemini-cli/before-tool-write-file.json';
    const sized = (n: number, pad = 'x') => {
      const base = JSON.stringify(payload(repo, fx, { tool_input: { file_path: 'src/app.ts', content: '' } }));
      return JSON.stringify(payload(repo, fx, { tool_input: { file_path: 'src/app.ts', content: pad.repeat(n - base.length) } }));
    };
    for (const [n, piped] of [[PAYLOAD_MAX_CHARS - 1, false], [PAYLOAD_MAX_CHARS, true], [PAYLOAD_MAX_CHARS + 1, true], [5 * PAYLOAD_MAX_CHARS, true]] as Array<[number, boolean]>) {
      const text = sized(n);
      expect(text.length).toBe(n);
      if ((await run(text, 'gemini-cli')) !== piped) t.wrong.push(`${n} characters: ${piped ? 'not piped' : 'piped'}`);
    }
    // multibyte content near the limit (bash counts characters where the locale has them), and another shell
    await run(sized(PAYLOAD_MAX_CHARS - 10, '\u00e9'), 'gemini-cli');
    await run(sized(PAYLOAD_MAX_CHARS - 10, '\u20ac'), 'gemini-cli');
    for (const [client, text] of texts.slice(0, 6)) if (!(await run(text, client, 'sh'))) t.wrong.push(`${client} ${text.slice(0, 200)}: sh did not pipe it`);
    console.log(`front vs full guard, payload from bash: ${t.alone} answered alone, ${t.handed} handed over, ${t.wrong.length} disagreements`);
    expect(t.wrong).toEqual([]);
  }, 120_000);

  it("Claude Code's wiring: its sh runs the front itself (no bash, no second sh), the same answers and hand-overs as the plain front", async () => {
    const repo = await world();
    const f = frontWithStandIn(false);
    const t: Tally = { alone: 0, handed: 0, wrong: [] };
    const shClients = Object.values(WIRING).filter((w) => w.sh);
    // droid starts its hooks with `sh -c` too: its wiring runs the same sourced front with its own facts
    expect(shClients.map((w) => w.client)).toEqual(['claude-code', 'factory-droid']);
    const w = WIRING.claude;
    // what install writes for every event, the plugin's too: one builder (Claude Code has no after-tool hook)
    for (const event of Object.keys(w.events)) {
      expect(eventCommand(w, event, 'git-handoff-guard --client=claude-code')).toBe(shPayloadCommand('git-handoff-guard --client=claude-code'));
      expect(eventCommand(w, event, pluginGuardCommand('${CLAUDE_PLUGIN_ROOT}', 'claude-code'))).toBe(shPayloadCommand(pluginGuardCommand('${CLAUDE_PLUGIN_ROOT}', 'claude-code')));
    }
    const wiring = eventCommand(w, 'PreToolUse', 'git-handoff-guard --client=claude-code');
    expect(wiring).toBe('command set -o posix 2>/dev/null; set -- --sourced git-handoff-guard --client=claude-code; command . git-handoff-front; exec git-handoff-guard --client=claude-code');
    // other launchers are left as they are (they read stdin themselves)
    expect(shPayloadCommand('git handoff guard --client=claude-code')).toBe('git handoff guard --client=claude-code');
    // PATH with no bash: sh, what the front and the stand-ins start, node
    const noBash = tempDir();
    for (const tool of ['sh', 'stat', 'date', 'find', 'readlink', 'node']) {
      const at = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(at.startsWith('/') ? at : process.execPath, path.join(noBash, tool));
    }
    expect(spawnSync('/bin/sh', ['-c', 'command -v bash'], { env: { PATH: noBash } }).status).not.toBe(0);
    const sh = (env?: NodeJS.ProcessEnv, command = (front: string, args: string[]) => eventCommand(w, 'PreToolUse', `"${front}" ${args.join(' ')}`)): Wired => ({ shell: '/bin/sh', command, env });
    // a bash and an sh on PATH that leave a mark when started: the wiring starts neither (the front is no process of its own)
    const spies = tempDir();
    const started = path.join(spies, 'started');
    for (const tool of ['bash', 'sh']) {
      const at = spawnSync('/bin/sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      writeFileSync(path.join(spies, tool), `#!${at}\n: >> ${shq(started)}\nexec ${at} "$@"\n`);
      chmodSync(path.join(spies, tool), 0o755);
    }
    /** One run of each way (bash and sh spied on; no bash on PATH); whether a bash or an sh was started. */
    const both = async (text: string, extra: string[] = []): Promise<boolean> => {
      rmSync(started, { force: true });
      // and as install writes it: the PreToolUse group whose matcher names the call's tool (two groups: eventGroups)
      const tool = (JSON.parse(text) as { tool_name?: unknown }).tool_name;
      const group = (front: string, args: string[]) => eventGroups(w, 'PreToolUse', w.events.PreToolUse, `"${front}" ${args.join(' ')}`).find((g) => g.matcher!.split('|').includes(String(tool)));
      const grouped: Wired[] = group('x', []) ? [{ ...sh({ PATH: `${spies}:${repo.env.PATH}` }, (front, args) => group(front, args)!.command), asCat: group('x', [])!.command.includes(' --sourced-line ') }] : [];
      for (const how of [sh({ PATH: `${spies}:${repo.env.PATH}` }), sh({ PATH: noBash }), ...grouped]) {
        freshBeat(repo);
        await compare(repo, f, text, 'claude-code', t, extra, repo.dir, how);
      }
      return existsSync(started);
    };
    // every Claude Code fixture (with this session and with none), and its ordinary calls: a Bash line and a Write
    const texts = FIXTURE_FILES.filter((fx) => fx.startsWith('claude-code/')).flatMap((fx) => [JSON.stringify(payload(repo, fx, {}, ME)), JSON.stringify(payload(repo, fx, {}, null))]);
    expect(texts.length).toBeGreaterThanOrEqual(20);
    const ls = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'ls -la' } }));
    const write = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: 'src/app.ts', content: 'x "q" \\ y\n' } }));
    const refused = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git update-ref refs/handoffs/main/x HEAD' } }));
    // one past the environment's limit (which the front run as itself, where an answerer may be asked, is given on stdin)
    const big = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: OWN_FILE, content: 'x'.repeat(PAYLOAD_MAX_CHARS) } }));
    texts.push(ls, write, refused, `${write}\n\n`, big);
    for (const text of texts) if (await both(text)) t.wrong.push(`${text.slice(0, 200)}: a bash or an sh was started`);
    const alone = t.alone;
    expect(alone).toBeGreaterThanOrEqual(4);
    // the plugin's command (a quoted path in ${CLAUDE_PLUGIN_ROOT}), the root holding a quote, a space and a $: read from
    // the environment; pasted into the command, as Claude Code does (a root with no " or $ there: nor could the old one)
    const quoted = frontWithStandIn(false, path.join(tempDir(), "it's a $dir"));
    const pasted = frontWithStandIn(false, path.join(tempDir(), "it's mine"));
    const rootOf = (g: { front: string }) => path.dirname(path.dirname(g.front));
    const plugin = eventCommand(w, 'PreToolUse', pluginGuardCommand('${CLAUDE_PLUGIN_ROOT}', 'claude-code'));
    const ways: Array<[typeof quoted, Wired, string[]]> = [
      [quoted, sh({ CLAUDE_PLUGIN_ROOT: rootOf(quoted) }, () => plugin), ['--plugin']],
      [pasted, sh(undefined, () => plugin.split('${CLAUDE_PLUGIN_ROOT}').join(rootOf(pasted))), ['--plugin']],
      // a launcher's path install quotes (guardCommand), through its sibling front
      [quoted, sh(undefined, () => eventCommand(w, 'PreToolUse', guardCommand(path.join(rootOf(quoted), 'bin', 'git-handoff'), 'claude-code'))), []],
    ];
    expect(ways[2][1].command('', [])).toContain(`; exec "${rootOf(quoted).replace('$', '\\$')}/bin/git-handoff-guard" --client=claude-code`);
    for (const text of [ls, write, refused]) {
      for (const [g, how, extra] of ways) {
        freshBeat(repo);
        const before = t.alone + t.handed;
        await compare(repo, g, text, 'claude-code', t, extra, repo.dir, how);
        if (t.alone + t.handed !== before + 1) t.wrong.push(`${how.command('', [])}: no answer`);
      }
    }
    expect(t.alone - alone).toBe(6);
    console.log(`front vs full guard, Claude Code's sh wiring: ${t.alone} answered alone, ${t.handed} handed over, ${t.wrong.length} disagreements`);
    expect(t.wrong).toEqual([]);
  }, 120_000);

  it("Claude Code's wiring run by a bash out of POSIX mode never reads a git-handoff-guard from the current directory", () => {
    const dir = tempDir();
    const marker = path.join(dir, 'read');
    writeFileSync(path.join(dir, 'git-handoff-guard'), `: > ${shq(marker)}\nexit 0\n`);
    const command = eventCommand(WIRING.claude, 'PreToolUse', 'git-handoff-guard --client=claude-code');
    // no front on PATH: bash out of POSIX mode would take ./git-handoff-guard for `.`, and the call would be its to answer
    expect(spawnSync('sh', ['-c', 'command -v git-handoff-guard'], { env: { PATH: '/usr/bin:/bin' } }).status).not.toBe(0);
    const r = spawnSync('bash', ['-c', command], { cwd: dir, env: { PATH: '/usr/bin:/bin' }, input: '{}' });
    expect(existsSync(marker)).toBe(false);
    expect(r.status).toBe(127);
  });

  it("Claude Code's wiring reaches the real guard: a refusal through the sourced front as through the plain front; no bash (no BASH_ENV read), no SHELLOPTS taken", async () => {
    const repo = await world();
    const real = frontWithStandIn(true);
    rmSync(path.join(path.dirname(real.front), '..', 'dist'), { recursive: true });
    symlinkSync(path.join(ROOT, 'dist'), path.join(path.dirname(real.front), '..', 'dist'));
    const command = eventCommand(WIRING.claude, 'PreToolUse', `"${real.front}" --client=claude-code`);
    const marker = path.join(tempDir(), 'sourced');
    const bashEnv = path.join(path.dirname(marker), 'bash-env');
    writeFileSync(bashEnv, `: > '${marker}'\n`);
    const env = { ...cleanEnv(repo), PATH: `${catSpy(real.capture)}:${repo.env.PATH}`, BASH_ENV: bashEnv };
    // the file is one a bash started so would read
    expect(spawnSync('bash', ['-c', 'true'], { env }).status).toBe(0);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    const refused = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git update-ref refs/handoffs/main/x HEAD' } }));
    const ls = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'ls -la' } }));
    const start = JSON.stringify(payload(repo, 'claude-code/session-start.json'));
    for (const text of [refused, ls, start, refused]) {
      for (const extra of [{}, { SHELLOPTS: 'errexit:nounset' }]) {
        rmSync(`${real.capture}.cat`, { force: true });
        freshBeat(repo);
        const r = spawnSync('/bin/sh', ['-c', command], { cwd: repo.dir, env: { ...env, ...extra }, input: text });
        expect(r.status, String(r.stderr)).toBe(0);
        expect(String(r.stderr)).toBe('');
        expect(existsSync(marker)).toBe(false);
        if (text !== start) expect(r.stdout.toString()).toBe(await reference(repo, text));
        const plain = spawnSync('/bin/sh', ['-c', `"${real.front}" --client=claude-code`], { cwd: repo.dir, env, input: text });
        expect(r.stdout.toString()).toBe(plain.stdout.toString());
      }
    }
    expect(JSON.parse(spawnSync('/bin/sh', ['-c', command], { cwd: repo.dir, env, input: refused }).stdout.toString()).hookSpecificOutput.permissionDecision).toBe('deny');
  }, 120_000);

  it('answers the after-tool hook (--after) as the full guard does: unread with no note pending, handed over with one', async () => {
    const repo = await world();
    const f = frontWithStandIn(false);
    const t: Tally = { alone: 0, handed: 0, wrong: [] };
    const guardDir = path.join(repo.dir, '.git', 'handoff', 'guard');
    const notes = () => readdirSync(guardDir).filter((x) => x.endsWith('.note'));
    const after = FIXTURE_FILES.filter((fx) => /^gemini-cli\/(real-)?after-tool/.test(fx));
    expect(after.length).toBeGreaterThanOrEqual(2);
    const sub = path.join(repo.dir, 'src');
    const outside = tempDir();
    for (const fx of after) {
      for (const session of [ME, OTHER, null]) {
        for (const pending of [null, ME, OTHER]) {
          for (const note of notes()) rmSync(path.join(guardDir, note));
          if (pending) writeFileSync(path.join(guardDir, `${pending}.note`), `a warning for ${pending}`);
          for (const cwd of [repo.dir, sub, outside]) {
            freshBeat(repo);
            const before = t.alone;
            await compare(repo, f, JSON.stringify(payload(repo, fx, {}, session)), 'gemini-cli', t, ['--after'], cwd);
            // nothing pending in the hook's repository: answered alone, the payload never read
            if (!pending && cwd !== outside && t.alone !== before + 1) t.wrong.push(`${fx} ${session} from ${cwd}: not answered alone with no note pending`);
            // a note pending: the full guard gives it (the front hands over, or the reference shows the same nothing)
            if (pending && pending === session && t.alone !== before) t.wrong.push(`${fx} ${session}: its note was not handed to the full guard`);
            if (pending === session && session) {
              // the full guard gave the note (stand-in here): put it back for the next round
              writeFileSync(path.join(guardDir, `${session}.note`), `a warning for ${session}`);
            }
          }
        }
      }
      // the plugin's (extension's) wiring says --plugin --after
      await compare(repo, f, JSON.stringify(payload(repo, fx, {}, ME)), 'gemini-cli', t, ['--plugin', '--after']);
    }
    // a payload too large for a pipe, left unread: the front still answers (a client gets EPIPE; Gemini CLI ignores it)
    for (const note of notes()) rmSync(path.join(guardDir, note));
    const big = JSON.stringify(payload(repo, after[0], { tool_response: { llmContent: 'x'.repeat(1 << 20) } }, ME));
    await compare(repo, f, big, 'gemini-cli', t, ['--after']);
    console.log(`front vs full guard, after-tool hook: ${t.alone} answered alone, ${t.handed} handed over, ${t.wrong.length} disagreements`);
    expect(t.wrong).toEqual([]);
    expect(t.handed).toBeGreaterThan(0);
    rmSync(outside, { recursive: true, force: true });
  }, 120_000);

  it("answers a shell line of listed programs whatever the configuration, as node's first look does; a Write only when no file git reads names protect, guard or include", async () => {
    const repo = await world();
    const f = frontWithStandIn(false);
    const ls = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'ls -la' } }));
    const write = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: 'src/app.ts', content: 'x\n' } }));
    const config = path.join(repo.dir, '.git', 'config');
    const before = readFileSync(config, 'utf8');
    const { atime, mtime } = statSync(config);
    const run = async (): Promise<Tally> => {
      const t: Tally = { alone: 0, handed: 0, wrong: [] };
      for (const text of [ls, write]) {
        freshBeat(repo);
        await compare(repo, f, text, 'claude-code', t);
      }
      return t;
    };
    expect(await run()).toEqual({ alone: 2, handed: 0, wrong: [] });
    // each written with its date set back (not newer than node's cache): the content says node's
    for (const extra of ['[include]\n\tpath = /nonexistent.cfg\n', '[handoff]\n\tprotect = docs/**\n', '[handoff]\n\tguard = on\n']) {
      writeFileSync(config, before + extra);
      utimesSync(config, atime, mtime);
      expect(await run(), extra).toEqual({ alone: 1, handed: 1, wrong: [] });
    }
  }, 60_000);

  it('reads the lease from the beat file\'s date (node dates it when the next refresh is due), else from its content', async () => {
    const repo = await world();
    const f = frontWithStandIn(false);
    const beat = path.join(repo.dir, '.git', 'handoff', 'guard', `${ME}.beat`);
    // the full guard's refresh wrote the time into the file and dated the file a minute on
    const refreshed = Number(readFileSync(beat, 'utf8'));
    expect(Math.abs(statSync(beat).mtimeMs - (refreshed + 60_000))).toBeLessThan(1_000);
    const ls = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'ls -la' } }));
    const run = async (content: number, date: number) => {
      writeFileSync(beat, `${content}\n`);
      utimesSync(beat, new Date(), new Date(date));
      const t: Tally = { alone: 0, handed: 0, wrong: [] };
      await compare(repo, f, ls, 'claude-code', t);
      return t;
    };
    const now = Date.now();
    // dated ahead: fresh, whatever the content says (no clock process is started)
    expect(await run(now - 120_000, now + 30_000)).toEqual({ alone: 1, handed: 0, wrong: [] });
    // the date passed and the content is a minute old: due, node refreshes the lease
    expect(await run(now - 120_000, now - 1_000)).toEqual({ alone: 0, handed: 1, wrong: [] });
    // a beat written before files were dated (an older node): its content decides
    expect(await run(Date.now(), Date.now() - 1_000)).toEqual({ alone: 1, handed: 0, wrong: [] });
  });

  it('starts node without NODE_EXTRA_CA_CERTS (read at every node start; the guard opens no TLS connection)', async () => {
    const repo = await world();
    const real = frontWithStandIn(true);
    rmSync(path.join(path.dirname(real.front), '..', 'dist'), { recursive: true });
    symlinkSync(path.join(ROOT, 'dist'), path.join(path.dirname(real.front), '..', 'dist'));
    const refused = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git update-ref -d refs/handoffs/main/auth-refactor' } }));
    // a missing file makes node warn on stderr at start: the hook would print it before every handed-over call
    const env = { ...cleanEnv(repo), NODE_EXTRA_CA_CERTS: path.join(repo.home, 'no-such-bundle.pem') };
    expect(spawnSync(process.execPath, ['-e', ''], { env }).stderr.toString()).toMatch(/extra certs/);
    const r = spawnSync('sh', [real.front, '--client=claude-code'], { cwd: repo.dir, env, input: refused });
    expect(r.status).toBe(0);
    expect(r.stderr.toString()).toBe('');
    expect(JSON.parse(r.stdout.toString()).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(r.stdout.toString()).toBe(await reference(repo, refused));
  });

  it("reaches node through npm's bin links (a global prefix, a project's node_modules/.bin) without starting readlink; through any other link with it", async () => {
    const repo = await world();
    const refused = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git update-ref -d refs/handoffs/main/auth-refactor' } }));
    const expected = await reference(repo, refused);
    // the package as npm lays it out: <prefix>/lib/node_modules/git-handoff/{bin,dist}, <project>/node_modules/git-handoff
    const root = tempDir();
    const pkgAt = (dir: string) => {
      mkdirSync(path.join(dir, 'bin'), { recursive: true });
      copyFileSync(FRONT, path.join(dir, 'bin', 'git-handoff-guard'));
      chmodSync(path.join(dir, 'bin', 'git-handoff-guard'), 0o755);
      symlinkSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'));
      return dir;
    };
    const name = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).name as string;
    pkgAt(path.join(root, 'prefix', 'lib', 'node_modules', name));
    pkgAt(path.join(root, 'project', 'node_modules', name));
    pkgAt(path.join(root, 'elsewhere', 'pkg'));
    const links: Array<[string, string, boolean]> = [
      [path.join(root, 'prefix', 'bin'), `../lib/node_modules/${name}/bin/git-handoff-guard`, false],
      [path.join(root, 'project', 'node_modules', '.bin'), `../${name}/bin/git-handoff-guard`, false],
      // a link npm does not make (absolute, elsewhere): readlink finds it
      [path.join(root, 'other-bin'), path.join(root, 'elsewhere', 'pkg', 'bin', 'git-handoff-guard'), true],
    ];
    // a readlink that notes each start
    const spy = path.join(root, 'spy');
    mkdirSync(spy);
    const real = spawnSync('sh', ['-c', 'command -v readlink'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(path.join(spy, 'readlink'), `#!/bin/sh\necho "$@" >> ${shq(path.join(root, 'readlink-starts'))}\nexec ${real} "$@"\n`);
    chmodSync(path.join(spy, 'readlink'), 0o755);
    for (const [bin, target, readlink] of links) {
      mkdirSync(bin, { recursive: true });
      symlinkSync(target, path.join(bin, 'git-handoff-guard'));
      rmSync(path.join(root, 'readlink-starts'), { force: true });
      const env = { ...cleanEnv(repo), PATH: `${spy}:${bin}:${repo.env.PATH}` };
      // as a program found on PATH, and as Claude Code's sh runs it (sourced, handing over by its PATH name)
      for (const [cmd, args] of [['git-handoff-guard', ['--client=claude-code']], ['sh', ['-c', 'set -- --sourced git-handoff-guard --client=claude-code; . git-handoff-guard']]] as Array<[string, string[]]>) {
        const r = spawnSync(cmd, args, { cwd: repo.dir, env, input: refused });
        expect(r.stderr.toString(), `${target} ${cmd}`).toBe('');
        expect(r.stdout.toString(), `${target} ${cmd}`).toBe(expected);
        expect(existsSync(path.join(root, 'readlink-starts')), `${target} ${cmd}`).toBe(readlink);
      }
    }
  });

  it('on generated payloads: paths with spaces, quotes, unicode, .., symlinks, .git in names; escaped JSON; huge content', async () => {
    const repo = await world();
    const f = frontWithStandIn(false);
    const t: Tally = { alone: 0, handed: 0, wrong: [] };
    const segment = fc.constantFrom('src', 'a b', "it's", '"q"', 'caf\u00e9', '..', '.', 'memory', 'notes-link', 'gitlink', 'x.git', '.git', 'worktrees', 'handoff-main-auth-refactor.md', 'handoff-main-x.md', 'app.ts', 'plain.ts', 'new.ts', 'README.md', '$HOME', '`id`', 'a\\b', 'Memory', 'HANDOFF-main-a-b.md', 'refs', 'packed-refs', '', 'handoff-main-my-own-note.md', 'handoff-feat-auth-fix.md', 'handoff-main-nul-notes.md', 'handoff-main-crlf-notes.md', 'handoff-main-bom-notes.md', 'handoff-main-fix-test.md', 'handoff-main-marker-only.md', 'handoff-main-link-notes.md', 'handoff-main-in-git.md', 'handoff-main-new-notes.md', ...PLACE_SEGMENTS);
    // a linked worktree of the repository: its paths are its own
    const linked = path.join(tempDir(), 'wt2');
    repo.git(['worktree', 'add', '-q', linked]);
    const anyPath = fc.tuple(fc.constantFrom('', repo.dir, repo.dir, linked), fc.array(segment, { minLength: 1, maxLength: 4 })).map(([root, parts]) => (root ? `${root}/${parts.join('/')}` : parts.join('/')));
    const filePath = fc.oneof(anyPath, fc.tuple(fc.boolean(), fc.constantFrom('memory', 'src/../memory', 'notes-link', '.git/memory', 'Memory'), segment).map(([absolute, dir, name]) => `${absolute ? `${repo.dir}/` : ''}${dir}/${name}`));
    const word = fc.constantFrom('ls', '-la', 'cat', 'README.md', 'npm', 'test', 'echo', 'hi', '>', '>>', 'a.txt', 'git', 'status', 'commit', '-m', 'x', '&&', '|', ';', 'grep', 'caf\u00e9', '"q"', "'s'", '\\n', 'update-ref', 'refs/handoffs/main/x', 'rm', '-rf', 'memory', 'cp', 'sed', '-i', 'tee', '$X', 'find', '.', 'pwd', 'node', '-e', 'true', '\n');
    const command = fc.oneof(fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')), fc.constantFrom(...CORPUS.map((e) => e.command)), fc.string({ maxLength: 40 }));
    const mark = `<!-- claude-session: ${ME} -->`;
    const content = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.constantFrom(`${mark}\n# note\n`, mark, `${mark}\r\n# note`, `${mark}\t\n`, `${mark} x\n`, `\ufeff${mark}\n`, `${mark.replace(ME, 'other-9b1e77d0-bbbb')}\n`, `${mark}\n${'x'.repeat(70_000)}`, 'x'.repeat(300_000), 'caf\u00e9 "quoted" \\ back\n'),
    );
    const client = fc.constantFrom('claude-code', 'gemini-cli', 'codex', 'qwen-code', 'copilot');
    // the environment: as the test's, or with the worktree as the home and every variable that moves a client's or the
    // guard's folder (and git's global file) pointing into it
    const worktreeHome: NodeJS.ProcessEnv = { HOME: repo.dir, XDG_CONFIG_HOME: path.join(repo.dir, '.config'), XDG_CACHE_HOME: path.join(repo.dir, '.cache'), XDG_STATE_HOME: path.join(repo.dir, 'state'), XDG_DATA_HOME: path.join(repo.dir, 'data'), CLAUDE_CONFIG_DIR: path.join(repo.dir, 'claude-cfg'), CODEX_HOME: path.join(repo.dir, 'codex-home'), GIT_CONFIG_GLOBAL: path.join(repo.dir, 'global.gitconfig') };
    writeFileSync(worktreeHome.GIT_CONFIG_GLOBAL!, '[user]\n\tname = T\n\temail = t@example.com\n');
    const envs: Record<string, NodeJS.ProcessEnv> = { test: {}, 'worktree home': worktreeHome };
    const call_fields = { env: fc.constantFrom(...Object.keys(envs)), client, pre: fc.boolean(), shell: fc.boolean(), command, file: filePath, content, session: fc.constantFrom(ME, 'Upper-Case-ID', 'other-9b1e77d0-bbbb', ''), cwdSub: fc.constantFrom('', '/src', '/a b', '/nowhere', '/..', '/.git'), agent: fc.boolean(), old: fc.constantFrom('x = 1', 'mine', mark, `${mark}\nmine`, 'claude-session:', `${mark.replace(ME, 'other-9b1e77d0-bbbb')}`, ME.slice(3, 9), ME, '-->\nmine', '\nmine'), neu: fc.constantFrom('x = 2', '', mark, `${mark}\nmine`, OTHER, OTHER.slice(3, 9)), patch: fc.array(fc.tuple(fc.constantFrom('Add File: ', 'Update File: ', 'Delete File: ', 'Move to: ', 'Add File:  ', 'Frobnicate: ', 'End of File', 'Begin Patch'), filePath), { maxLength: 3 }) };
    const call = fc.record(call_fields);
    const spelling = fc.constantFrom('compact', 'escaped-unicode', 'spaced', 'escaped-slashes', 'key-escape', 'duplicate-key', 'nested-key', 'pretty');
    type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;
    const build = async (c: Call, how: string) => {
        const fx = c.shell ? Object.fromEntries(SHELL_SHAPES)[c.client] : { 'claude-code': 'claude-code/pre-tool-use-write.json', 'gemini-cli': 'gemini-cli/before-tool-write-file.json', codex: 'claude-code/pre-tool-use-edit.json', 'qwen-code': 'qwen-code/real-pre-tool-use-edit.json', copilot: 'copilot/real-pre-tool-use-create.json' }[c.client]!;
        const base = payload(repo, fx, {}, c.session);
        const event = c.pre ? base.hook_event_name : { PreToolUse: 'PostToolUse', BeforeTool: 'AfterTool' }[base.hook_event_name as string];
        const patch = ['*** Begin Patch', ...c.patch.flatMap(([op, file]) => [`*** ${op}${/File|Move/.test(op) ? file : ''}`, `+${c.content}`, '-x']), '*** End Patch'].join('\n');
        // an edit tool's strings (Claude Code's and Qwen Code's Edit): naming a marker or not
        const strings = base.tool_input && typeof base.tool_input === 'object' && 'old_string' in base.tool_input ? { old_string: c.old, new_string: c.neu } : {};
        const input = c.shell ? { ...(base.tool_input as object), command: c.command } : c.client === 'codex' && c.patch.length ? { command: patch } : { ...(base.tool_input as object), file_path: c.file, content: c.content, ...strings };
        if (c.client === 'codex' && !c.shell && c.patch.length) base.tool_name = 'apply_patch';
        const p: Record<string, unknown> = { ...base, hook_event_name: event, cwd: repo.dir + c.cwdSub, tool_input: input, ...(c.agent && c.client === 'claude-code' ? { agent_id: 'agent-1' } : {}) };
        if (c.client === 'copilot') {
          // camelCase: the arguments as toolArgs (a file tool's target as path), after the call a toolResult
          delete p.tool_input;
          Object.assign(p, { toolArgs: c.shell ? input : { path: c.file, file_text: c.content }, ...(c.pre ? {} : { toolResult: { resultType: 'success' } }) });
        }
        // node's summary of the configuration that environment gives git (else the front hands every write over)
        await reference(repo, warm, null, envs[c.env]);
        freshBeat(repo);
        await compare(repo, f, spell(p, how), c.client, t, [], repo.dir, undefined, envs[c.env]);
    };
    const warm = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: 'src/app.ts', content: 'x' } }));
    await fc.assert(fc.asyncProperty(call, spelling, build), { numRuns: 120 });
    // and calls aimed at this session's own handoff files (edits and patches naming a marker or not, look-alikes):
    // the rarest corner of the space above, where the front answers a protected file alone
    // and at the places the guard protects: every client's hook, settings and trust files at every scope, git's files, the
    // guard's folders (as the environment puts them), under either root, with a content that switches hooks off
    const places = (env: NodeJS.ProcessEnv) => {
      const e = { ...cleanEnv(repo), ...env };
      const h = hookFiles([repo.dir], e.HOME!, e);
      return [...h.files.map((x) => x.file), ...h.dirs.map((x) => `${x.file}/x.json`), ...h.plugins.map((x) => `${x.file}/x.js`), ...userDirs(e).map((d) => `${d}/x`), `${e.HOME}/.gemini/trustedFolders.json`, `${e.HOME}/.qwen/trustedFolders.json`, `${e.HOME}/.copilot/config.json`, `${e.HOME}/.gitconfig`, ...(e.GIT_CONFIG_GLOBAL ? [e.GIT_CONFIG_GLOBAL] : [])];
    };
    const inWorktree = [...new Set([...places({}), ...places(worktreeHome)].filter((x) => x.startsWith(`${repo.dir}/`)))];
    // each there, as an installation leaves them (the guard wired), in this worktree and the linked one
    for (const x of inWorktree.flatMap((y) => [y, y.replace(repo.dir, linked)])) {
      mkdirSync(path.dirname(x), { recursive: true });
      if (!existsSync(x)) writeFileSync(x, x.endsWith('.json') ? '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "git-handoff-guard --client=claude-code"}]}]}}\n' : '');
    }
    const placed = fc.constantFrom(...inWorktree.flatMap((x) => [x, path.relative(repo.dir, x), x.replace(repo.dir, linked)]));
    const switchedOff = fc.constantFrom('{"disableAllHooks": true}\n', '{"hooks": {}}\n', '[features]\ncodex_hooks = false\n', '[handoff]\n\tguard = off\n', '{"trustedFolders": []}\n');
    await fc.assert(fc.asyncProperty(fc.record({ ...call_fields, client: fc.constantFrom('claude-code', 'gemini-cli', 'codex', 'qwen-code', 'copilot'), pre: fc.constant(true), shell: fc.constant(false), file: placed, content: switchedOff, session: fc.constant(ME), cwdSub: fc.constant(''), agent: fc.constant(false), patch: fc.array(fc.tuple(fc.constantFrom('Add File: ', 'Update File: '), placed), { maxLength: 2 }) }), fc.constantFrom('compact', 'spaced'), build), { numRuns: 60 });
    const ownFile = fc.constantFrom('memory/handoff-feat-auth-fix.md', `${repo.dir}/memory/handoff-feat-auth-fix.md`, 'memory/handoff-main-crlf-notes.md', 'memory/handoff-main-marker-only.md', OWN_FILE, FOREIGN_FILE);
    const aimed = fc.record({ ...call_fields, client: fc.constantFrom('claude-code', 'codex', 'qwen-code'), pre: fc.constant(true), shell: fc.constant(false), file: ownFile, session: fc.constant(ME), cwdSub: fc.constant(''), agent: fc.constant(false), patch: fc.array(fc.tuple(fc.constantFrom('Add File: ', 'Update File: ', 'Update File: ', 'Delete File: ', 'Move to: ', 'End of File'), ownFile), { maxLength: 2 }) });
    await fc.assert(fc.asyncProperty(aimed, fc.constantFrom('compact', 'compact', 'escaped-slashes', 'spaced'), build), { numRuns: 60 });
    console.log(`front vs full guard, generated: ${t.alone} answered alone, ${t.handed} handed over, ${t.wrong.length} disagreements`);
    expect(t.wrong).toEqual([]);
    // the count varies with the seed (most generated calls name something the front must hand over)
    expect(t.alone).toBeGreaterThan(3);
  }, 120_000);
});

/** One payload, spelled as a client might (or as an attacker would) spell its JSON. */
function spell(p: Record<string, unknown>, how: string): string {
  const compact = JSON.stringify(p);
  switch (how) {
    case 'escaped-unicode':
      return compact.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    case 'spaced':
      return JSON.stringify(p).replace(/":"/g, '": "');
    case 'escaped-slashes':
      return compact.replace(/\//g, '\\/');
    case 'key-escape':
      // the same key spelled with an escape, last wins in JSON.parse: a Read that is really a Bash
      return compact.replace(/^\{/, '{"tool\\u005fname":"Read",').replace('"tool_name"', '"tool\\u005fname"');
    case 'duplicate-key':
      return compact.replace(/^\{/, '{"tool_name":"Read","hook_event_name":"Notification",');
    case 'nested-key':
      return compact.replace(/\}$/, ',"extra":{"file_path":"src/app.ts","command":"ls"}}');
    case 'pretty':
      return JSON.stringify(p, null, 2);
    default:
      return compact;
  }
}

describe('the ledger under concurrent writers', () => {
  it('loses no line when sessions (and one session from many processes) append at once, sh front and node alike', async () => {
    const repo = makeRepo({ commit: true });
    const sessions = ['par-a-1111', 'par-b-2222', 'par-c-3333'];
    mkdirSync(path.join(repo.dir, 'src'));
    // each session known, lease fresh, config cached: the front answers and appends alone
    for (const s of sessions) await reference(repo, JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: 'src/app.ts', content: 'x' } }, s)));
    freshBeat(repo);
    const PER = 15;
    const script = (s: string, w: number) =>
      `i=0; while [ $i -lt ${PER} ]; do printf '%s' '{"session_id":"${s}","cwd":"${repo.dir}","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"src/w${w}-'$i'.ts","content":"x"}}' | sh ${FRONT} --client=claude-code || exit 1; i=$((i+1)); done`;
    const writers: Array<[string, number]> = [];
    for (const s of sessions) for (let w = 0; w < 3; w++) writers.push([s, w]);
    // and the full guard (node) appending to the same files at the same time: a redirect is its to judge
    const NODE_PER = 3;
    const viaNode = (s: string) =>
      `i=0; while [ $i -lt ${NODE_PER} ]; do printf '%s' '{"session_id":"${s}","cwd":"${repo.dir}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo x > src/n-'$i'.ts"}}' | ${path.join(ROOT, 'bin', 'git-handoff')} guard --client=claude-code >/dev/null || exit 1; i=$((i+1)); done`;
    const run = (cmd: string) => new Promise<number>((resolve) => spawn('sh', ['-c', cmd], { cwd: repo.dir, env: cleanEnv(repo), stdio: 'ignore' }).on('close', (c) => resolve(c ?? -1)));
    const codes = await Promise.all([...writers.map(([s, w]) => run(script(s, w))), ...sessions.map((s) => run(viaNode(s)))]);
    expect(codes.every((c) => c === 0)).toBe(true);
    const raw = sessions.flatMap((s) => readFileSync(path.join(repo.dir, '.git', 'handoff', 'ledger', `${s}.jsonl`), 'utf8').split('\n').filter(Boolean));
    // every line whole (parses), every intended path there exactly once
    const parsed = raw.map((l) => JSON.parse(l));
    const named = parsed.filter((e) => e.intent && /^src\/w\d-\d+\.ts$/.test(e.paths[0])).map((e) => `${e.session} ${e.paths[0]}`);
    expect(named.length).toBe(sessions.length * 3 * PER);
    expect(new Set(named).size).toBe(named.length);
    const byNode = parsed.filter((e) => e.intent && /^src\/n-\d+\.ts$/.test(e.paths[0])).map((e) => `${e.session} ${e.paths[0]}`);
    expect(new Set(byNode).size).toBe(sessions.length * NODE_PER);
    // none ran yet, so none is a claim; once the files are written, all are
    expect(readLedger(path.join(repo.dir, '.git')).flatMap((e) => e.paths ?? []).filter((p) => p.startsWith('src/w'))).toEqual([]);
    for (const e of parsed.filter((x) => x.intent && x.paths[0].startsWith('src/w'))) writeFileSync(path.join(repo.dir, e.paths[0]), 'x');
    expect(readLedger(path.join(repo.dir, '.git')).flatMap((e) => e.paths ?? []).filter((p) => p.startsWith('src/w')).length).toBe(sessions.length * 3 * PER);
  }, 120_000);
});

describe('the front\'s word lists', () => {
  it('are what scripts/front-words.mjs generates from src/guard/allow.ts (the build writes them; none kept by hand)', () => {
    const front = readFileSync(FRONT, 'utf8');
    expect(withBlock(front, frontBlock(allow, FRONT_CONSTANTS, frontClients(), FRONT_FUNCTIONS), fileBlock(FILE_FUNCTIONS))).toBe(front);
    // the paths it reads are node's (and the after-tool wiring's bash test looks where node leaves a note)
    expect(FRONT_CONSTANTS).toMatchObject({ guard_dir: 'handoff/guard', lineage_dir: 'handoff/lineage', ledger_dir: 'handoff/ledger' });
    expect(afterCommand('x')).toContain(`.git/${FRONT_CONSTANTS.guard_dir}/`);
    // issue 24: the front, if kept, is 150 lines at most, its constants generated
    expect(front.endsWith('\n') && front.split('\n').length - 1).toBeLessThanOrEqual(150);
    // every program the front names is on the allowlist, and the generator leaves out what it cannot check
    const block = frontBlock(allow, FRONT_CONSTANTS, frontClients());
    const kinds = /^kind\(\) \{ case \$1 in (.*?)\) k=\$1 ;;/m.exec(block)![1].split(' | ');
    for (const name of Object.keys(READ_ONLY)) {
      const rule = READ_ONLY[name];
      expect(kinds.includes(name.replace(/[[]/g, '\\[')), name).toBe(rule.maxOperands === undefined && !rule.only);
    }
    for (const verb of Object.keys(GIT_READ_ONLY)) expect(new RegExp(`[ (]${verb}[ |)]`).test(block.split('\n').find((l: string) => l.startsWith('verb()'))!), verb).toBe(!GIT_READ_ONLY[verb].only);
    // and a change to the allowlist changes the block
    expect(frontBlock({ ...allow, READ_ONLY: { ...READ_ONLY, frob: {} } }, FRONT_CONSTANTS, frontClients())).toContain(' | frob) k=$1 ;;');
  });

  it('the front allows a plain line only where the allowlist allows it (generated lines, the real sh front)', async () => {
    const repo = await world();
    const f = frontWithStandIn(false);
    const programs = [...Object.keys(READ_ONLY), 'git', ...Object.keys(PROJECT_RUNNERS), 'rm', 'tee', 'sed', 'xargs', 'env', 'sh'];
    const args = ['-o', '-O', '--output=x', '--ou', '--out', '-uo', '-delete', '-exec', '+x', '-n', '-la', 'x', 'a.txt', 'memory/handoff-main-x.md', '.git/refs', 'refs/handoffs/main/x', 'test', 'run', 'log', 'status', 'branch', '-d', 'update-ref', '--oneline', '-C', 'src', '--compress-program', '-T', 'in', 'out', 'vitest', '--pre'];
    const word = fc.oneof(fc.constantFrom(...programs), fc.constantFrom(...args));
    const simple = fc.tuple(fc.constantFrom(...programs), fc.array(word, { maxLength: 4 })).map(([p, a]) => [p, ...a].join(' '));
    const line = fc.tuple(simple, fc.array(fc.tuple(fc.constantFrom('|', '&&', ';', '||'), simple), { maxLength: 2 })).map(([s0, rest]) => [s0, ...rest.flat()].join(' '));
    const wrong: string[] = [];
    let alone = 0;
    await fc.assert(
      fc.asyncProperty(line, async (command) => {
        freshBeat(repo);
        const text = JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }));
        const r = spawnSync('sh', [f.front, '--client=claude-code'], { cwd: repo.dir, env: cleanEnv(repo), input: text });
        if (r.stdout.toString() === `${HANDED}\n`) return;
        alone++;
        if (!surelyHarmless({ type: 'shell', command, cwd: repo.dir }, firstParse(command, repo.dir))) wrong.push(command);
      }),
      { numRuns: 200 },
    );
    expect(wrong).toEqual([]);
    expect(alone).toBeGreaterThan(10);
  }, 120_000);
});
