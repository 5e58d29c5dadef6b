// SHA-1 in this process's own code, for the small objects a write hashes (a body, its state, a tree, a commit):
// node:crypto costs about 3 ms of CPU to load, more than hashing every object of a write here (issue 39). Large
// contents (the loss record of many handoffs) go to node:crypto, which is faster per byte (src/git/loose.ts).

/** The SHA-1 of the concatenated `parts`, as 40 hex digits (FIPS 180-4; checked against node:crypto in tests). */
export function sha1Hex(parts: Uint8Array[]): string {
  let n = 0;
  for (const p of parts) n += p.length;
  // the message in 32-bit big-endian words, the 0x80 byte after it and its length in bits in the last two words
  const words = (((n + 8) >> 6) + 1) << 4;
  const w = new Int32Array(words);
  let i = 0;
  for (const p of parts) for (let j = 0; j < p.length; j++, i++) w[i >> 2] |= p[j] << (24 - (i & 3) * 8);
  w[n >> 2] |= 0x80 << (24 - (n & 3) * 8);
  w[words - 2] = Math.floor(n / 0x20000000);
  w[words - 1] = (n * 8) | 0;
  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  const x = new Int32Array(80);
  for (let b = 0; b < words; b += 16) {
    for (let t = 0; t < 16; t++) x[t] = w[b + t];
    for (let t = 16; t < 80; t++) {
      const v = x[t - 3] ^ x[t - 8] ^ x[t - 14] ^ x[t - 16];
      x[t] = (v << 1) | (v >>> 31);
    }
    let a = h0;
    let bb = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let t = 0; t < 80; t++) {
      const f = t < 20 ? (bb & c) | (~bb & d) : t < 40 ? bb ^ c ^ d : t < 60 ? (bb & c) | (bb & d) | (c & d) : bb ^ c ^ d;
      const k = t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1 : t < 60 ? 0x8f1bbcdc | 0 : 0xca62c1d6 | 0;
      const tmp = (((a << 5) | (a >>> 27)) + f + e + k + x[t]) | 0;
      e = d;
      d = c;
      c = (bb << 30) | (bb >>> 2);
      bb = a;
      a = tmp;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + bb) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}
