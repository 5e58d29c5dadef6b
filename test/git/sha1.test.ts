// src/git/sha1.ts hashes the small objects a write makes without loading node:crypto (issue 39): it must be SHA-1,
// every length through the padding's edges, and the ids git gives the same objects, on both sides of the size
// where src/git/loose.ts hands over to node:crypto.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashObject } from '../../src/git/loose';
import { sha1Hex } from '../../src/git/sha1';
import { makeRepo } from '../helpers/repo';

const native = (b: Buffer) => createHash('sha1').update(b).digest('hex');

describe('SHA-1 in this process', () => {
  it('is node:crypto\'s SHA-1 for every length 0-300, the standard vectors, and random contents up to 70 KB in parts', () => {
    expect(sha1Hex([Buffer.from('abc')])).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(sha1Hex([])).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(sha1Hex([Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')])).toBe('84983e441c3bd26ebaae4aa1f95129e5e54670f1');
    for (let n = 0; n <= 300; n++) {
      const b = randomBytes(n);
      expect(sha1Hex([b])).toBe(native(b));
    }
    for (let i = 0; i < 40; i++) {
      const b = randomBytes(Math.floor(Math.random() * 70_000));
      const cut = Math.floor(Math.random() * b.length);
      expect(sha1Hex([b.subarray(0, cut), b.subarray(cut)])).toBe(native(b));
    }
    // every byte value, high bits included (signed shifts)
    const all = Buffer.from(Array.from({ length: 512 }, (_, i) => 255 - (i % 256)));
    expect(sha1Hex([all])).toBe(native(all));
  });

  it('gives the ids git gives: blobs below, at and above the size node:crypto takes over, a commit', () => {
    const t = makeRepo({ commit: true });
    for (const size of [0, 1, 55, 56, 64, 1000, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 200_000]) {
      const content = Buffer.from(Array.from({ length: size }, (_, i) => String.fromCharCode(97 + (i % 26))).join(''));
      expect(hashObject('sha1', 'blob', content)).toBe(t.git(['hash-object', '--stdin'], { input: content.toString() }).stdout.trim());
    }
    const head = t.git(['rev-parse', 'HEAD']).stdout.trim();
    expect(hashObject('sha1', 'commit', Buffer.from(t.git(['cat-file', 'commit', head]).stdout))).toBe(head);
  });
});
