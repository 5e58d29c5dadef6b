// The script a shell (or `source`) runs, when the guard can read it: a -c string or a here-document; what it reads that
// the guard cannot (its input, a descriptor, an expansion's output) is named.
import { hereDocument, programName, SHELLS, type Redirect } from './command';
import { optionValue } from './options';

/** A shell's options that take the next word as their value. */
const SHELL_VALUED = /^[-+][oO]$|^--(rcfile|init-file)$/;

// What a shell reads its script from when it is not a file the session named: its input, a descriptor (a process
// substitution is /dev/fd/N), a command substitution's output.
const STDIN_LIKE = /^(-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/(self|\d+)\/fd\/\d+)$/;

/** The file a command's input is redirected from (`< file`), or undefined: none, or its input by another name (a descriptor, stdin). */
export function inputFile(redirects: Redirect[]): string | undefined {
  const from = redirects.find((r) => r.op === '<' || r.op === '<&')?.target;
  return from !== undefined && !STDIN_LIKE.test(from) && !/^\d+$/.test(from) ? from : undefined;
}

/** What a command runs that the guard cannot read (its input, a descriptor, an expansion's output), named; else undefined. */
export function unreadScript(prog: string, argv: string[], redirects: Redirect[]): string | undefined {
  if (/\$\(|`/.test(argv[0] ?? '')) return `\`${argv[0].slice(0, 60)}\` (a program named by a command's output)`;
  if (prog === 'source' || prog === '.') return argv[1] !== undefined && STDIN_LIKE.test(argv[1]) ? `\`${prog} ${argv[1]}\`` : undefined;
  if (!SHELLS.has(prog)) return undefined;
  const operands = shellOperands(argv);
  // `bash script.sh` runs a file the session may have written: out of reach by design (SECURITY.md), not unread here;
  // with -s the operands are the script's arguments and the script is the input
  const fromInput = argv.slice(1).some((a) => /^-[a-zA-Z]*s[a-zA-Z]*$/.test(a));
  if (operands.length && !fromInput && !STDIN_LIKE.test(operands[0])) return undefined;
  if (fromInput) operands.length = 0;
  const from = redirects.find((r) => r.op === '<' || r.op === '<&')?.target;
  // `bash < script.sh` is `bash script.sh`
  if (!operands.length && inputFile(redirects) !== undefined) return undefined;
  return `\`${prog}\` reading its script from ${operands.length ? operands[0] : from ? from : 'its input'}`;
}

/** The script `source`/`.` runs when the guard can read it: a here-document or here-string on /dev/stdin. */
export function sourcedScript(argv: string[], redirects: Redirect[]): string | null {
  const doc = hereDocument(redirects);
  return doc !== undefined && argv[1] !== undefined && /^(\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/.test(argv[1]) ? doc : null;
}

// Programs that run a shell command line given with -c (as a user, in a pseudo-terminal).
export const RUNS_SHELL_C = new Set(['su', 'runuser', 'script', 'sg']);

/** The script a shell runs: its -c string (`bash -O extglob -c '…'`, `sh -ec -- '…'`), or a here-document it reads. */
export function shellScript(argv: string[], redirects: Redirect[]): string | null {
  // su/runuser/script/sg: -c or --command anywhere among their arguments
  if (RUNS_SHELL_C.has(programName(argv))) return optionValue(argv.slice(1), ['-c', '--command']) ?? null;
  // with -c among its options the script is its first operand
  const operands = shellOperands(argv);
  if (argv.slice(1, argv.length - operands.length).some((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a))) return operands[0] ?? null;
  const doc = hereDocument(redirects);
  return doc !== undefined && operands.length === 0 ? doc : null;
}

/** A shell's operands: the words after its options (-o, -O, --rcfile, --init-file take a value), `--` ending them. */
export function shellOperands(argv: string[]): string[] {
  for (let k = 1; k < argv.length; k++) {
    if (argv[k] === '--') return argv.slice(k + 1);
    if (SHELL_VALUED.test(argv[k])) k++;
    else if (!/^[-+]/.test(argv[k])) return argv.slice(k);
  }
  return [];
}
