// dist/first.cjs: the guard's first look (src/guard/first.ts), loaded by dist/guard.cjs through a V8 code cache.
// What it cannot answer goes to the full guard (dist/fast.cjs) with what it parsed and located.
import { firstLook, type Look } from './guard/first';
import { writeAnswer, type StdinState } from './guard/io';
import { loadBundle } from './load';
import { trace } from './trace';

/**
 * Answers the payload read into `stdin` (`text`: null when it did not end at once or is too large), or hands it
 * to the full guard; returns the way the first look took, and whether it answered (all it did is synchronous: its
 * answer, then the state it leaves, are written when it returns).
 */
export function run(stdin: StdinState, text: string | null, dist: string): { tag: string; answered: boolean } {
  let look: Look = { use: 'guard-bad', tag: 'bad' };
  try {
    if (text !== null) look = firstLook(text);
  } catch {
    look = { use: 'guard-bad', tag: 'bad' }; // the full guard looks again, and logs what went wrong
  }
  trace('first look', look.answer === undefined ? `handed over (${look.use})` : `decided (${look.tag})`);
  if (look.answer === undefined) (loadBundle(dist, 'fast.cjs', look.use) as typeof import('./fast')).guard(stdin, look.seen);
  else if (look.answer !== null) writeAnswer(look.answer);
  if (look.answer !== undefined) trace('answered');
  look.after?.();
  return { tag: look.tag, answered: look.answer !== undefined };
}
