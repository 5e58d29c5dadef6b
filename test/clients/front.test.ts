// The sh files know every client TypeScript knows (issue 35): the hook stub reads each client's session variable as
// node does, and the sh front's client lines (arguments, events, tool shapes) answer as each client's adapter does.
// Driven by the tables in src/clients/, so a client or variable added there and unknown to an sh file fails here.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRONT_CLIENTS } from '../../src/clients/front';
import type { FrontShape } from '../../src/clients/record';
import { detectClient } from '../../src/clients/index';
import { CLIENT_NAMES, SESSION_ID_VARS, SESSION_VARS } from '../../src/clients/names';
import { RECORDS, WIRING } from '../../src/clients/records';
import { pluginGuardCommand } from '../../src/install/plugin-folders';
import { eventCommand, guardCommand } from '../../src/install/agents';
import { resolveSession } from '../../src/handoff/state/session';
import { CHECKED_LINE, NAMES_LINE, withStubLines } from '../../src/hooks/stub-lines';
import { CHECKED_REFS } from '../../src/hooks/transaction';
import { claimsMarker } from '../../src/handoff/state/claims-marker';
import { stubText } from '../../src/hooks/install';
import { DECIDED_PREFIX, STUB_ARG } from '../../src/git/hook-stub';
// @ts-expect-error: a build script, plain JavaScript
import { BEGIN, END } from '../../scripts/front-words.mjs';
import { ROOT, tempDir } from '../helpers/repo';

const STUB = readFileSync(path.join(ROOT, 'git-hooks', 'stub.sh'), 'utf8');
const FRONT = readFileSync(path.join(ROOT, 'bin', 'git-handoff-guard'), 'utf8');
const sessionLine = (text: string) => text.split('\n').find((l) => l.startsWith('session='))!;

/** What `session` the stub's line gives in an environment holding only `env`. */
function stubSession(line: string, env: Record<string, string>): string {
  const r = spawnSync('sh', ['-c', `${line}\nprintf %s "$session"`], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** The front's generated block in a file, for sh to source. */
function frontBlockFile(): string {
  const a = FRONT.indexOf(BEGIN);
  const b = FRONT.indexOf(END);
  expect(a).toBeGreaterThanOrEqual(0);
  const file = path.join(tempDir(), 'block.sh');
  writeFileSync(file, FRONT.slice(a, b + END.length));
  return file;
}

/** Runs `script` after the front's generated block with `client` set; its stdout. */
function inFront(block: string, client: string, script: string, ...args: string[]): string {
  const r = spawnSync('sh', ['-c', `. "$0"; client=$1; shift; ${script}`, block, client, ...args], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout;
}

describe('the hook stub and the session variables', () => {
  it('reads every client variable node reads, in node order, both in the template and in what install writes', () => {
    const vars = SESSION_VARS.map(([v]) => v);
    // every client with a session variable in TypeScript is in the stub (OpenCode's is set by its plugin)
    for (const c of CLIENT_NAMES.filter((n) => RECORDS[n].sessionVar !== null)) expect(SESSION_VARS.some(([, k]) => k === c), c).toBe(true);
    for (const text of [STUB, stubText('/x/git-handoff')]) {
      const line = sessionLine(text);
      for (const v of SESSION_ID_VARS) expect(line, v).toContain(v);
      // each variable alone, and each with every later one set too: the stub picks what node picks
      for (let i = 0; i < vars.length; i++) {
        for (const later of [[], vars.slice(i + 1)]) {
          const env = Object.fromEntries([vars[i], ...later].map((v, n) => [v, `id-${n}-${v.toLowerCase()}`]));
          expect(stubSession(line, env), vars[i]).toBe(resolveSession(undefined, env)!.id);
        }
      }
      expect(stubSession(line, { GIT_HANDOFF_SESSION: 'own', [vars[0]]: 'client' })).toBe(resolveSession(undefined, { GIT_HANDOFF_SESSION: 'own', [vars[0]]: 'client' })!.id);
      expect(stubSession(line, {})).toBe('');
    }
    // the template is what the generator makes of it (the build writes it; none kept by hand)
    expect(withStubLines(STUB)).toBe(STUB);
  });

  it("names the refs, the state file, the copy its checks read and the handler's argument only through its generated lines, taken from the TypeScript", () => {
    const lines = [STUB.match(CHECKED_LINE)![0], STUB.match(NAMES_LINE)![0]].join('\n');
    for (const fact of [...CHECKED_REFS, path.relative('/c', claimsMarker('/c')), DECIDED_PREFIX, STUB_ARG]) {
      expect(lines, fact).toContain(fact);
      // nowhere else in the stub's code (comments may say what a check is about)
      const code = STUB.replace(CHECKED_LINE, '').replace(NAMES_LINE, '').split('\n').map((l) => l.replace(/^\s*#.*$/, '').replace(/\s#\s.*$/, ''));
      expect(code.filter((l) => l.includes(fact)), fact).toEqual([]);
    }
  });
});

describe("the sh front's client lines", () => {
  it('every client whose wiring runs the front has its facts in src/clients/front.ts', () => {
    const served = FRONT_CLIENTS.map((f) => f.wiring.client);
    // a wiring of files runs the front where its record gives the front's facts (droid), else node's guard straight (a
    // plugin module runs in its client's process)
    for (const w of Object.values(WIRING)) expect(served.includes(w.client), w.client).toBe(w.format === 'files' ? RECORDS[w.client].front !== null : true);
  });

  it('accepts exactly the arguments each wiring and plugin command passes, the after-tool hook as such', () => {
    const block = frontBlockFile();
    const argvOf = (command: string) => {
      const tail = command.slice(command.lastIndexOf('git-handoff-guard') + 'git-handoff-guard'.length);
      return tail.replace(/^"/, '').split(/[;|]/)[0].trim().split(/\s+/).filter((w) => w.startsWith('--') && w !== '--payload=env');
    };
    const commands: Array<[string, boolean]> = [];
    for (const { wiring: w, facts, plugin } of FRONT_CLIENTS) {
      for (const event of Object.keys(w.events)) {
        const base = guardCommand('git-handoff', w.client);
        commands.push([eventCommand(w, event, base), event === w.after]);
        if (plugin) commands.push([eventCommand(w, event, pluginGuardCommand('/p', w.client)), event === w.after]);
      }
    }
    expect(commands.length).toBeGreaterThan(10);
    for (const [command, after] of commands) {
      const argv = argvOf(command);
      expect(argv[0], command).toMatch(/^--client=/);
      expect(inFront(block, '', 'after=; args "$@" && echo "ok:$after"', ...argv), command).toBe(`ok:${after ? 1 : ''}\n`);
    }
    // an unknown client, or a known one with a flag no wiring passes, is node's
    for (const argv of [['--client=cursor'], ['--client=opencode'], ['--client=codex', '--plugin'], ['--client=claude-code', '--after'], ['--client=nobody']]) {
      expect(inFront(block, '', 'args "$@" && echo ok', ...argv), argv.join(' ')).toBe('');
    }
  });

  it("reads each client's events and tool shapes as its adapter does", () => {
    const block = frontBlockFile();
    const session = 'sess-1';
    const cwd = '/r';
    for (const { wiring: w, facts, plugin } of FRONT_CLIENTS) {
      const k = facts.keys;
      const events = facts.events ? Object.entries(facts.events) : [];
      // each event of the client's own table: the front's kind is node's, for pre- and post-tool ones, none for others
      for (const [name, kind] of events) {
        const front = inFront(block, w.client, 'event "$1" && echo $event', name);
        const p = { [k.event!]: name, [k.session]: session, cwd };
        expect(detectClient(p, w.client).parse(p).kind, `${w.client} ${name}`).toBe(kind);
        expect(front, `${w.client} ${name}`).toBe(kind === 'pre-tool' ? 'pre\n' : kind === 'post-tool' ? 'post\n' : '');
      }
      // another client's event name is not this client's (node reads it as 'other')
      for (const other of ['BeforeTool', 'PreToolUse', 'preToolUse']) {
        if (facts.events && Object.hasOwn(facts.events, other)) continue;
        expect(inFront(block, w.client, 'event "$1" && echo $event', other), `${w.client} ${other}`).toBe('');
      }
      const preName = events.find(([, v]) => v === 'pre-tool')?.[0];
      // each tool the front reads: node reads the same input the same way
      const expected: Record<FrontShape, (input: Record<string, unknown>) => unknown> = {
        command: () => ({ type: 'shell', command: 'ls' }),
        file_path: () => ({ path: '/r/a.txt' }),
        // a whole file: its content from `content` (the front reads line 1 of it for this session's own handoff file)
        write: () => ({ type: 'write', path: '/r/a.txt', content: 'x' }),
        path: () => ({ path: '/r/a.txt' }),
        // a whole file by `path` and `file_text`, where `content` is not there (here it is, and wins, as in Claude Code's names)
        create: () => ({ type: 'write', path: '/r/a.txt', content: 'x' }),
        patch: () => ({ type: 'patch' }),
      };
      for (const [tool, shape] of Object.entries(facts.tools)) {
        const input: Record<string, unknown> = shape === 'command' ? { command: 'ls' } : shape === 'patch' ? { command: '*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n' } : { [shape === 'write' ? 'file_path' : shape === 'create' ? 'path' : shape]: '/r/a.txt', content: 'x', old_string: 'a', new_string: 'b', old_str: 'a', new_str: 'b', file_text: 'not the content' };
        const p = { ...(k.event ? { [k.event]: preName } : {}), [k.session]: session, [k.tool]: tool, [k.input]: input, cwd };
        const e = detectClient(p, w.client).parse(p);
        expect(e.kind, `${w.client} ${tool}`).toBe('pre-tool');
        expect(e.session).toBe(session);
        expect(e.action, `${w.client} ${tool}`).toMatchObject(expected[shape](input) as object);
        if (shape === 'file_path' || shape === 'path' || shape === 'write' || shape === 'create') expect(['write', 'edit'], `${w.client} ${tool}`).toContain(e.action.type);
        expect(inFront(block, w.client, 'shape "$1" && echo $shape', tool), `${w.client} ${tool}`).toBe(`${shape}\n`);
        // the front reads node's payload (split on `"`) to the values node reads: session, tool, event (or the result's absence)
        const read = inFront(block, w.client, 'set -f; IFS=\'"\'; fields $1; IFS=\' \'; keys && echo "$sv|$tv|$ev|$ek|$rc"', JSON.stringify(p));
        expect(read, `${w.client} ${tool}`).toBe(`${session}|${tool}|${k.event ? preName : ''}|${k.event ? 1 : ''}|\n`);
      }
      // a tool the client's facts do not name is node's, whatever another client calls it
      for (const tool of ['NotebookEdit', 'PowerShell', 'read_file', 'Delete']) {
        if (Object.hasOwn(facts.tools, tool)) continue;
        expect(inFront(block, w.client, 'shape "$1" && echo $shape', tool), `${w.client} ${tool}`).toBe('');
      }
    }
  });
});
