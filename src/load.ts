// Loads a bundle of dist/ as require would, through a V8 code cache in the user cache directory: compiling a bundle
// is a large part of what a short command costs. The first run of a build (and use) writes the cache at exit, with
// every function that run compiled; any trouble with the cache falls back to a plain require. Bundled into
// dist/guard.cjs (for dist/first.cjs and dist/fast.cjs) and dist/load.cjs (for the launcher).
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { trace } from './trace';

/** sha-256 prefixes of the bundles, set by the build: a cache is only ever read by the exact build that wrote it */
declare const BUNDLE_HASHES: Record<string, string>;

type Bundle = 'cli.cjs' | 'fast.cjs' | 'first.cjs' | 'secrets.cjs';

/** FNV-1a of a string: names the cache of one installed copy (no crypto module to load for it) */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Where one cache is: `prefix` starts every cache of this copy of the bundle under this node, `build` every one of this build. */
interface Cache {
  dir: string;
  prefix: string;
  build: string;
  name: string;
}

const USE = /^[a-z][a-z-]{0,31}$/;

/** At most this many caches are kept (every copy, node and build together): more than every command and guard event. */
const MAX_CACHES = 48;

/**
 * Per installed copy of a bundle, node version and flags, build (size and mtime catch a bundle edited in place) and use:
 * one cache per command (or guard event), so each holds every function its own runs compile.
 */
function cacheOf(file: string, bundle: Bundle, use: string): Cache | null {
  const env = process.env;
  const home = env.XDG_CACHE_HOME || (env.HOME ? path.join(env.HOME, '.cache') : null);
  if (env.GIT_HANDOFF_CODE_CACHE === '0' || !home) return null;
  const st = statSync(file);
  // V8 rejects a cache written under other V8 flags (NODE_OPTIONS or a node started with flags)
  const prefix = `${bundle}-${fnv(file)}-${process.version}-${process.arch}-${fnv(process.execArgv.join(' '))}-`;
  const build = `${prefix}${BUNDLE_HASHES[bundle]}-${st.size}-${Math.trunc(st.mtimeMs)}-`;
  return { dir: path.join(home, 'git-handoff', 'v8'), prefix, build, name: `${build}${USE.test(use) ? use : 'other'}.bin` };
}

function save(c: Cache, data: Buffer): void {
  // turned off during the run (an uninstall that removed the cache folder): nothing is written back
  if (process.env.GIT_HANDOFF_CODE_CACHE === '0') return;
  const tmp = path.join(c.dir, `${c.name}.${process.pid}.tmp`);
  try {
    mkdirSync(c.dir, { recursive: true, mode: 0o700 });
    // caches of other builds of this copy are stale for good; of the rest, the oldest go past MAX_CACHES
    // (a use name comes from the command line: mistyped subcommands must not grow the directory without bound)
    const kept: Array<{ f: string; t: number }> = [];
    for (const f of readdirSync(c.dir)) {
      if (f.startsWith(c.prefix) && !f.startsWith(c.build)) rmSync(path.join(c.dir, f), { force: true });
      else if (f.endsWith('.bin') && f !== c.name) kept.push({ f, t: statSync(path.join(c.dir, f)).mtimeMs });
    }
    kept.sort((a, b) => b.t - a.t);
    for (const { f } of kept.slice(MAX_CACHES - 1)) rmSync(path.join(c.dir, f), { force: true });
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path.join(c.dir, c.name));
  } catch {
    // a cache is an optimisation: never fail a command for it, and leave no part of it (a full disk)
    try {
      rmSync(tmp, { force: true });
    } catch {
      // no folder to hold it
    }
  }
}

/** CommonJS's module wrapper, as node:module's `wrap` gives it (that module loads the ESM loader: a few ms at every start). */
const WRAP = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];

/** `require(dir/bundle)`, through the code cache of `use` (a command, a guard event). */
export function loadBundle(dir: string, bundle: Bundle, use: string): unknown {
  trace('load', bundle);
  const file = path.join(dir, bundle);
  let script: import('node:vm').Script;
  let cache: Cache | null;
  let cached: Buffer | undefined;
  try {
    cache = cacheOf(file, bundle, use);
    if (!cache) return require(file);
    let source: string;
    ({ source, cached } = readWrapped(file, path.join(cache.dir, cache.name)));
    // required here: dist/guard.cjs answers most tool calls without loading a bundle at all
    script = new (require('node:vm') as typeof import('node:vm')).Script(source, { filename: file, cachedData: cached });
  } catch {
    return require(file);
  }
  trace('compiled', !cached ? 'no cache' : script.cachedDataRejected ? 'cache rejected' : 'cached');
  if (!cached || script.cachedDataRejected) process.once('exit', () => save(cache!, script.createCachedData()));
  return runModule(script.runInThisContext(), file);
}

/** The cache file opened to read, when this user wrote it and no one else can change it (code from it runs as this user's). */
function openOwn(at: string): { fd: number; size: number } | null {
  let fd: number;
  try {
    fd = openSync(at, 'r');
  } catch {
    return null;
  }
  const st = fstatSync(fd);
  if (st.uid === process.geteuid?.() && (st.mode & 0o022) === 0) return { fd, size: st.size };
  closeSync(fd);
  return null;
}

/**
 * The text of `file` in the module wrapper, and its cache at `at`, read through one buffer: joining the file's text to
 * the wrapper is a second string V8 copies whole, reading as UTF-8 decodes it, and every fresh half-megabyte buffer is
 * pages the kernel maps at first touch (about 1.7 ms of 7.5 for fast.cjs). The bundles are ASCII (esbuild writes them
 * so), which Latin-1 copies as it is; a file that is not is read as UTF-8. A file that changes as it is read throws:
 * require reads it then.
 */
function readWrapped(file: string, at: string): { source: string; cached: Buffer | undefined } {
  const own = openOwn(at);
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const start = WRAP[0].length;
    const buf = Buffer.allocUnsafe(Math.max(start + size + WRAP[1].length, own?.size ?? 0));
    buf.write(WRAP[0], 0, 'latin1');
    if (readSync(fd, buf, start, size, 0) !== size) throw new Error(`${file} changed as it was read`);
    buf.write(WRAP[1], start + size, 'latin1');
    const text = buf.subarray(0, start + size + WRAP[1].length);
    const ascii = (require('node:buffer') as typeof import('node:buffer')).isAscii(text);
    // the string is a copy: the buffer is free for the cache then
    const source = ascii ? text.toString('latin1') : `${WRAP[0]}${buf.toString('utf8', start, start + size)}${WRAP[1]}`;
    return { source, cached: own && readSync(own.fd, buf, 0, own.size, 0) === own.size ? buf.subarray(0, own.size) : undefined };
  } finally {
    closeSync(fd);
    if (own) closeSync(own.fd);
  }
}

interface ModuleClass {
  new (id: string, parent: NodeModule): NodeModule & { paths: string[]; filename: string; loaded: boolean };
  _nodeModulePaths(dir: string): string[];
}

/** Runs `wrapper` (WRAP's function, compiled in this context) as require runs the module `file`: its exports. */
function runModule(wrapper: (...a: unknown[]) => void, file: string): unknown {
  // a CommonJS module of its own, as require makes it (node's Module class is this module's constructor: node:module,
  // which createRequire would need, is not loaded)
  const Module = module.constructor as unknown as ModuleClass;
  const dir = path.dirname(file);
  const m = new Module(file, module);
  m.filename = file;
  m.paths = Module._nodeModulePaths(dir);
  wrapper.call(m.exports, m.exports, (id: string) => m.require(id), m, file, dir);
  m.loaded = true;
  return m.exports;
}
