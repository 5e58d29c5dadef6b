// The first file `git-handoff guard` loads (dist/guard.cjs, a few KB): it reads the payload and answers the tool
// calls no rule applies to (a Read, `npm test`) itself. Only the rest loads dist/fast.cjs, the full guard.
import { firstLook, MAX_PAYLOAD, payloadOf, readStdinSync, stdinState, writeOut } from './guard/first';
import { loadBundle } from './load';

const stdin = readStdinSync(stdinState(), MAX_PAYLOAD);
let look: ReturnType<typeof firstLook> = { use: 'guard-bad' };
if (stdin.done) {
  const raw = payloadOf(stdin, MAX_PAYLOAD);
  try {
    if (raw !== null) look = firstLook(raw);
  } catch {
    look = { use: 'guard-bad' }; // the full guard looks again, and logs what went wrong
  }
}
if (look.answer === undefined) (loadBundle(__dirname, 'fast.cjs', look.use) as typeof import('./fast')).guard(stdin);
else if (look.answer !== null) writeOut(look.answer + '\n');
