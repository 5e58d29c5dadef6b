// dist/answerer.cjs: the resident answerer (issue 39; SPEC 6). One per user, started by a guard that found none
// (start.ts), serving every repository: it listens on a Unix socket in the user's git-handoff cache folder (0700,
// this user's, no symlink: no other user can reach it), keeps SPARES node processes started (spare.ts) and hands
// each request to one, relaying its exit code, stdout and stderr. It answers nothing (the front then starts node,
// today's path) to a request it cannot read, from another installation, for a front that is not running as this
// user, or when its own files or node changed since it started (then it also stops). It stops by itself after
// IDLE_MS without a request, when its socket is no longer its own (another answerer took the name: two started at
// once) or when the folder is gone.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parentOf } from './parent';
import { answerSocket, frameAnswer, MAX_SOCKET_PATH, parseRequest, SPARE_BUDGET_MS, type Request } from './place';
import type { SpareHeader } from './spare';

const IDLE_MS = Number(process.env.GIT_HANDOFF_ANSWERER_IDLE_MS) > 0 ? Number(process.env.GIT_HANDOFF_ANSWERER_IDLE_MS) : 10 * 60_000;
const SPARES = 2;
const CHECK_MS = 2000;
/** How long after an answer the spare it used is replaced. */
const SPARE_AFTER_MS = 150;
/** A request larger than this (a payload is at most 4 MiB, and an argument at most 128 KiB) is not read. */
const MAX_REQUEST = 8 << 20;

const dist = __dirname;
const spareFile = path.join(dist, 'spare.cjs');
const frontFile = path.join(dist, '..', 'bin', 'git-handoff-guard');
/** What must not change under a running answerer: the files a call runs through, and node itself. */
const WATCHED = [path.join(dist, 'guard.cjs'), path.join(dist, 'first.cjs'), path.join(dist, 'fast.cjs'), path.join(dist, 'load.cjs'), spareFile, __filename, frontFile, process.execPath];
const identity = (): string =>
  WATCHED.map((f) => {
    try {
      const s = statSync(f);
      return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return '-';
    }
  }).join(' ');

const uid = process.getuid!();
const sock = answerSocket();
const dir = path.dirname(sock);
const started = identity();
let realFront: string;
let ino = -1;
let last = Date.now();
let stopping = false;
const spares: ChildProcess[] = [];
const busy = new Set<ChildProcess>();

/** The spares' environment before a request: this process's, with no CA bundle to read at their start. */
const spareEnv = { ...process.env, NODE_EXTRA_CA_CERTS: '' };

function addSpare(): void {
  if (stopping) return;
  const c = spawn(process.execPath, [spareFile], { stdio: ['pipe', 'pipe', 'pipe'], env: spareEnv, cwd: '/' });
  c.on('error', () => undefined);
  c.stdin!.on('error', () => undefined);
  // one that ends before it is used (killed, out of memory) is replaced
  c.once('exit', () => {
    const i = spares.indexOf(c);
    if (i >= 0) {
      spares.splice(i, 1);
      if (!stopping) setTimeout(addSpare, 200).unref();
    }
  });
  spares.push(c);
}

/** /proc/<pid>/<file>, or null. */
function proc(pid: number, file: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'latin1');
  } catch {
    return null;
  }
}
/** Whether process `pid` is this user's and runs this installation's front (`sh …/git-handoff-guard …`). */
function runsFront(pid: number, cwd: string): boolean {
  const status = proc(pid, 'status');
  const ids = status && /^Uid:\s+(\d+)\s+(\d+)/m.exec(status);
  if (!ids || Number(ids[1]) !== uid || Number(ids[2]) !== uid) return false;
  const argv = (proc(pid, 'cmdline') ?? '').split('\0');
  try {
    return argv.length >= 2 && realpathSync(path.resolve(cwd, argv[1])) === realFront;
  } catch {
    return false;
  }
}

/**
 * The parent a hook's node would have had: the front's. The client names its own parent (the front, or a subshell
 * of it); that process must be this user's front of this installation, and the walk goes up past every front.
 */
function hookParent(r: Request): number | null {
  if (!runsFront(r.pid, r.cwd)) return null;
  let p: number | null = parentOf(r.pid);
  for (let depth = 0; depth < 8 && p !== null && runsFront(p, r.cwd); depth++) p = parentOf(p);
  return p !== null && p > 0 && !runsFront(p, r.cwd) ? p : null;
}

function stop(): void {
  if (stopping) return;
  stopping = true;
  server.close();
  try {
    if (statSync(sock).ino === ino) rmSync(sock, { force: true });
  } catch {
    /* gone already */
  }
  for (const c of spares) c.kill('SIGKILL');
  // requests in flight finish (their spares are busy, not in `spares`); then the process ends by itself
  if (!busy.size) setTimeout(() => process.exit(0), 50).unref();
}

function answer(conn: net.Socket, raw: Buffer): void {
  last = Date.now();
  const r = parseRequest(raw);
  const nothing = (): void => void conn.end();
  if (!r) return nothing();
  if (identity() !== started) {
    nothing();
    return stop();
  }
  let front: string;
  try {
    front = realpathSync(path.resolve(r.cwd, r.front));
  } catch {
    return nothing();
  }
  const parent = front === realFront ? hookParent(r) : null;
  if (parent === null) return nothing();
  const spare = spares.shift();
  if (!spare || spare.exitCode !== null) {
    addSpare();
    return nothing();
  }
  busy.add(spare);
  // the spare ends fd 1 and fd 2 with this and its exit code as it exits: the answer is whole before its teardown
  const end = `\0git-handoff-end-${randomBytes(12).toString('hex')}-`;
  const ended = (bufs: Buffer[]): number | null => {
    const all = Buffer.concat(bufs).toString('latin1');
    const at = all.lastIndexOf(end);
    const rest = at < 0 ? '' : all.slice(at + end.length);
    return /^\d+\n$/.test(rest) ? Number(rest) : null;
  };
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let outCode: number | null = null;
  let errCode: number | null = null;
  const strip = (bufs: Buffer[]): Buffer => {
    const all = Buffer.concat(bufs);
    return all.subarray(0, all.lastIndexOf(Buffer.from(end, 'latin1')));
  };
  const whole = (): void => {
    if (outCode !== null && errCode !== null) finish(outCode === errCode ? outCode : null);
  };
  spare.stdout!.on('data', (d: Buffer) => {
    out.push(d);
    outCode = ended(out);
    whole();
  });
  spare.stderr!.on('data', (d: Buffer) => {
    err.push(d);
    errCode = ended(err);
    whole();
  });
  let done = false;
  const finish = (code: number | null): void => {
    if (done) return;
    done = true;
    clearTimeout(budget);
    busy.delete(spare);
    if (code === null) {
      spare.kill('SIGKILL');
      nothing();
    } else conn.end(frameAnswer(code, strip(out), strip(err)));
    last = Date.now();
    // the next spare starts a little after the answer, while another waits: its node start does not take a core from
    // the client, the front and the spare finishing this call; with none left (a burst) it starts at once
    if (spares.length) setTimeout(addSpare, SPARE_AFTER_MS);
    else addSpare();
    if (stopping && !busy.size) setTimeout(() => process.exit(0), 50).unref();
  };
  const budget = setTimeout(() => finish(null), SPARE_BUDGET_MS);
  // the client gave up (its own wait, killed): the spare's work is not wanted
  conn.once('close', () => finish(null));
  // a spare that ended with no end written (killed, crashed in node itself): no answer
  spare.once('close', () => finish(null));
  const header: SpareHeader = { end, env: r.env, cwd: r.cwd, umask: r.umask, argv: r.argv, parent };
  const h = Buffer.from(JSON.stringify(header), 'utf8');
  spare.stdin!.write(String(h.length).padStart(10, '0'));
  spare.stdin!.write(h);
  spare.stdin!.end(r.payload);
}

// half-open: the client shuts its side after the request and reads the answer on the same connection
const server = net.createServer({ allowHalfOpen: true }, (conn) => {
  const chunks: Buffer[] = [];
  let size = 0;
  conn.on('error', () => undefined);
  // a request that never ends (its client stopped, or holds the connection) is dropped: the client's own wait is less
  conn.setTimeout(SPARE_BUDGET_MS, () => conn.destroy());
  conn.on('data', (d: Buffer) => {
    size += d.length;
    if (size > MAX_REQUEST) return void conn.destroy();
    chunks.push(d);
  });
  conn.once('end', () => answer(conn, Buffer.concat(chunks)));
});
server.on('error', () => process.exit(1));

/** The folder is this user's, a real directory, and no one else's to enter: else no answerer runs (`make`: made first when missing). */
function ownFolder(make = false): boolean {
  try {
    // only the last folder: the guard that starts an answerer makes the folder first (start.ts), and one that
    // starts after its user's cache folder went (a removed HOME) does not make it again
    if (make) {
      try {
        mkdirSync(dir, { mode: 0o700 });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

function check(): void {
  let mine = false;
  try {
    mine = statSync(sock).ino === ino && ownFolder();
  } catch {
    mine = false;
  }
  if (!mine || identity() !== started || (Date.now() - last > IDLE_MS && !busy.size)) stop();
}

function main(): void {
  if (process.platform !== 'linux' || Buffer.byteLength(sock) > MAX_SOCKET_PATH || !ownFolder(true)) process.exit(1);
  try {
    realFront = realpathSync(frontFile);
  } catch {
    process.exit(1);
  }
  // one per user: a live answerer already answers on the socket
  const probe = net.connect(sock);
  probe.once('connect', () => process.exit(0));
  probe.once('error', () => {
    const tmp = path.join(dir, `answer.${process.pid}.sock`);
    rmSync(tmp, { force: true });
    server.listen(tmp, () => {
      try {
        chmodSync(tmp, 0o600);
        // two started at once: both rename, the last holds the name and the other stops at its next check
        renameSync(tmp, sock);
        ino = statSync(sock).ino;
      } catch {
        rmSync(tmp, { force: true });
        process.exit(1);
      }
      for (let i = 0; i < SPARES; i++) addSpare();
      setInterval(check, CHECK_MS).unref();
      // the interval is unref'd: the server keeps the process alive until stop()
    });
  });
}

process.on('SIGTERM', stop);
main();
