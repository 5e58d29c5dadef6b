// Scripts written on the line before they are run (`echo '<script>' > s.sh; sh s.sh`): which files a command writes by
// redirection, with their text when it is known, and the text a later command runs from one of them.
import path from 'node:path';
import { printedTexts } from './printed';
import { hereDocument, programName, SHELLS, WRITE_REDIRECTS, type SimpleCommand } from './command';
import { optionValue } from './options';
import { cronCommands, crontabTable } from './runners';
import { inputFile, shellOperands } from './nested';

/** Where a path a command names is (null: built by an expansion, or relative to an unknown directory). */
export function pathAt(p: string, dir: string | null): string | null {
  if (/[$`*?[]/.test(p) || p.startsWith('~')) return null;
  return path.isAbsolute(p) ? path.normalize(p) : dir ? path.resolve(dir, p) : null;
}

/** Records the files a command writes by redirection, with the text when it is echo's, printf's or a here-document's. */
export function recordWrites(c: SimpleCommand, written: Map<string, string | null>, makers: Map<string, string>): void {
  for (const r of c.redirects) {
    if (!WRITE_REDIRECTS.has(r.op) || /^(\d+|-|\/dev\/null)$/.test(r.target)) continue;
    const at = pathAt(r.target, c.cwd);
    if (at === null) continue;
    const prog = c.argv[0] ?? '';
    const doc = prog === 'cat' && c.argv.length === 1 ? hereDocument(c.redirects) : undefined;
    const printed = doc === undefined && (prog === 'echo' || prog === 'printf') && !Object.keys(c.assigns).length ? printedTexts(prog, c.argv.slice(1)) : null;
    let text: string | null = doc ?? (printed?.length === 1 ? printed[0] : null);
    if (r.op.endsWith('>>')) {
      const prior = written.get(at);
      text = prior === undefined || prior === null || text === null ? null : prior + text;
    }
    written.set(at, text);
    if (text === null) makers.set(at, path.basename(prog) || 'a redirection');
  }
  // tee names the files it writes; their text is its input
  if (c.argv[0] !== 'tee') return;
  for (const at of c.argv.slice(1).flatMap((a) => (a.startsWith('-') ? [] : (pathAt(a, c.cwd) ?? [])))) {
    written.set(at, null);
    makers.set(at, 'tee');
  }
}

/** The file an `at`/`batch` job (`-f FILE`) or a `crontab FILE` table is read from; undefined for none. */
function scheduledFile(prog: string, args: string[]): string | undefined {
  if (prog === 'crontab') {
    const table = crontabTable(args);
    return table === null || table === '-' ? undefined : table;
  }
  return prog === 'at' || prog === 'batch' ? optionValue(args, ['-f']) : undefined;
}

/** A command running a file written earlier on the same line (`.`/`source`, a shell given it, `./s.sh`, `sh < s.sh`, `at -f s.sh`, `crontab t`): its text (null: unknown). */
export function writtenScriptRun(c: SimpleCommand, written: Map<string, string | null>, makers: Map<string, string>): { text: string | null; shown: string; maker?: string } | null {
  if (written.size === 0) return null;
  const prog = programName(c.argv);
  let file: string | undefined;
  // BASH_ENV/ENV name a file a shell reads before its script (`BASH_ENV=./s.sh bash -c true`: the -c script is read
  // apart, leaving the assignments on no program)
  const startup = SHELLS.has(prog) || !prog ? (c.assigns.BASH_ENV ?? c.assigns.ENV) : undefined;
  const first = startup === undefined ? null : pathAt(startup, c.cwd);
  if (first !== null && written.has(first)) return { text: written.get(first)!, shown: (c.argv.join(' ') || `BASH_ENV=${startup}`).slice(0, 80), maker: makers.get(first) };
  if (!prog) return null;
  if (prog === '.' || prog === 'source') file = c.argv[1];
  else if (SHELLS.has(prog)) file = shellOperands(c.argv)[0] ?? inputFile(c.redirects);
  else if (c.argv[0].includes('/')) file = c.argv[0];
  else file = scheduledFile(prog, c.argv.slice(1));
  if (file === undefined) return null;
  const at = pathAt(file, c.cwd);
  if (at === null || !written.has(at)) return null;
  const text = written.get(at)!;
  return { text: prog === 'crontab' && text !== null ? cronCommands(text) : text, shown: c.argv.join(' ').slice(0, 80), maker: makers.get(at) };
}

/** The texts `echo`/`printf` of literal words print (./printed.ts), as scripts a shell would read; null for anything else. */
export function literalOutput(p: SimpleCommand): string[] | null {
  const [prog, ...args] = p.argv;
  if (Object.keys(p.assigns).length || p.redirects.some((r) => r.op !== '<<' && !/^(\d+|-|\/dev\/null)$/.test(r.target))) return null;
  return printedTexts(prog ?? '', args);
}
