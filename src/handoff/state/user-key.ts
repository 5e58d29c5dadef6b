// This user's key (<XDG cache>/git-handoff/cache-key, 0600, made on first use) and the MAC under it: what only this
// user's git-handoff could have made (the guard's config cache, a version's scan record).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { userCacheDir } from '../../user-dirs';
import { hmacSha256Hex } from './hmac';
import { removeFile, writeState } from './state-file';

/** 64 lowercase hex digits, checked on the bytes: Buffer's toString costs the guard a compile at its first call. */
const wholeKey = (b: Uint8Array): boolean => {
  if (b.length !== 64) return false;
  for (let i = 0; i < 64; i++) if (!((b[i] >= 48 && b[i] <= 57) || (b[i] >= 97 && b[i] <= 102))) return false;
  return true;
};

/** The key in `file` when it is this user's private file, written whole; else why not (missing: throws ENOENT). */
function readKey(file: string): { key: Buffer } | { bad: string; partial: boolean } {
  const st = statSync(file);
  if (st.uid !== process.geteuid?.() || (st.mode & 0o077) !== 0) return { bad: `${file} is not this user's private file`, partial: false };
  const key = readFileSync(file);
  return wholeKey(key) ? { key } : { bad: `${file} is not a whole cache key`, partial: true };
}

/** userMac without writing anything: null when no whole private key is there (then no cache is trusted). */
export function userMacIfKeyed(text: string, env: NodeJS.ProcessEnv = process.env): string | null {
  try {
    const r = readKey(path.join(userCacheDir(env), 'cache-key'));
    return 'key' in r ? hmacSha256Hex(r.key, text) : null;
  } catch {
    return null;
  }
}

/** HMAC-SHA256 of `text` under this user's key, making or mending the key (throws when it cannot). */
export function userMac(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = userCacheDir(env);
  const file = path.join(dir, 'cache-key');
  if (!existsSync(file)) {
    // node:crypto only here, once per user: loading it costs every guard run a few ms (the MAC is pure JS)
    const secret = (require('node:crypto') as typeof import('node:crypto')).randomBytes(32);
    try {
      writeState(file, secret.toString('hex'), dir, true);
    } catch {
      /* another guard made it first: read theirs */
    }
  }
  const r = readKey(file);
  if ('key' in r) return hmacSha256Hex(r.key, text);
  // a key not written whole (a disk that filled) is made again by the next run that can write it
  if (r.partial) removeFile(file);
  throw new Error(r.bad);
}
