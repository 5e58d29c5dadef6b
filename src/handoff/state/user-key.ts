// This user's key (<XDG cache>/git-handoff/cache-key, 0600, made on first use) and the MAC under it: what only this
// user's git-handoff could have made. It keys the guard's config cache (src/guard/locate.ts) and a scanned write's
// record of its scan (src/handoff/secrets/secrets.ts).
import { readFileSync, rmSync, statSync } from 'node:fs';
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import path from 'node:path';
import { userCacheDir } from '../../user-dirs';
import { writeState } from './state-file';

const KEY_TEXT = /^[0-9a-f]{64}$/;

/** HMAC-SHA256 of `text` under this user's key: what only this user's git-handoff could have made (throws with no key). */
export function userMac(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = userCacheDir(env);
  const file = path.join(dir, 'cache-key');
  let secret: Buffer;
  try {
    const st = statSync(file);
    if (st.uid !== process.geteuid?.() || (st.mode & 0o077) !== 0) throw new Error(`${file} is not this user's private file`);
    secret = readFileSync(file);
    // a key not written whole (a disk that filled at its first write, an older build) keys nothing: no cache is
    // trusted, and the key is made again by the next run that can write it
    if (!KEY_TEXT.test(secret.toString('latin1'))) {
      rmSync(file, { force: true });
      throw new Error(`${file} is not a whole cache key`);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    // node:crypto only here, once per user: loading it costs every guard run a few ms (the MAC below is pure JS)
    secret = (require('node:crypto') as typeof import('node:crypto')).randomBytes(32);
    try {
      writeState(file, secret.toString('hex'), dir, true);
    } catch {
      /* another guard made it first: read theirs */
    }
    secret = readFileSync(file);
    if (!KEY_TEXT.test(secret.toString('latin1'))) throw new Error(`${file} is not a whole cache key`);
  }
  return bytesToHex(hmac(sha256, secret, utf8ToBytes(text)));
}
