// One error type for every failure the user can act on: `code` is stable, `exitCode` follows SPEC 4.
export const EXIT = { ok: 0, internal: 1, usage: 2, owned: 3, concurrent: 4, noSession: 5, integrity: 6, environment: 7 } as const;

type ExitKind = keyof typeof EXIT;

// registered (Symbol.for): a HandoffError thrown by another bundle's copy of this class is one too, for `instanceof`
const BRAND = Symbol.for('git-handoff: HandoffError');

export class HandoffError extends Error {
  static [Symbol.hasInstance](v: unknown): boolean {
    return typeof v === 'object' && v !== null && (v as { [BRAND]?: unknown })[BRAND] === true;
  }
  readonly [BRAND] = true;
  readonly exitCode: number;
  constructor(
    readonly kind: ExitKind,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HandoffError';
    this.exitCode = EXIT[kind];
  }
}

/** A disk that refuses a write (full, over quota, read-only) is the environment: exit 7 (SPEC 4). */
export function diskError(code: string | undefined, detail: string): HandoffError | null {
  if (code === 'ENOSPC' || code === 'EDQUOT') return new HandoffError('environment', 'disk-full', `the disk is full: ${detail}; nothing more was written. Free some space and run it again`, { errno: code });
  if (code === 'EROFS') return new HandoffError('environment', 'read-only', `the file system is read-only: ${detail}; nothing was written`, { errno: code });
  return null;
}

/** The errno git's message names, when it is a disk refusing a write. */
export const gitDiskErrno = (stderr: string): string | undefined =>
  /No space left on device/.test(stderr) ? 'ENOSPC' : /Disk quota exceeded/.test(stderr) ? 'EDQUOT' : /Read-only file system/.test(stderr) ? 'EROFS' : undefined;

export function toHandoffError(e: unknown): HandoffError {
  if (e instanceof HandoffError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return diskError((e as NodeJS.ErrnoException | null)?.code, message) ?? new HandoffError('internal', 'internal', message);
}
