// Loads a bundle of dist/ as require would, through a V8 code cache kept in the user cache directory: compiling
// the bundle is a large part of what a short command costs (the full guard, `show`, `write`). The first run (and
// the first after an upgrade) writes the cache at exit, holding every function that run compiled; any trouble
// with the cache falls back to a plain require. Bundled into dist/guard.cjs (for dist/first.cjs and dist/fast.cjs)
// and dist/load.cjs (for the launcher).
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Script } from 'node:vm';
import { trace } from './trace';

// dist/load.cjs alone carries the trace's writer: src/trace.ts in every bundle requires it from there
export { traceLine } from './trace-line';

/** sha-256 prefixes of the bundles, set by the build: a cache is only ever read by the exact build that wrote it */
declare const BUNDLE_HASHES: Record<string, string>;

export type Bundle = 'cli.cjs' | 'fast.cjs' | 'first.cjs' | 'secrets.cjs';

/** FNV-1a of a string: names the cache of one installed copy (no crypto module to load for it) */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

interface CacheFile {
  dir: string;
  /** every cache of this copy of this bundle under this node starts so */
  prefix: string;
  /** every cache of this build of it starts so */
  build: string;
  name: string;
  /** the bundle's size in bytes */
  size: number;
}

/**
 * Per installed copy of a bundle, node version and flags, build (size and mtime catch a bundle edited in place) and use:
 * one cache per command (or guard event), so each holds every function its own runs compile.
 */
function cacheFile(file: string, bundle: Bundle, use: string): CacheFile | null {
  const env = process.env;
  if (env.GIT_HANDOFF_CODE_CACHE === '0') return null;
  const home = env.XDG_CACHE_HOME || (env.HOME ? path.join(env.HOME, '.cache') : null);
  if (!home) return null;
  const st = statSync(file);
  // V8 rejects a cache written under other V8 flags (NODE_OPTIONS or a node started with flags)
  const prefix = `${bundle}-${fnv(file)}-${process.version}-${process.arch}-${fnv(process.execArgv.join(' '))}-`;
  const build = `${prefix}${BUNDLE_HASHES[bundle]}-${st.size}-${Math.trunc(st.mtimeMs)}-`;
  return { dir: path.join(home, 'git-handoff', 'v8'), prefix, build, name: `${build}${USE.test(use) ? use : 'other'}.bin`, size: st.size };
}

const USE = /^[a-z][a-z-]{0,31}$/;

/** At most this many caches are kept (every copy, node and build together): more than every command and guard event. */
const MAX_CACHES = 48;

function save(where: CacheFile, data: Buffer): void {
  // turned off during the run (an uninstall that removed the cache folder): nothing is written back
  if (process.env.GIT_HANDOFF_CODE_CACHE === '0') return;
  const tmp = path.join(where.dir, `${where.name}.${process.pid}.tmp`);
  try {
    mkdirSync(where.dir, { recursive: true, mode: 0o700 });
    // caches of other builds of this copy are stale for good; of this build, the oldest go past MAX_CACHES
    // (a use name comes from the command line: mistyped subcommands must not grow the directory without bound)
    const mine: Array<{ f: string; t: number }> = [];
    const files = readdirSync(where.dir);
    for (const f of files) {
      if (f.startsWith(where.prefix) && !f.startsWith(where.build)) rmSync(path.join(where.dir, f), { force: true });
      else if (f.endsWith('.bin') && f !== where.name) mine.push({ f, t: statSync(path.join(where.dir, f)).mtimeMs });
    }
    mine.sort((a, b) => b.t - a.t);
    for (const { f } of mine.slice(MAX_CACHES - 1)) rmSync(path.join(where.dir, f), { force: true });
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path.join(where.dir, where.name));
  } catch {
    /* a cache is an optimisation: never fail a command for it, and leave no part of it (a full disk) */
    try {
      rmSync(tmp, { force: true });
    } catch {
      /* nothing to remove */
    }
  }
}


/**
 * CommonJS's module wrapper, as node:module's `wrap` gives it: that module is not loaded for it (it loads the ESM
 * loader and the source-map support with it, a few ms at every start).
 */
const WRAP = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];

interface ModuleClass {
  new (id: string, parent: NodeModule): NodeModule & { paths: string[]; filename: string; loaded: boolean };
  _nodeModulePaths(dir: string): string[];
}

/** `require(dir/bundle)`, through the code cache of `use` (a command, a guard event). */
export function loadBundle(dir: string, bundle: Bundle, use: string): unknown {
  trace('load', bundle);
  // required here, not at the top: dist/guard.cjs answers most tool calls without loading a bundle at all
  const { Script: VmScript } = require('node:vm') as typeof import('node:vm');
  const file = path.join(dir, bundle);
  let script: Script;
  let where: CacheFile | null;
  let cached: Buffer | undefined;
  try {
    where = cacheFile(file, bundle, use);
    if (!where) return require(file);
    const at = path.join(where.dir, where.name);
    let source: string;
    const cache = openCache(at);
    try {
      ({ source, cached } = readWrapped(file, cache));
    } finally {
      if (cache) closeSync(cache.fd);
    }
    script = new VmScript(source, { filename: file, cachedData: cached });
  } catch {
    return require(file);
  }
  trace('compiled', !cached ? 'no cache' : script.cachedDataRejected ? 'cache rejected' : 'cached');
  if (!cached || script.cachedDataRejected) process.once('exit', () => save(where, script.createCachedData()));
  return runModule(script.runInThisContext(), file);
}

/** `source` in CommonJS's module wrapper, to compile (and run with runModule). */
const wrapModule = (source: string): string => `${WRAP[0]}${source}${WRAP[1]}`;

/** Only a cache this user wrote and no one else can change is read: code from it runs as this user's code. */
const ownCache = (st: { uid: number; mode: number }): boolean => st.uid === process.geteuid?.() && (st.mode & 0o022) === 0;

/** A cache file opened to read (ownCache), with its size; null for none. */
function openCache(at: string): { fd: number; size: number } | null {
  let fd: number;
  try {
    fd = openSync(at, 'r');
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (ownCache(st)) return { fd, size: st.size };
  } catch {
    /* not read */
  }
  closeSync(fd);
  return null;
}

/** Reads the opened cache into `buf` (at least its size); undefined when it changed size as it was read. */
function readCache(cache: { fd: number; size: number }, buf: Buffer): Buffer | undefined {
  const n = readSync(cache.fd, buf, 0, cache.size, 0);
  return n === cache.size ? buf.subarray(0, n) : undefined;
}

/**
 * The text of `file` in the module wrapper (wrapModule's string), made at once from one buffer holding the wrapper
 * and the file, and then the cache read into that same buffer: the file's text joined to the wrapper is a second
 * string V8 copies whole to compile it, reading a bundle as UTF-8 decodes it, and every fresh half-megabyte buffer
 * is pages the kernel maps at first touch (one buffer for the two: about 1.7 ms less for fast.cjs, where reading
 * it and its cache took 7.5 ms, on a day `node -e ''` took 90 ms). The bundles are ASCII (esbuild writes them so;
 * test/guard/first-file.split.test.ts checks it), which Latin-1 copies as it is; a file that is not is read as UTF-8.
 */
function readWrapped(file: string, cache: { fd: number; size: number } | null): { source: string; cached: Buffer | undefined } {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const at = WRAP[0].length;
    const buf = Buffer.allocUnsafe(Math.max(at + size + WRAP[1].length, cache?.size ?? 0));
    buf.write(WRAP[0], 0, 'latin1');
    for (let n = 0; n < size; ) {
      const r = readSync(fd, buf, at + n, size - n, n);
      if (r === 0) throw new Error(`${file} ended before its size`); // changed as it was read: require reads it
      n += r;
    }
    const end = at + size + WRAP[1].length;
    buf.write(WRAP[1], at + size, 'latin1');
    const { isAscii } = require('node:buffer') as typeof import('node:buffer');
    const text = buf.subarray(0, end);
    // the string is a copy: the buffer is free for the cache then
    const source = isAscii(text) ? text.toString('latin1') : wrapModule(buf.toString('utf8', at, at + size));
    return { source, cached: cache ? readCache(cache, buf) : undefined };
  } finally {
    closeSync(fd);
  }
}

/** Runs `wrapper` (wrapModule's function, compiled in this context) as require runs the module `file`: its exports. */
function runModule(wrapper: (...a: unknown[]) => void, file: string): unknown {
  // a CommonJS module of its own, as require makes it (node's Module class is this file's module's constructor:
  // node:module, which createRequire would need, is not loaded)
  const Module = module.constructor as unknown as ModuleClass;
  const dir = path.dirname(file);
  const m = new Module(file, module);
  m.filename = file;
  m.paths = Module._nodeModulePaths(dir);
  wrapper.call(m.exports, m.exports, (id: string) => m.require(id), m, file, dir);
  m.loaded = true;
  return m.exports;
}
