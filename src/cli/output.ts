// How the CLI prints: JSON or text, aligned tables, relative times, terminal-safe bodies, errors.
import { toHandoffError, type HandoffError } from '../errors';

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
    // C0 and C1 controls but tab and newline (U+009B is CSI to some terminals), and the bidi overrides that reorder what is seen
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, '');
}

export function table(rows: string[][], header: string[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? '')].length)));
  return all
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - [...c].length))).join('  ').trimEnd())
    .join('\n');
}

export function relativeTime(iso: string, now = Date.now()): string {
  const s = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(s)) return iso;
  if (s < 45) return 'just now';
  const units: Array<[number, string]> = [
    [60, 'minute'],
    [3600, 'hour'],
    [86400, 'day'],
    [86400 * 30, 'month'],
    [86400 * 365, 'year'],
  ];
  let pick = units[0];
  for (const u of units) if (s >= u[0] * 0.75) pick = u;
  const n = Math.max(1, Math.round(s / pick[0]));
  return `${n} ${pick[1]}${n === 1 ? '' : 's'} ago`;
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
