// HMAC-SHA256 in plain functions over typed arrays: the guard checks a MAC before every refusal, and loading
// node:crypto or @noble/hashes cost that run milliseconds (docs/benchmarks.md). hmac.test.ts checks it against node:crypto.

// the first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4, 4.2.2)
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
// the initial hash value (4.2.2, 5.3.3)
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/**
 * SHA-256 of `data`: every block in one loop, with the rotations written out (a call each costs the interpreter). Each
 * sum is added in 16-bit halves: a sum of 32-bit words past 2^31 is a number V8's interpreter allocates on the heap,
 * where halves stay small integers (a guard run's MAC allocated about 40 kB more so: docs/benchmarks.md).
 */
export function sha256(data: Uint8Array): Uint8Array {
  // the message, its 0x80, zeros and its length in bits (big-endian, 64 bits) in whole 64-byte blocks
  const n = (data.length + 72) & ~63;
  const m = new Uint8Array(n);
  m.set(data);
  m[data.length] = 0x80;
  const bits = data.length * 8;
  const dv = new DataView(m.buffer);
  dv.setUint32(n - 8, Math.floor(bits / 0x100000000));
  dv.setUint32(n - 4, bits >>> 0);
  const w = new Int32Array(64);
  const H = Int32Array.from(IV);
  let lo = 0;
  for (let at = 0; at < n; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getInt32(at + i * 4);
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15];
      const y = w[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      const p = w[i - 16];
      const q = w[i - 7];
      lo = (p & 0xffff) + (s0 & 0xffff) + (q & 0xffff) + (s1 & 0xffff);
      w[i] = (((p >>> 16) + (s0 >>> 16) + (q >>> 16) + (s1 >>> 16) + (lo >>> 16)) << 16) | (lo & 0xffff);
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let i = 0; i < 64; i++) {
      const s = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const k = K[i];
      const v = w[i];
      lo = (h & 0xffff) + (s & 0xffff) + (ch & 0xffff) + (k & 0xffff) + (v & 0xffff);
      const t1 = (((h >>> 16) + (s >>> 16) + (ch >>> 16) + (k >>> 16) + (v >>> 16) + (lo >>> 16)) << 16) | (lo & 0xffff);
      const z = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      h = g;
      g = f;
      f = e;
      lo = (d & 0xffff) + (t1 & 0xffff);
      e = (((d >>> 16) + (t1 >>> 16) + (lo >>> 16)) << 16) | (lo & 0xffff);
      d = c;
      c = b;
      b = a;
      lo = (t1 & 0xffff) + (z & 0xffff) + (maj & 0xffff);
      a = (((t1 >>> 16) + (z >>> 16) + (maj >>> 16) + (lo >>> 16)) << 16) | (lo & 0xffff);
    }
    // an Int32Array keeps each sum modulo 2^32
    [a, b, c, d, e, f, g, h].forEach((v, i) => (H[i] += v));
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  H.forEach((v, i) => ov.setInt32(i * 4, v));
  return out;
}

/** HMAC-SHA256 (RFC 2104) of `text` (UTF-8) under `key`, as lowercase hex. */
export function hmacSha256Hex(key: Uint8Array, text: string): string {
  const k = new Uint8Array(64);
  k.set(key.length > 64 ? sha256(key) : key);
  const msg = Buffer.from(text, 'utf8');
  const inner = new Uint8Array(64 + msg.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = k[i] ^ 0x36;
    outer[i] = k[i] ^ 0x5c;
  }
  inner.set(msg, 64);
  outer.set(sha256(inner), 64);
  return hex(sha256(outer));
}

const HEX = '0123456789abcdef';

/**
 * Lowercase hex of `bytes`, by hand: `Buffer.from(bytes).toString('hex')` has node compile its own functions behind
 * it at their first call, about 0.13 ms of a guard run that makes one MAC.
 */
function hex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
  return s;
}
