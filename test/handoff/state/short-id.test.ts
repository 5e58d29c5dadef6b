// Short ids (issue 14): the shortest prefix of at least 8 that tells an id apart from the ids shown beside it,
// like git's abbreviated object names; ids that are not hex-ish are shown whole.
import { describe, expect, it } from 'vitest';
import { short as shortId } from '../../../src/handoff/state/session';

describe('shortId', () => {
  it('cuts a lone hex-ish id to 8', () => {
    expect(shortId('5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90')).toBe('5f0c6a52');
    expect(shortId('0123456789abcdef0123')).toBe('01234567');
    expect(shortId(null)).toBe('(none)');
  });

  it('grows past a shared prefix (UUIDv7 started close together), never ending on a dash', () => {
    const a = '01a202cf-1a2b-7c3d-8e4f-000000000001';
    const b = '01a202cf-1a9c-7c3d-8e4f-000000000002';
    expect(shortId(a, [a, b])).toBe('01a202cf-1a2');
    expect(shortId(b, [a, b])).toBe('01a202cf-1a9');
    expect(shortId(a, ['01a202cf-2222'])).toBe('01a202cf-1');
  });

  it('shows an id whole where its unique prefix is not hex-ish, or where another id starts with all of it', () => {
    expect(shortId('session-a', ['session-b'])).toBe('session-a');
    expect(shortId('other-session-77aa')).toBe('other-session-77aa');
    expect(shortId('abcdef0123', ['abcdef0123ff'])).toBe('abcdef0123');
    expect(shortId('aaaaaaaa-1111-session-a', ['bbbbbbbb-2222-session-b'])).toBe('aaaaaaaa');
    expect(shortId('aaaaaaaa-1111-session-a', ['aaaaaaaa-2222-session-b'])).toBe('aaaaaaaa-1');
    expect(shortId('aaaaaaaa-1111-session-a', ['aaaaaaaa-1111-session-b'])).toBe('aaaaaaaa-1111-session-a');
  });

  it('each id shown beside the others is told apart from every one (property over random UUIDv7-like ids)', () => {
    for (let round = 0; round < 50; round++) {
      const stamp = Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0');
      const ids = Array.from({ length: 6 }, () => `${stamp}-${Math.floor(Math.random() * 0xffff).toString(16).padStart(4, '0')}-7${Math.random().toString(16).slice(2, 5)}-8aaa-${Math.random().toString(16).slice(2, 14).padEnd(12, '0')}`);
      const shown = ids.map((id) => shortId(id, ids));
      for (let i = 0; i < ids.length; i++) {
        expect(ids[i].startsWith(shown[i])).toBe(true);
        expect(shown[i].length).toBeGreaterThanOrEqual(8);
        for (let j = 0; j < ids.length; j++) if (ids[i] !== ids[j]) expect(ids[j].startsWith(shown[i]), `${shown[i]} names ${ids[j]} too`).toBe(false);
      }
    }
  });

  it('is the shortest prefix of 8 or more no other id starts with and that does not end on a dash, over lists with shared prefixes, dashes, duplicates and non-hex ids', () => {
    const pick = (chars: string, n: number) => Array.from({ length: n }, () => chars[Math.floor(Math.random() * chars.length)]).join('');
    for (let round = 0; round < 200; round++) {
      const ids = Array.from({ length: 1 + Math.floor(Math.random() * 40) }, () => `${pick('ab', 6)}${pick('ab-x', Math.floor(Math.random() * 9))}`);
      ids.push(ids[0], ''); // a duplicate and an empty id change nothing
      for (const id of ids.filter(Boolean)) {
        const clashes = (k: number) => ids.some((o) => o && o !== id && o.startsWith(id.slice(0, k)));
        let n = 8;
        while (n < id.length && (clashes(n) || id[n - 1] === '-')) n++;
        const want = n >= id.length || !/^[0-9a-f][0-9a-f-]*$/i.test(id.slice(0, n)) ? id : id.slice(0, n);
        expect(shortId(id, ids), `${id} among ${ids.join(' ')}`).toBe(want);
      }
    }
  });
});
