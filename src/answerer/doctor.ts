// `doctor`'s row for the resident answerer (issue 39): whether handed-over calls can skip the node start here, and
// why not. It reads; it never starts or stops one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { DoctorItem } from '../wiring';
import { answererOff, answerSocket, MAX_SOCKET_PATH } from './place';

/** Whether `perl` is on PATH (the front's client). */
function perlOnPath(env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(':').some((d) => {
    try {
      return d !== '' && (statSync(path.join(d, 'perl')).mode & 0o111) !== 0;
    } catch {
      return false;
    }
  });
}

/** The pids of answerer processes of this user serving `sock` (their cache folder), from /proc. */
function answererPids(sock: string): number[] {
  const uid = process.getuid?.();
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (statSync(`/proc/${d}`).uid !== uid || !readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('answerer.cjs')) continue;
      const env = Object.fromEntries(readFileSync(`/proc/${d}/environ`, 'utf8').split('\0').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      if (answerSocket(env) === sock) out.push(Number(d));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

export function doctorAnswerer(env: NodeJS.ProcessEnv = process.env): DoctorItem[] {
  const row = (status: DoctorItem['status'], detail: string): DoctorItem[] => [{ component: 'answerer', status, detail }];
  if (answererOff(env)) return row('info', 'off (GIT_HANDOFF_ANSWERER=0): every call the sh front hands over starts node');
  if (process.platform !== 'linux') return row('info', `none on ${process.platform} (Linux only): every call the sh front hands over starts node`);
  if (!env.HOME && !env.XDG_CACHE_HOME) return row('info', 'none: neither XDG_CACHE_HOME nor HOME is set, so the front has no socket to ask');
  const sock = answerSocket(env);
  if (Buffer.byteLength(sock) > MAX_SOCKET_PATH) return row('info', `none: its socket's path would be over ${MAX_SOCKET_PATH} bytes (${sock})`);
  if (!perlOnPath(env)) return row('info', 'none: the sh front asks it with perl, which is not on PATH; every handed-over call starts node');
  const pids = existsSync(sock) ? answererPids(sock) : [];
  return row('ok', pids.length ? `running (pid ${pids.join(', ')}), socket ${sock}` : `not running now; the next call the sh front hands over to node starts one (socket ${sock})`);
}
