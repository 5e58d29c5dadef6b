// dist/spare.cjs: a node process the answerer (server.ts) starts before it is needed. It waits for one request on
// fd 0: a 10-byte length, a header of that length (the front's environment, cwd, umask, arguments and parent), then
// the payload to the end. It takes the header's environment, directory and umask as its own and runs dist/guard.cjs
// as the front would have started it, which reads the payload on fd 0 and answers on fd 1; then it exits. The node
// start (most of what a hook's node costs) is paid before the call; everything after it is today's path, in a
// fresh process, so no state of one call reaches another.
import { readFileSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { HOOK_PARENT } from './parent';

export interface SpareHeader {
  /** written after everything on fd 1 and on fd 2 when this process ends, with its exit code: the answer is whole */
  end: string;
  env: Record<string, string>;
  cwd: string;
  umask: number;
  argv: string[];
  parent: number;
}

function readExact(n: number): Buffer {
  const buf = Buffer.alloc(n);
  for (let at = 0; at < n; ) {
    let got: number;
    try {
      got = readSync(0, buf, at, n - at, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      continue;
    }
    if (got === 0) throw new Error('the request ended early');
    at += got;
  }
  return buf;
}

/** Calls like the ones handed over (a ref move, a commit, a handoff file written or edited), in a directory in no repository. */
const AWAY = '/proc/self/fdinfo/git-handoff-warm-up';
const call = (tool: string, input: Record<string, string>) => JSON.stringify({ session_id: 'git-handoff-warm-up', cwd: AWAY, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input });
const WARM_UP = [
  call('Bash', { command: 'git update-ref refs/handoffs/main/topic HEAD' }),
  call('Bash', { command: 'git commit -m x' }),
  call('Write', { file_path: `${AWAY}/memory/handoff-main-topic.md`, content: '<!-- claude-session: git-handoff-warm-up -->\n# topic\n' }),
  call('Edit', { file_path: `${AWAY}/memory/handoff-main-topic.md`, old_string: 'a', new_string: 'b' }),
];

// Before the call: first.cjs and fast.cjs, loaded as dist/guard.cjs would load them (their modules' top levels read
// no environment: the trace looks at its variable at each line, the guard's budgets are read in modules loaded at
// the call), and the first look run on WARM_UP. The code caches are those of a shell line, the commonest call the
// front hands over.
let load: typeof import('../load') | null = null;
try {
  load = require(path.join(__dirname, 'load.cjs')) as typeof import('../load');
  const { loadBundle, preloaded } = load;
  const first = loadBundle(__dirname, 'first.cjs', 'first-shell') as { warm(payloads: string[], argv: string[]): void }; // dist/first.cjs (src/first-look.ts)
  preloaded().set(path.join(__dirname, 'first.cjs'), first);
  preloaded().set(path.join(__dirname, 'fast.cjs'), loadBundle(__dirname, 'fast.cjs', 'guard-pre-tool-shell'));
  first.warm(WARM_UP, [process.argv[0], 'guard.cjs', 'guard', '--client=claude-code']);
} catch {
  /* loaded at the call, as without a spare */
}

// dist/guard.cjs compiled now and run at the call, as require would run it (its top level reads the payload)
const guard = path.join(__dirname, 'guard.cjs');
let guardFn: ((...a: unknown[]) => void) | null = null;
try {
  const { Script } = require('node:vm') as typeof import('node:vm');
  if (load) guardFn = new Script(load.wrapModule(readFileSync(guard, 'utf8')), { filename: guard }).runInThisContext() as (...a: unknown[]) => void;
} catch {
  guardFn = null; // required at the call
}

let header: SpareHeader;
try {
  header = JSON.parse(readExact(Number(readExact(10).toString('latin1'))).toString('utf8')) as SpareHeader;
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, header.env);
  process.chdir(header.cwd);
  process.umask(header.umask);
} catch {
  // no request, or one this process cannot take: the answerer answers nothing and the front goes on to node
  process.exit(70);
}
// the first listener of 'exit' (the guard's own, the code caches' saving, come after it): the answer ends here
process.once('exit', (code) => {
  for (const fd of [1, 2]) {
    try {
      writeSync(fd, `${header.end}${code}\n`);
    } catch {
      /* the answerer is gone: no one reads the answer */
    }
  }
});
process.argv = [process.argv[0], guard, 'guard', ...header.argv];
(process as unknown as { [HOOK_PARENT]: number })[HOOK_PARENT] = header.parent;
// the trace (GIT_HANDOFF_TRACE of the call, read now that it is this process's environment) says who answered
if (process.env.GIT_HANDOFF_TRACE) load?.traceLine('spare', `answerer ${process.ppid}`);
if (guardFn && load) load.runModule(guardFn, guard);
else require(guard);
