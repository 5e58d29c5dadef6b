// An answer some clients read only from the hook's exit status (2 refuses, stderr to the model), rendered as one string
// like every other: a NUL byte starts it (no JSON answer holds one), src/guard/io.ts prints its parts.
const MARK = '\u0000exit ';

/** An answer that is exit status `code` with `stderr` (and, where the client also reads it, `stdout`). */
export const exitAnswer = (code: number, stderr: string, stdout = ''): string => `${MARK}${code}\u0000${stderr}\u0000${stdout}`;

/** What a rendered answer prints and the status it exits with. */
export function answerParts(answer: string): { stdout: string; stderr: string; code: number } {
  if (!answer.startsWith(MARK)) return { stdout: answer, stderr: '', code: 0 };
  const [code, stderr, stdout] = answer.slice(MARK.length).split('\u0000');
  return { stdout: stdout ?? '', stderr: stderr ?? '', code: Number(code) || 0 };
}
