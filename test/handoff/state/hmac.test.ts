// The MAC under this user's key (src/handoff/state/hmac.ts, user-key.ts) against node:crypto, and the config cache's
// read-only check (userMacIfKeyed) against userMac, which writes the MACs.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hmacSha256Hex, sha256 } from '../../../src/handoff/state/hmac';
import { userMac, userMacIfKeyed } from '../../../src/handoff/state/user-key';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the config cache check (mac.ts)', () => {
  it('SHA-256 and HMAC-SHA256 equal node:crypto at every length around the block edges, any key, any text', () => {
    for (let n = 0; n < 200; n++) {
      const data = randomBytes(n);
      expect(Buffer.from(sha256(data)).toString('hex')).toBe(createHash('sha256').update(data).digest('hex'));
      const key = randomBytes((n * 7) % 150);
      // lone surrogates too: both encode them as U+FFFD
      const text = randomBytes(n * 3).toString('latin1') + '\u{1F600}é\ud800';
      expect(hmacSha256Hex(key, text)).toBe(createHmac('sha256', key).update(Buffer.from(text, 'utf8')).digest('hex'));
    }
  });

  it("gives userMac's MAC under this user's key, and null where userMac would make or refuse a key", () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'gh-mac-'));
    dirs.push(cache);
    const env = { ...process.env, XDG_CACHE_HOME: cache };
    const text = JSON.stringify(['a key', [[['handoff.guard', ['on']]], []]]);
    // no key yet: nothing trusted, nothing written
    expect(userMacIfKeyed(text, env)).toBeNull();
    const mac = userMac(text, env);
    expect(userMacIfKeyed(text, env)).toBe(mac);
    const key = path.join(cache, 'git-handoff', 'cache-key');
    // readable by others, or a part of a key: not this user's key
    chmodSync(key, 0o644);
    expect(userMacIfKeyed(text, env)).toBeNull();
    chmodSync(key, 0o600);
    writeFileSync(key, 'abc');
    expect(userMacIfKeyed(text, env)).toBeNull();
    // only 64 lowercase hex digits are a whole key (what /^[0-9a-f]{64}$/ says)
    for (const bad of ['A'.repeat(64), `${'a'.repeat(64)}\n`, 'a'.repeat(63), `${'a'.repeat(63)}g`, `${'a'.repeat(63)}/`, `${'a'.repeat(63)}:`, `${'0'.repeat(63)}\u00e9`]) {
      writeFileSync(key, bad);
      expect(userMacIfKeyed(text, env), JSON.stringify(bad)).toBeNull();
    }
    writeFileSync(key, '09af'.repeat(16));
    expect(userMacIfKeyed(text, env)).toBe(createHmac('sha256', Buffer.from('09af'.repeat(16))).update(text).digest('hex'));
    // userMac takes a part of a key away (and fails); the next userMac makes a new key
    writeFileSync(key, 'abc');
    expect(() => userMac(text, env)).toThrow(/not a whole cache key/);
    expect(existsSync(key)).toBe(false);
    expect(userMac(text, env)).toBe(userMacIfKeyed(text, env));
    expect(userMacIfKeyed(text, env)).not.toBe(mac);
  });
});
