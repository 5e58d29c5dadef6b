// The resident answerer (issue 39; SPEC 6, "The resident answerer"): where it listens, how a request and an answer
// are framed, and the sh function the front calls it with. One place for each: the front's function is generated
// from here (scripts/front-words.mjs), the server (server.ts) and the spare (spare.ts) import it.
import path from 'node:path';
import { userCacheDir } from '../user-dirs';

type Env = NodeJS.ProcessEnv;

/** The answerer's socket: one per user, in the user's git-handoff cache folder (0700), which the perimeter protects. */
export const ANSWER_SOCKET = 'answer.sock';
export const answerSocket = (env: Env = process.env): string => path.join(userCacheDir(env), ANSWER_SOCKET);
/** Dated when a guard last started an answerer: another start waits START_EVERY_MS after it. */
export const answerStartMark = (env: Env = process.env): string => path.join(userCacheDir(env), 'answer.start');
export const START_EVERY_MS = 10_000;
/** Unix socket paths are at most 107 bytes on Linux (108 with the NUL): a longer one is never used. */
export const MAX_SOCKET_PATH = 107;

/** GIT_HANDOFF_ANSWERER=0: no answerer is asked or started (the front and node both read it). */
export const answererOff = (env: Env = process.env): boolean => env.GIT_HANDOFF_ANSWERER === '0';
/** Set by the front, for node, when the answerer was on but did not answer: node then starts one (throttled). */
export const MISSED_VAR = 'GIT_HANDOFF_ANSWER_MISSED';

/** The first field of a request and of an answer; the version changes when their framing does. */
export const REQUEST_MAGIC = 'git-handoff-answer 1';
export const ANSWER_MAGIC = 'git-handoff-answer';
/** How long the client waits for a whole answer before it falls back to node (the client's hook timeout is 30 s, node's own budget 15 s). */
export const CLIENT_WAIT_S = 10;
/** How long the answerer lets one spare work on a request before it kills it and answers nothing. */
export const SPARE_BUDGET_MS = CLIENT_WAIT_S * 1000 + 2000;

/**
 * The client (Linux perl, builtins only: no module is loaded, ~2 ms a start): argv socket, the front's path, the
 * payload, the front's arguments. It sends one request of netstrings (magic, its parent's pid (the front), umask,
 * cwd, front, argc, argv…, envc, NAME=value…, payload), and exits 0 only after a whole answer of exit code 0 was
 * received and written out (stdout, then stderr); any other end (no socket, not this user's, a refused or cut
 * connection, a short or malformed answer, another exit code, no answer in CLIENT_WAIT_S) exits 3 having written
 * nothing, and the front goes on to node. It stops reading when the answer's header says it has it all (no wait for
 * the answerer's end of the connection). AF_UNIX and SOCK_STREAM are 1 on Linux; the sockaddr is family + path.
 * A function, not a constant: only the build (the front's generated block) needs the text, and dist/guard.cjs, which
 * takes this module for the start of an answerer, does not build it at every run.
 */
export const perlClient = (): string => [
  `$SIG{ALRM}=sub{exit 3};alarm ${CLIENT_WAIT_S};my($s,$f,$p,@a)=@ARGV;length$s<=${MAX_SOCKET_PATH}&&-S$s&&-O _ or exit 3;`,
  `socket(S,1,1,0)&&connect(S,pack('S Z108',1,$s))or exit 3;`,
  `my$q=join'',map{length($_).':'.$_.','}'${REQUEST_MAGIC}',getppid,umask,readlink('/proc/self/cwd'),$f,scalar(@a),@a,scalar(keys%ENV),(map{"$_=$ENV{$_}"}keys%ENV),$p;`,
  `for(my$o=0;$o<length$q;){my$n=syswrite(S,$q,65536,$o);defined$n&&$n>0 or exit 3;$o+=$n}shutdown(S,1);`,
  `my($r,$n,$h,$o,$e)=('');while(sysread(S,$r,65536,length$r)){if(!defined$n&&$r=~/\\A${ANSWER_MAGIC} 0 (\\d+) (\\d+)\\n/){($h,$o,$e)=(length$&,$1,$2);$n=$h+$o+$e}last if defined$n&&length$r>=$n}defined$n&&length$r==$n or exit 3;`,
  `for([\\*STDOUT,$h,$o],[\\*STDERR,$h+$o,$e]){my($d,$at,$n)=@$_;while($n>0){my$w=syswrite($d,$r,$n,$at);defined$w&&$w>0 or exit 3;$at+=$w;$n-=$w}}exit 0`,
].join('');

/**
 * The front's functions (generated into bin/git-handoff-guard). `asker` says whether an answerer may be asked (0:
 * its socket is there, $s names it) and otherwise marks MISSED_VAR for node where one should start: not with
 * GIT_HANDOFF_ANSWERER=0, nor with no perl to ask one with (node starts no answerer that no front could reach). The
 * socket is where answerSocket puts it (XDG_CACHE_HOME, else HOME/.cache; neither: no answerer). A front the client's
 * sh reads in hands a call to node itself when asker says no, and through the front run as itself when it says yes:
 * the answerer answers only a process that runs the front (server.ts).
 */
export const askerSh = (fn: string): string =>
  `${fn}() { case \${GIT_HANDOFF_ANSWERER-}:\${XDG_CACHE_HOME-}\${HOME-} in 0:* | *:) return 1 ;; esac; ` +
  `command -v perl >/dev/null || return 1; s=\${XDG_CACHE_HOME:-$HOME/.cache}/git-handoff/${ANSWER_SOCKET} && [ -S "$s" ] && return 0; ${MISSED_VAR}=1 && export ${MISSED_VAR}; return 1; } # may an answerer be asked: src/answerer/place.ts`;

/**
 * `answered` asks it, where `asker` says one may be asked, and returns 0 when it answered (the answer is written);
 * else 1, having marked MISSED_VAR for node. The payload goes as an argument (one over Linux's 128 KiB for an argument
 * fails the start: node). perl reads no option or library path from the environment for it (PERL5OPT, PERLIO
 * emptied; -C0: no Unicode layers).
 */
export const answeredSh = (fn: string, asker: string): string =>
  `${fn}() { ${asker} || return 1; PERL5OPT= PERLIO=:raw perl -C0 -e '${perlClient().replace(/'/g, `'\\''`)}' "$s" "$0" "$payload" "$@" && return 0; ${MISSED_VAR}=1 && export ${MISSED_VAR}; return 1; } # the resident answerer: src/answerer/place.ts`;

/** A request as the answerer reads it. */
export interface Request {
  /** the pid the client names as its parent: the front */
  pid: number;
  umask: number;
  cwd: string;
  front: string;
  argv: string[];
  env: Record<string, string>;
  payload: Buffer;
}

/** Reads one request (netstrings, as perlClient writes them); null when it is not one whole, well-formed request. */
export function parseRequest(buf: Buffer): Request | null {
  let at = 0;
  const next = (): Buffer | null => {
    const colon = buf.indexOf(0x3a, at);
    if (colon < 0 || colon - at > 10 || colon === at) return null;
    const digits = buf.toString('latin1', at, colon);
    if (!/^\d+$/.test(digits)) return null;
    const n = Number(digits);
    const end = colon + 1 + n;
    if (end >= buf.length || buf[end] !== 0x2c) return null;
    const out = buf.subarray(colon + 1, end);
    at = end + 1;
    return out;
  };
  const text = (): string | null => next()?.toString('utf8') ?? null;
  const int = (): number | null => {
    const t = text();
    return t !== null && /^\d{1,10}$/.test(t) ? Number(t) : null;
  };
  if (text() !== REQUEST_MAGIC) return null;
  const pid = int();
  const umask = int();
  const cwd = text();
  const front = text();
  const argc = int();
  if (pid === null || umask === null || umask > 0o777 || !cwd || !front || argc === null || argc > 16) return null;
  const argv: string[] = [];
  for (let i = 0; i < argc; i++) {
    const a = text();
    if (a === null) return null;
    argv.push(a);
  }
  const envc = int();
  if (envc === null || envc > 100_000) return null;
  const env: Record<string, string> = {};
  for (let i = 0; i < envc; i++) {
    const kv = text();
    const eq = kv?.indexOf('=') ?? -1;
    if (kv == null || eq < 1) return null;
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const payload = next();
  if (payload === null || at !== buf.length) return null;
  return { pid, umask, cwd, front, argv, env, payload };
}

/** An answer as perlClient reads it: the exit code, stdout, stderr. */
export const frameAnswer = (code: number, out: Buffer, err: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`${ANSWER_MAGIC} ${code} ${out.length} ${err.length}\n`, 'latin1'), out, err]);
