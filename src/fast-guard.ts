// dist/guard.cjs, the file `git-handoff guard` starts with (a few KB): it reads the payload and loads the first
// look (dist/first.cjs) through a V8 code cache, one per kind of payload, chosen by a glance at its text. Compiling
// the first look afresh cost every guard run more than all the work it does.
import { MAX_PAYLOAD, readStdinText } from './guard/io';
import { cover, loadBundle } from './load';
import { trace } from './trace';
import { startAnswererAtExit } from './answerer/start';

/** The first look's code cache for a payload: a shell line starting with git, another shell line, anything else. */
function kindOf(text: string | null): string {
  if (text === null) return 'first-bad';
  if (/"command"\s*:\s*"\s*git\s/.test(text)) return 'first-git';
  return /"command"\s*:\s*"/.test(text) ? 'first-shell' : 'first-other';
}

trace('guard.cjs ready');
const { stdin, text } = readStdinText(MAX_PAYLOAD);
trace('stdin read');
const first = loadBundle(__dirname, 'first.cjs', kindOf(text)) as typeof import('./first-look');
const { tag, answered } = first.run(stdin, text, __dirname);
cover('first.cjs', tag);
// the front found no answerer: this run starts one when it ends (src/answerer/start.ts)
startAnswererAtExit(__dirname);
// the first look answered, and nothing of it is pending: 'exit' listeners run (a code cache saved, an answerer
// started), node's teardown of the environment and the heap does not (about 1 ms of every such call)
if (answered) process.exit();
