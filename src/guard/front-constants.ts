// What the sh front (bin/git-handoff-guard) names, taken from the modules node reads and writes them with:
// scripts/front-words.mjs writes them into the front at build time (test/guard/front.slow.test.ts checks it).
import path from 'node:path';
import { intentTemplate, ledgerDir } from '../handoff/state/ledger';
import { lineageDir } from '../handoff/state/lineage-record';
import { LEASE_EVERY_MS } from './first';
import { guardStateDir } from '../handoff/state/notes';
import { plainConfigFile } from './locate';
import { claimsMarker } from '../handoff/state/claims-marker';
import { configFilesSh, userConfigFiles } from '../git/config-files';
import { elsewhereSh, SOURCED_FLAG, SPLIT_FLAGS, takeSh } from '../clients/wiring';
import { WIRING } from '../clients/records';
import { hookFiles } from '../clients/hook-files';
import { userDirs } from '../user-dirs';
import { pathProgramNames } from './path-programs';
import { DEFAULT_PROTECT } from './context';
import pkg from '../../package.json';

const ROOT = path.join(path.sep, 'common');
/** A path under a repository's git common directory, relative to it, with forward slashes. */
const under = (p: string) => path.relative(ROOT, p).split(path.sep).join('/');

export const FRONT_CONSTANTS = {
  guard_dir: under(guardStateDir(ROOT)), // guard/<session>.note, .beat
  lineage_dir: under(lineageDir(ROOT)), // a session seen here
  ledger_dir: under(ledgerDir(ROOT)),
  config_plain: under(plainConfigFile(ROOT)), // while it holds, a write may be the front's
  claims_file: under(claimsMarker(ROOT)), // while it exists a write is node's to tell (SPEC 10)
  lease_ms: String(LEASE_EVERY_MS),
  ledger_line: intentTemplate(false), // printf formats: t, session, worktree, paths, and gone
  ledger_line_gone: intentTemplate(true),
  sourced_flag: SOURCED_FLAG, // a front the client's sh runs itself (`. <front>`)
  line_flag: SPLIT_FLAGS.line, // a split event's two groups, in place of sourced_flag
  rest_flag: SPLIT_FLAGS.rest,
  // where npm's link to a bin of this package points from a global prefix's bin/ and a project's node_modules/.bin:
  // the front takes one that is the same file as the link (`-ef`) instead of starting readlink
  npm_global: `../lib/node_modules/${pkg.name}/bin`,
  npm_local: `../${pkg.name}/bin`,
};

/** git's directory's name: no component of a path the front answers for is it, in any case. */
const GIT_NAME = '.git';

const WORKTREE = '/@worktree@';
const HOME = '/@HOME@';
/** An environment whose every variable is a marker of its own name (`vars`), or empty: HOME a marker in both. */
const markedEnv = (vars: boolean): NodeJS.ProcessEnv => new Proxy({}, { get: (_, k) => (k === 'HOME' ? HOME : vars && typeof k === 'string' ? `/@${k}@` : '') }) as NodeJS.ProcessEnv;

/** A literal part of a place as sh reads it inside double quotes: the home and worktree markers as variables. */
function literal(p: string): string {
  const s = p.split(HOME).join('$HOME').split(WORKTREE).join('$worktree');
  if (!/^[A-Za-z0-9_./@$-]*$/.test(s.replace(/\$(HOME|worktree)/g, ''))) throw new Error(`front-constants: ${JSON.stringify(p)} is not a plain path`);
  return s;
}

/** One place as a double-quoted sh word from its `marked` and `plain` evaluations: `${VAR:-<default>}<rest>` where a variable moves it. */
function placeWord(marked: string, plain: string): string {
  if (marked === plain) return `"${literal(plain)}"`;
  const m = /^\/@([A-Za-z_][A-Za-z0-9_]*)@/.exec(marked);
  const rest = m ? marked.slice(m[0].length) : '';
  if (!m || !plain.endsWith(rest) || rest.includes('/@')) throw new Error(`front-constants: cannot read ${JSON.stringify(marked)} as a variable and a path`);
  return `"\${${m[1]}:-${literal(plain.slice(0, plain.length - rest.length))}}${literal(rest)}"`;
}

/**
 * What the front hands over whatever the call: every client's hook, settings and trust places, the guard's own folders
 * and the user's and system's git configuration files in any environment. `rel`: the worktree's, relative to it.
 */
export function guardedPlaces(): { abs: string[]; rel: string[] } {
  const [a, b] = [true, false].map((vars) => {
    const env = markedEnv(vars);
    const h = hookFiles([WORKTREE], HOME, env);
    const folder = (f: string) => (path.posix.dirname(f) === WORKTREE || path.posix.dirname(f) === HOME || path.posix.dirname(f) === '/' ? f : path.posix.dirname(f));
    return [...h.files.map((x) => folder(x.file)), ...h.dirs.map((x) => x.file), ...h.plugins.map((x) => x.file), ...userDirs(env)];
  });
  const abs = new Set<string>();
  const rel = new Set<string>();
  a.forEach((marked, i) => {
    if (marked.startsWith(`${WORKTREE}/`) && b[i] === marked) rel.add(`"${literal(marked.slice(WORKTREE.length + 1))}"`);
    else abs.add(placeWord(marked, b[i]));
  });
  // the user's and the system's git configuration files: each default, and the file a variable names (`//` when unset: no path)
  const named = /^\/@([A-Za-z_][A-Za-z0-9_]*)@$/;
  const [ua, ub] = [true, false].map((vars) => userConfigFiles(markedEnv(vars)).map((x) => x.file));
  const defaults = ua.filter((f) => !named.test(f));
  if (defaults.length !== ub.length) throw new Error('front-constants: the user configuration files do not pair up');
  defaults.forEach((f, i) => abs.add(placeWord(f, ub[i])));
  for (const f of ua) if (named.test(f)) abs.add(`"\${${named.exec(f)![1]}:-//}"`);
  return { abs: [...abs], rel: [...rel] };
}

/** The literal words of the default protected pattern (4 characters or more): a path component holding one, in any case, may be a handoff file. */
const protectedNameWords = (): string[] => [...new Set(DEFAULT_PROTECT.flatMap((g) => g.split(/[^A-Za-z0-9]+/)).filter((w) => w.length >= 4))];

const anyCase = (w: string) => [...w].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c)).join('');

/** The front's `guarded_abs` and `guarded_rel`: whether a write to a path (absolute, or relative to $worktree) is node's. */
function guardedSh(): string[] {
  const { abs, rel } = guardedPlaces();
  const words = protectedNameWords().map((w) => `*${anyCase(w)}*`);
  const programs = pathProgramNames().map((n) => `*/${literal(n)}/`);
  return [
    `guarded_abs() { case $1/ in ${[...abs.map((p) => `${p}/*`), ...programs].join(' | ')}) return 0 ;; esac; return 1; } # every client's hook, settings and trust folders, the guard's own, git's user and system files, a program's name: src/clients/hook-files.ts, src/user-dirs.ts, src/git/config-files.ts, src/guard/path-programs.ts`,
    `guarded_rel() { case /$1/ in */${anyCase(GIT_NAME)}/* | ${words.join(' | ')}) return 0 ;; esac; case $1/ in ${rel.map((p) => `${p}/*`).join(' | ')}) return 0 ;; esac; return 1; } # in the worktree: git's name, a handoff file's words (DEFAULT_PROTECT), the clients' project files`,
  ];
}

/** sh functions of the front written from TypeScript, on every call's way. */
export const FRONT_FUNCTIONS = [takeSh('take'), elsewhereSh('elsewhere', Object.values(WIRING))];

/** sh functions only a file tool's call reads: each_config gives config_file every file git reads (src/git/config-files.ts), and the places guarded. */
export const FILE_FUNCTIONS = [`${configFilesSh('each_config', 'config_file')} # the files git reads: src/git/config-files.ts`, ...guardedSh()];
