// One error type for every failure the user can act on: `code` is stable, `exitCode` follows SPEC 4.
export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  owned: 3,
  concurrent: 4,
  noSession: 5,
  integrity: 6,
  environment: 7,
} as const;

export type ExitKind = keyof typeof EXIT;

export class HandoffError extends Error {
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

// Shorthands for the kinds raised most often.
export const usageError = (code: string, message: string, data?: Record<string, unknown>) =>
  new HandoffError('usage', code, message, data);

export function toHandoffError(e: unknown): HandoffError {
  if (e instanceof HandoffError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new HandoffError('internal', 'internal', message);
}
