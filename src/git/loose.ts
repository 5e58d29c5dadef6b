// Loose objects written by this process (blobs, trees, unsigned commits), only where the result is provably what git
// would write: plain repository configuration, no object directory of git's choosing in the environment.
import { closeSync, existsSync, linkSync, mkdirSync, openSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import path from 'node:path';
import { gitBool } from '../config-keys';
import { diskError } from '../errors';
import { sha1 } from '@noble/hashes/legacy';
import { bytesToHex } from '@noble/hashes/utils';
import { createHash } from '../lazy-crypto';
import { configValue, knownConfig, type Config } from './config';
import { lazyZlib, readLoose } from './loose-read';
import type { Repo } from './run';
import { parseCommit } from './storage';

/** Where this process writes loose objects itself, or null: git writes them (and says why it cannot). */
export function looseTarget(repo: Repo): { dir: string; hash: 'sha1' | 'sha256'; config: Config } | null {
  const env = process.env;
  // a quarantine (pre-receive), an object directory of the caller's choosing: git's rules
  if (env.GIT_OBJECT_DIRECTORY !== undefined || env.GIT_QUARANTINE_PATH !== undefined) return null;
  const config = knownConfig(repo);
  if (!config) return null;
  // group-shared permissions, fsync policies: git applies them
  if (configValue(config, 'core.sharedrepository') !== undefined) return null;
  for (const k of config.keys()) if (k.startsWith('core.fsync')) return null;
  return { dir: path.join(repo.commonDir, 'objects'), hash: repo.objectFormat, config };
}

/** Contents up to this size are hashed by @noble/hashes (loading node:crypto costs more than hashing them); larger ones by node:crypto. */
const JS_SHA1_MAX = 64 * 1024;

/** The object id of `type` `content`, as git hashes it. */
export function hashObject(hash: 'sha1' | 'sha256', type: string, content: Buffer): string {
  const header = `${type} ${content.length}\0`;
  if (hash === 'sha1' && content.length <= JS_SHA1_MAX) return bytesToHex(sha1.create().update(Buffer.from(header, 'latin1')).update(content).digest());
  return createHash(hash).update(header).update(content).digest('hex');
}

/** Writes one object as git does (temporary file, then linked into place); a full disk throws, another failure is null: git writes it. */
export function writeLoose(target: { dir: string; hash: 'sha1' | 'sha256' }, type: string, content: Buffer): string | null {
  const oid = hashObject(target.hash, type, content);
  const dir = path.join(target.dir, oid.slice(0, 2));
  const file = path.join(dir, oid.slice(2));
  const tmp = path.join(dir, `tmp_obj_${process.pid}_${Math.random().toString(36).slice(2)}`);
  let made = false;
  try {
    const data = lazyZlib().deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]), { level: 1 });
    let fd: number;
    try {
      fd = openSync(tmp, 'wx', 0o444);
    } catch (e) {
      // the fan-out directory is made on first use (most exist: one system call saved on each object)
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirSync(dir, { recursive: true });
      fd = openSync(tmp, 'wx', 0o444);
    }
    made = true;
    try {
      for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        const now = new Date();
        utimesSync(file, now, now);
      } catch {
        // another user's object: git leaves it as it is too
      }
    }
    return oid;
  } catch (e) {
    const disk = diskError((e as NodeJS.ErrnoException).code, `cannot write the object ${oid.slice(0, 12)}: ${(e as Error).message}`);
    if (disk) throw disk;
    return null;
  } finally {
    if (made) {
      try {
        unlinkSync(tmp);
      } catch {
        // gone already
      }
    }
  }
}

/** `git rev-list --count <oid>` walked in this process while every commit is loose, at most `limit`; null where git must answer. */
export function countLooseCommits(commonDir: string, oid: string, limit = 512): number | null {
  if (process.env.GIT_OBJECT_DIRECTORY !== undefined || existsSync(path.join(commonDir, 'shallow'))) return null;
  const seen = new Set([oid]);
  const todo = [oid];
  while (todo.length) {
    if (seen.size > limit) return null;
    // as git reads it, not checked against its id: a damaged object fails to inflate or parse
    const c = readLoose({ commonDir }, todo.pop()!);
    if (!c || c.type !== 'commit') return null;
    for (const p of parseCommit(c.content).parents) {
      if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(p)) return null;
      if (!seen.has(p)) {
        seen.add(p);
        todo.push(p);
      }
    }
  }
  return seen.size;
}

/** A tree of blobs (mode 100644), entries in git's order. */
export function treeContent(entries: Array<{ name: string; oid: string }>): Buffer {
  const sorted = entries.map((e) => ({ name: Buffer.from(e.name, 'utf8'), oid: e.oid })).sort((a, b) => Buffer.compare(a.name, b.name));
  return Buffer.concat(sorted.flatMap((e) => [Buffer.from('100644 '), e.name, Buffer.from([0]), Buffer.from(e.oid, 'hex')]));
}

// git's ident.c: crud is stripped from both ends of a name or an email, and '\n', '<', '>' anywhere
const crud = (c: number) => c <= 32 || c === 0x2e || c === 0x2c || c === 0x3a || c === 0x3b || c === 0x3c || c === 0x3e || c === 0x22 || c === 0x5c || c === 0x27;
function withoutCrud(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && crud(s.charCodeAt(a))) a++;
  while (b > a && crud(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b).replace(/[\n<>]/g, '');
}

/** `<unix seconds> ±hhmm` of this moment in the local time zone, as git stamps a commit. */
function gitDate(d = new Date()): string {
  const off = -d.getTimezoneOffset();
  const abs = Math.abs(off);
  return `${Math.floor(d.getTime() / 1000)} ${off < 0 ? '-' : '+'}${String(Math.floor(abs / 60) * 100 + (abs % 60)).padStart(4, '0')}`;
}

/** The author and committer lines `git commit-tree` would write with `env`, or null where git decides something this cannot. */
export function identLines(config: Config, env: NodeJS.ProcessEnv): { author: string; committer: string; encoding: null } | null {
  // `env` over this process's environment, key by key (a copy of the whole environment costs more than the commit)
  const e = (k: string) => (Object.hasOwn(env, k) ? env[k] : process.env[k]);
  if (e('GIT_AUTHOR_DATE') !== undefined || e('GIT_COMMITTER_DATE') !== undefined) return null;
  // commit-tree signs when commit.gpgSign says so: anything but a plain false goes to git
  const gpg = configValue(config, 'commit.gpgsign');
  if (gpg?.trim() && gitBool(gpg.trim()) !== false) return null;
  const enc = configValue(config, 'i18n.commitencoding');
  if (enc !== undefined && !/^utf-?8$/i.test(enc)) return null;
  const date = gitDate();
  const line = (role: 'author' | 'committer'): string | null => {
    const R = role.toUpperCase();
    const name = withoutCrud(e(`GIT_${R}_NAME`) ?? configValue(config, `${role}.name`) ?? configValue(config, 'user.name') ?? '');
    const email = withoutCrud(e(`GIT_${R}_EMAIL`) ?? configValue(config, `${role}.email`) ?? configValue(config, 'user.email') ?? (e('EMAIL') || ''));
    return name && email ? `${name} <${email}> ${date}` : null;
  };
  const author = line('author');
  const committer = line('committer');
  return author && committer ? { author, committer, encoding: null } : null;
}
