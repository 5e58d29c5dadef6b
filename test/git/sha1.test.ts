// src/git/loose.ts hashes the small objects a write makes without loading node:crypto (issue 39): it must be SHA-1,
// every length through the padding's edges, and the ids git gives the same objects, on both sides of the size
// where it hands over to node:crypto.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashObject } from '../../src/git/loose';
import { makeRepo } from '../helpers/repo';

const native = (b: Buffer) => createHash('sha1').update(b).digest('hex');
/** An object's id as hashObject takes it apart: the header `<type> <size>\0`, then the content. */
const parts = (type: string, content: Buffer) => Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);

describe('SHA-1 in this process', () => {
  it('is node:crypto\'s SHA-1 of the object for every length 0-300, a known blob, and random contents up to 70 KB', () => {
    expect(hashObject('sha1', 'blob', Buffer.from(''))).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    for (let n = 0; n <= 300; n++) {
      const b = randomBytes(n);
      expect(hashObject('sha1', 'blob', b)).toBe(native(parts('blob', b)));
    }
    for (let i = 0; i < 40; i++) {
      const b = randomBytes(Math.floor(Math.random() * 70_000));
      expect(hashObject('sha1', 'tree', b)).toBe(native(parts('tree', b)));
    }
    // every byte value, high bits included (signed shifts)
    const all = Buffer.from(Array.from({ length: 512 }, (_, i) => 255 - (i % 256)));
    expect(hashObject('sha1', 'commit', all)).toBe(native(parts('commit', all)));
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
