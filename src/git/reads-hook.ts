// Who is told of the refs this process reads (src/git/refs.ts tells; the loss record listens: record/record-reads.ts).
import type { Storage } from './storage';

/**
 * Told of the refs this process reads (the loss record compares what a command reads anyway: record/record-reads.ts).
 * Answers the record commit the refs were found to agree with, or null (not compared, or they differ); `agreed`: a
 * record commit these very refs (as a set) were found to agree with before.
 */
type ReadsHook = (repo: Storage, refs: Array<{ ref: string; oid: string }>, agreed?: string | null) => string | null;
let hook: ReadsHook | null = null;
export const onRefsRead = (f: ReadsHook | null): void => {
  hook = f;
};
export const readsHook = (): ReadsHook | null => hook;
