// How the CLI prints: JSON or text, aligned tables, relative times, terminal-safe bodies, errors.
import { toHandoffError, type HandoffError } from '../errors';

export { relativeTime } from '../handoff/time';

export interface OutputOptions {
  json?: boolean;
  quiet?: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Strips terminal control sequences when writing to a TTY, so a body cannot drive the terminal. */
export function terminalSafe(text: string, isTTY = !!process.stdout.isTTY): string {
  if (!isTTY) return text;
  return text
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
    .replace(/[\x00-\x08\x0b-\x1f\x7f\x9b]/g, '');
}

export function table(rows: string[][], header: string[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? '')].length)));
  return all
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - [...c].length))).join('  ').trimEnd())
    .join('\n');
}

/** Prints an error the way the taxonomy promises and returns its exit code. */
export function reportError(e: unknown, json: boolean): number {
  const err: HandoffError = toHandoffError(e);
  if (json) {
    process.stdout.write(JSON.stringify({ error: { code: err.code, message: err.message, data: err.data } }) + '\n');
  } else {
    process.stderr.write(`git-handoff: ${err.message}\n`);
    if (err.kind === 'internal' && process.env.GIT_HANDOFF_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  }
  return err.exitCode;
}
