// The first file `git-handoff guard` loads (dist/guard.cjs, a few KB): it reads the payload and answers the tool
// calls no rule applies to (a Read, `npm test`) itself. Only the rest loads dist/fast.cjs, the full guard.
import { firstLook, MAX_PAYLOAD, payloadOf, readStdinSync, stdinState } from './guard/first';
import { loadBundle } from './load';

const stdin = readStdinSync(stdinState(), MAX_PAYLOAD);
let answer: string | null | undefined;
if (stdin.done) {
  const raw = payloadOf(stdin, MAX_PAYLOAD);
  try {
    answer = raw === null ? undefined : firstLook(raw);
  } catch {
    answer = undefined; // the full guard looks again, and logs what went wrong
  }
}
if (answer === undefined) (loadBundle(__dirname, 'fast.cjs') as typeof import('./fast')).guard(stdin);
else if (answer !== null) process.stdout.write(answer + '\n');
