// The packed-refs file read in this process: whole, or only the lines under a prefix.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';

/** The packed refs whose name starts with `prefix` (all by default): ref → oid; empty when there is no packed-refs file. */
export function readPackedRefs(commonDir: string, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of packedRefsUnder(commonDir, prefix)) {
    // read as bytes by packedRefsUnder; a ref name is UTF-8, as git prints it
    const text = Buffer.from(line, 'latin1').toString('utf8');
    out.set(text.slice(text.indexOf(' ') + 1), text.slice(0, text.indexOf(' ')));
  }
  return out;
}

/**
 * The lines of packed-refs whose ref name starts with `prefix` (`<oid> <ref>`, peeled lines skipped), read without
 * reading the whole file when git wrote it sorted (its header says so): a binary search for where such lines would
 * start, then forward while they last. A file of 100,000 handoff refs costs a few 4 KiB reads when none has the prefix.
 */
export function packedRefsUnder(commonDir: string, prefix: string): string[] {
  let fd: number;
  try {
    fd = openSync(path.join(commonDir, 'packed-refs'), 'r');
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const read = (at: number, len: number) => {
      const b = Buffer.alloc(Math.max(0, Math.min(len, size - at)));
      return b.subarray(0, b.length ? readSync(fd, b, 0, b.length, at) : 0).toString('latin1');
    };
    const head = read(0, 512);
    const sorted = / sorted( |$)/.test(head.startsWith('# pack-refs with:') ? head.slice(0, head.indexOf('\n')) : '');
    const refOf = (line: string) => (!line || line[0] === '#' || line[0] === '^' ? null : line.slice(line.indexOf(' ') + 1));
    let from = 0;
    if (sorted) {
      // lo: an offset at or before the first line with a name >= prefix (every line before it sorts lower)
      let [lo, hi] = [0, size];
      while (hi - lo > 8192) {
        const mid = Math.floor((lo + hi) / 2);
        const chunk = read(mid, 8192);
        // the first whole ref line in the chunk: after a newline, not a peeled line
        const lines = chunk.split('\n').slice(1, -1).map(refOf).filter((r): r is string => r !== null);
        if (lines.length === 0 || lines[0] >= prefix) hi = mid;
        else lo = mid;
      }
      from = lo;
    }
    const out: string[] = [];
    let rest = '';
    for (let at = from, first = from > 0; at < size; at += 65536) {
      const lines = (rest + read(at, 65536)).split('\n');
      rest = at + 65536 < size ? lines.pop()! : '';
      if (first) {
        lines.shift(); // a partial line: the search landed inside it
        first = false;
      }
      for (const line of lines) {
        const ref = refOf(line);
        if (ref === null) continue;
        if (ref.startsWith(prefix)) out.push(line);
        else if (sorted && ref > prefix) return out;
      }
    }
    const last = refOf(rest);
    if (last?.startsWith(prefix)) out.push(rest);
    return out;
  } finally {
    closeSync(fd);
  }
}
