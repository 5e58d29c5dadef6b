// Fuzzed client payloads: random and truncated JSON, wrong types at every field, huge strings, unicode, arrays,
// nested junk and prototype-pollution keys. Thousands go through the parsers and the whole decision in-process;
// a sample goes through the real `git-handoff guard`. The guard never throws, always exits 0 with nothing or one
// well-formed answer in the detected client's shape, never shows a stack trace, answers in time, and logs bad input.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectClient } from '../../src/clients/index';
import { CLIENT_NAMES } from '../../src/clients/names';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import { payloadProblems } from '../../src/guard/first';
import type { Decision, EventKind } from '../../src/clients/event';
import { BIN, makeRepo, type TestRepo } from '../helpers/repo';
import { FIXTURES, readLog } from './helpers';
import { foreignWorld, LEAK, malformed, ME, OTHER } from './world';
import CORPUS from './fixtures/shell-corpus.json';

const KINDS: EventKind[] = ['pre-tool', 'post-tool', 'session-start', 'session-end', 'stop', 'pre-compact', 'other'];
// 'paths': a tool of unknown shape, judged on every path-like argument (issue 24)
const ACTIONS = ['shell', 'write', 'edit', 'patch', 'paths', 'other'];
const EVENTS = ['PreToolUse', 'PostToolUse', 'SessionStart', 'Stop', 'PreCompact', 'BeforeTool', 'AfterTool', 'AfterAgent', 'PreCompress', 'beforeShellExecution', 'afterShellExecution', 'afterFileEdit', 'preToolUse', 'postToolUse', 'sessionStart', 'stop', 'preCompact', 'Notification', '__proto__', 'constructor', 'toString', 'hasOwnProperty', ''];
const TOOLS = ['Bash', 'PowerShell', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Read', 'write_file', 'replace', 'run_shell_command', 'apply_patch', 'shell', 'exec_command', 'Shell', 'StrReplace', 'Delete', '__proto__', 'constructor', 'valueOf'];
const EVIL_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
const FIELDS = ['hook_event_name', 'session_id', 'conversation_id', 'generation_id', 'workspace_roots', 'cwd', 'tool_name', 'tool_input', 'turn_id', 'timestamp', 'command', 'file_path', 'edits', 'source', 'trigger', 'stop_hook_active', 'agent_id', 'transcript_path'];
const INPUT_FIELDS = ['command', 'file_path', 'content', 'contents', 'old_string', 'new_string', 'edits', 'notebook_path', 'new_source', 'patch', 'input', 'dir_path', 'workdir'];

/** Text as a client might send it, and text no client should: unicode of every plane, controls, lone surrogates. */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('\ud800', '\udfff', '\u0000', '\u202e', '\ufeff', '../../..', '~', '$HOME', '`id`', '<!-- claude-session: x -->'),
  fc.nat({ max: 100_000 }).map((n) => 'x'.repeat(n)),
);

/** A JSON object written as text from key/value pairs, so `__proto__` becomes an own key the way JSON.parse makes it. */
class RawObject {
  constructor(readonly pairs: Array<[string, unknown]>) {}
}
const rawObject = (pairs: Array<[string, unknown]>) => new RawObject(pairs);
function toText(v: unknown): string {
  if (v instanceof RawObject) return `{${v.pairs.map(([k, x]) => `${JSON.stringify(k)}:${toText(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(toText).join(',')}]`;
  return JSON.stringify(v) ?? 'null';
}

/** A value of any JSON type, nested, sometimes carrying prototype-pollution keys of its own. */
const junk: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    text,
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...EVIL_KEYS, ...INPUT_FIELDS, ...FIELDS), fc.string({ maxLength: 8 })), tie('value')), { maxLength: 5 }).map(rawObject),
})).value;

/** A path inside the world repository, or anywhere. */
const pathIn = (root: string) => fc.oneof(fc.constantFrom('memory/handoff-main-auth-refactor.md', 'memory/handoff-main-my-own-note.md', 'memory/handoff-main-fix.md', '.git/packed-refs', '.git/refs/handoffs/main/auth-refactor', 'src/app.ts', '/etc/passwd', ''), text).map((p) => (p.startsWith('/') || p === '' ? p : path.join(root, p)));

/** A tool input: plausible fields with plausible or junk values, plus junk keys. */
const toolInput = (root: string) =>
  fc
    .tuple(
      fc.record(
        {
          command: fc.oneof(fc.constantFrom(...CORPUS.map((e: { command: string }) => e.command)), text, fc.array(text, { maxLength: 5 }), junk),
          file_path: fc.oneof(pathIn(root), junk),
          content: fc.oneof(fc.constantFrom(`<!-- claude-session: ${ME} -->\nx`, `<!-- claude-session: ${OTHER} -->\nx`, 'no marker'), text, junk),
          old_string: fc.oneof(text, junk),
          new_string: fc.oneof(text, junk),
          edits: fc.oneof(fc.array(fc.record({ old_string: fc.oneof(text, junk), new_string: fc.oneof(text, junk) }), { maxLength: 3 }), junk),
          dir_path: fc.oneof(fc.constant(root), junk),
        },
        { requiredKeys: [] },
      ),
      fc.array(fc.tuple(fc.constantFrom(...EVIL_KEYS), junk), { maxLength: 2 }),
    )
    .map(([fields, evil]) => rawObject([...Object.entries(fields), ...evil]));

/** A whole payload as text: fields of every client, each right, wrong-typed or missing, and evil keys. */
const payloadText = (root: string, cwd: fc.Arbitrary<unknown>) =>
  fc
    .tuple(
      fc.record(
        {
          hook_event_name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...EVENTS) }, { weight: 1, arbitrary: junk }),
          session_id: fc.oneof(fc.constantFrom(ME, OTHER, 'bad id; rm -rf /', ''), junk),
          conversation_id: fc.oneof(fc.constantFrom(ME, OTHER), junk),
          generation_id: junk,
          workspace_roots: fc.oneof(fc.constant([root]), junk),
          cwd,
          tool_name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TOOLS) }, { weight: 1, arbitrary: junk }),
          tool_input: fc.oneof({ weight: 4, arbitrary: toolInput(root) }, { weight: 1, arbitrary: junk }),
          turn_id: junk,
          timestamp: junk,
          command: fc.oneof(fc.constantFrom(...CORPUS.map((e: { command: string }) => e.command)), junk),
          file_path: fc.oneof(pathIn(root), junk),
          edits: junk,
          source: junk,
          stop_hook_active: junk,
          agent_id: junk,
        },
        { requiredKeys: [] },
      ),
      fc.array(fc.tuple(fc.constantFrom(...EVIL_KEYS), junk), { maxLength: 3 }),
    )
    .map(([fields, evil]) => toText(rawObject([...Object.entries(fields), ...evil])));

const decision: fc.Arbitrary<Decision> = fc.record(
  { deny: fc.string(), updatedInput: fc.dictionary(fc.string({ maxLength: 5 }), fc.string()), context: fc.string(), followUp: fc.string() },
  { requiredKeys: [] },
);

const protoKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join(',');

function checkParsed(p: Record<string, unknown>) {
  const problems = payloadProblems(p);
  expect(Array.isArray(problems)).toBe(true);
  const adapter = detectClient(p);
  expect(CLIENT_NAMES).toContain(adapter.client);
  const e = adapter.parse(p);
  expect(e.client).toBe(adapter.client);
  expect(KINDS).toContain(e.kind);
  expect(typeof e.name).toBe('string');
  expect(typeof e.cwd).toBe('string');
  expect(e.session === null || typeof e.session === 'string').toBe(true);
  expect(e.tool === null || typeof e.tool === 'string').toBe(true);
  expect(ACTIONS).toContain(e.action.type);
  if (e.action.type === 'shell') expect(typeof e.action.command).toBe('string');
  if (e.action.type === 'write' || e.action.type === 'edit') expect(typeof e.action.path).toBe('string');
  // an unknown tool's action: the paths it names and the command lines it carries (issue 37), at least one of them
  if (e.action.type === 'paths') {
    const { paths, commands = [] } = e.action;
    expect(paths.length + commands.length > 0 || !!e.action.over).toBe(true);
    expect([...paths, ...commands].every((x) => typeof x === 'string')).toBe(true);
  }
  if (e.action.type === 'edit') for (const x of e.action.edits) expect([typeof x.oldText, typeof x.newText]).toEqual(['string', 'string']);
  expect(e.toolInput && typeof e.toolInput === 'object' && !Array.isArray(e.toolInput)).toBe(true);
  return { adapter, event: e };
}

describe('client payload parsers, in-process', () => {
  it('detect, parse and render any JSON object without throwing, typed, in the detected client shape (3000 runs)', () => {
    const before = protoKeys();
    fc.assert(
      fc.property(payloadText('/tmp/nowhere', fc.oneof(fc.constant('/tmp/nowhere'), junk)), decision, (textIn, d) => {
        const p = JSON.parse(textIn);
        const { adapter, event } = checkParsed(p);
        const out = adapter.render(event, d);
        expect(out === null || typeof out === 'string').toBe(true);
        expect(malformed(adapter.client, out ?? '', event.kind)).toBeNull();
      }),
      { numRuns: 3000 },
    );
    expect(protoKeys()).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('any JSON value at all, nested or not, is either refused as not an object or parsed (2000 runs)', () => {
    fc.assert(
      fc.property(junk, (v) => {
        const p = JSON.parse(toText(v));
        if (p && typeof p === 'object' && !Array.isArray(p)) checkParsed(p);
      }),
      { numRuns: 2000 },
    );
  });

  it('the whole decision on fuzzed payloads in a repository with foreign work: no throw, a well-formed answer (1000 runs)', async () => {
    const repo = await foreignWorld();
    const env = { ...process.env, GIT_HANDOFF_SESSION: ME };
    await fc.assert(
      fc.asyncProperty(payloadText(repo.dir, fc.oneof(fc.constant(repo.dir), fc.constant(path.join(repo.dir, 'memory')))), async (textIn) => {
        const { adapter, event } = checkParsed(JSON.parse(textIn));
        // The repository is the world: only events that stay inside it (a cwd elsewhere is the parsers' test above).
        const out = adapter.render(event, await decide(new GuardContext(event, env)));
        expect(malformed(adapter.client, out ?? '', event.kind)).toBeNull();
        if (out) expect(out).not.toMatch(LEAK);
      }),
      { numRuns: 1000 },
    );
  });

  it('a written path no file can have (a name over 255 bytes, a path through a file, 5,000 bytes long) is decided, never thrown', async () => {
    const repo = await foreignWorld();
    const env = { ...process.env, GIT_HANDOFF_SESSION: ME };
    const names = ['x'.repeat(300), `memory/handoff-${'y'.repeat(300)}.md`, 'README.md/inside', `${'d/'.repeat(2500)}f`];
    for (const f of ['claude-code/pre-tool-use-write.json', 'claude-code/pre-tool-use-edit.json', 'gemini-cli/before-tool-write-file.json', 'cursor/pre-tool-use-write.json', 'codex/pre-tool-use-apply-patch.json']) {
      const fixture = readFileSync(path.join(FIXTURES, f), 'utf8').split('/home/user/my-project').join(repo.dir);
      for (const name of names) {
        const textIn = fixture.replace(/src\/app\.ts|notes\/todo\.md/g, name);
        expect(textIn).toContain(name);
        const { adapter, event } = checkParsed(JSON.parse(textIn));
        const out = adapter.render(event, await decide(new GuardContext(event, env)));
        expect(malformed(adapter.client, out ?? '', event.kind)).toBeNull();
      }
    }
  });
});

/** Runs the real command with raw bytes on stdin. */
async function runGuard(repo: TestRepo, input: Buffer | string) {
  // the watchdog's budget out of reach: a second suite on the machine may slow a call down, never change its answer
  const r = await execa(BIN, ['guard'], { cwd: repo.dir, env: { ...repo.env, GIT_HANDOFF_GUARD_BUDGET_MS: '600000' }, extendEnv: false, input, reject: false, timeout: 600_000 });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const cacheLog = (repo: TestRepo) => {
  const f = path.join(repo.home, '.cache', 'git-handoff', 'guard.log');
  return existsSync(f) ? readFileSync(f, 'utf8') : '';
};

describe('git-handoff guard, the real command, on a fuzzed sample', () => {
  it('exits 0, prints nothing on stderr and nothing or one well-formed answer, never the watchdog\'s; bad input is logged', async () => {
    const repo = await foreignWorld();
    const fixtures = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).map((f) => readFileSync(path.join(FIXTURES, f), 'utf8').split('/home/user/my-project').join(repo.dir));
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const cases: Array<{ name: string; input: Buffer | string }> = [
      // random payloads of every shape (seeded: the same sample every run)
      ...fc.sample(payloadText(repo.dir, fc.oneof(fc.constant(repo.dir), junk)), { numRuns: 30, seed: 8 }).map((t, i) => ({ name: `random ${i}`, input: t })),
      // every fixture cut short: a third in, or just before its end
      ...fixtures.map((f, i) => ({ name: `truncated fixture ${i}`, input: f.slice(0, [Math.floor(f.length / 3), f.length - 2][i % 2]) })),
      { name: 'deeply nested arrays', input: deep(200_000) },
      { name: 'deeply nested tool_input', input: `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":${JSON.stringify(repo.dir)},"tool_input":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}` },
      { name: 'a 3 MiB command', input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', session_id: ME, cwd: repo.dir, tool_input: { command: `git log ${'x'.repeat(3 << 20)}` } }) },
      { name: 'a 3 MiB chain of update-refs', input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', session_id: ME, cwd: repo.dir, tool_input: { command: 'git update-ref -d refs/handoffs/main/auth-refactor;'.repeat(60_000) } }) },
      { name: 'invalid UTF-8', input: Buffer.concat([Buffer.from('{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git update-ref -d refs/handoffs/main/'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}')]) },
      { name: 'a byte-order mark', input: '\ufeff' + fixtures[0] },
      { name: 'NUL bytes', input: fixtures[0].replace('"cwd"', '"cwd\u0000"') },
      { name: 'lone surrogates', input: `{"hook_event_name":"PreToolUse","tool_name":"Bash","session_id":"\\ud800","cwd":${JSON.stringify(repo.dir)},"tool_input":{"command":"echo \\udfff > memory/handoff-main-auth-refactor.md"}}` },
      { name: '__proto__ everywhere', input: `{"__proto__":{"hook_event_name":"PreToolUse","polluted":1},"constructor":{"prototype":{"polluted":1}},"hook_event_name":"PreToolUse","tool_name":"Bash","session_id":"${ME}","cwd":${JSON.stringify(repo.dir)},"tool_input":{"__proto__":{"command":"git update-ref -d refs/handoffs/main/auth-refactor"},"command":"ls"}}` },
      { name: 'a number', input: '42' },
      { name: 'whitespace', input: ' \n\t ' },
      { name: 'two objects', input: '{"hook_event_name":"Stop"}{"hook_event_name":"Stop"}' },
    ];
    const wrong: string[] = [];
    let badInputs = 0;
    const queue = [...cases];
    const worker = async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const r = await runGuard(repo, c.input);
        let parsed: unknown;
        try {
          parsed = JSON.parse(Buffer.isBuffer(c.input) ? c.input.toString('utf8') : c.input);
        } catch {
          parsed = undefined;
        }
        const isObject = !!parsed && typeof parsed === 'object' && !Array.isArray(parsed);
        if (r.exitCode !== 0) wrong.push(`${c.name}: exit ${r.exitCode}`);
        if (r.stderr !== '') wrong.push(`${c.name}: stderr ${r.stderr.slice(0, 300)}`);
        if (LEAK.test(r.stdout)) wrong.push(`${c.name}: stdout leaks ${r.stdout.slice(0, 300)}`);
        if (!isObject) {
          if (r.stdout !== '') wrong.push(`${c.name}: answered bad input: ${r.stdout.slice(0, 200)}`);
          badInputs++;
        } else {
          const adapter = detectClient(parsed as Record<string, unknown>);
          const bad = malformed(adapter.client, r.stdout, adapter.parse(parsed as Record<string, unknown>).kind);
          if (bad) wrong.push(`${c.name}: ${bad}`);
          // Wrong types are bad input too: logged, and what could be read was still checked.
          if (payloadProblems(parsed as Record<string, unknown>).length) badInputs++;
        }
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(wrong).toEqual([]);
    // times are not asserted (a loaded machine stretches them; bench/ measures them): no call ran into the watchdog
    expect(readLog(repo) + cacheLog(repo)).not.toMatch(/timeout: no decision in time/);
    // Each bad input left its line (not JSON, not an object, too large or wrong types), here or in the user cache.
    const logged = readLog(repo) + cacheLog(repo);
    expect(logged).toMatch(/bad input: not JSON/);
    expect((logged.match(/bad input: /g) ?? []).length).toBeGreaterThanOrEqual(badInputs);
    expect(badInputs).toBeGreaterThan(20);
    expect(logged).not.toMatch(/internal error/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
