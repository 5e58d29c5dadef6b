// Where git-handoff keeps its local files, apart so the guard's fast path names them without loading the domain.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../../errors';
import { createHash } from '../../lazy-crypto';
import { readTextOr } from '../../read-file';

export const handoffDir = (commonDir: string) => path.join(commonDir, 'handoff');

/** The names in `dir`, none when it cannot be read. */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Every line of `file` that is a JSON object (a torn line from a crash says nothing; a file not there has none). */
export const jsonLinesIn = (file: string): any[] => (readTextOr(file) ?? '').split('\n').flatMap((line) => jsonObjectOf(line) ?? []);

/** `text` as a JSON object (not an array), else null. */
export function jsonObjectOf(text: string): Record<string, any> | null {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

const KEEP = new Set('abcdefghijklmnopqrstuvwxyz0123456789_-'.split('').map((c) => c.charCodeAt(0)));
const COMPONENT_MAX = 200;
const CUT_TO = 180;

/** A branch name as ONE component of a ref (names.ts) or a local file's name: bytes [a-z0-9_-] stay, every other byte becomes %XX. */
export function encodeBranch(branch: string): string {
  if (!branch) throw new HandoffError('usage', 'invalid-branch', 'the branch name is empty');
  // most names are kept whole, no string built (the guard names a branch a few times a run)
  let whole = branch.length <= COMPONENT_MAX;
  for (let i = 0; whole && i < branch.length; i++) whole = KEEP.has(branch.charCodeAt(i));
  if (whole) return branch;
  let out = '';
  for (const byte of Buffer.from(branch, 'utf8')) {
    out += KEEP.has(byte) ? String.fromCharCode(byte) : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  if (out.length > COMPONENT_MAX) {
    out = out.slice(0, CUT_TO) + '+' + createHash('sha1').update(branch, 'utf8').digest('hex').slice(0, 16);
  }
  return out;
}
