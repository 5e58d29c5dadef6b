// Each session seen: its client process and the session it succeeded, one JSON file per session (the guard
// recognises a known session with one stat, no git).
import { existsSync } from 'node:fs';
import { readTextOr } from '../../read-file';
import { isDiskError, localRecord, optionalWrite } from './state-file';

export interface LineageRecord {
  session: string;
  client: string | null;
  pid: number | null;
  /** the process's start time (Linux /proc), so a reused pid is not taken for the same process */
  procStart: string | null;
  worktree: string;
  /** how it was first seen: a SessionStart source (startup, resume, clear, compact) or `tool` */
  source: string;
  /** the session this one succeeded in the same process */
  from: string | null;
  /** first seen, unix ms */
  t: number;
  /** handoff refs taken over from `from` */
  inherited: string[];
  lease: boolean;
}

const LINEAGE = localRecord('lineage');
export const lineageDir = (commonDir: string) => LINEAGE.at(commonDir);

export const isKnownSession = (commonDir: string, session: string) => existsSync(LINEAGE.at(commonDir, session));

export function readRecord(commonDir: string, session: string): LineageRecord | null {
  const r = LINEAGE.read(commonDir, session);
  return r?.session === session ? r : null;
}

/** Creates the record only if none exists (the first guard process to see a session claims it); false when one did. */
export function claimRecord(commonDir: string, r: LineageRecord): boolean {
  try {
    LINEAGE.write(commonDir, r, r.session, true);
    return true;
  } catch (e) {
    // a disk that cannot take it: unclaimed, as if another guard had it (nothing is inherited on a full disk)
    if ((e as NodeJS.ErrnoException).code === 'EEXIST' || isDiskError(e)) return false;
    throw e;
  }
}

export const writeRecord = (commonDir: string, r: LineageRecord) => optionalWrite(() => LINEAGE.write(commonDir, r, r.session));

export function listRecords(commonDir: string): LineageRecord[] {
  return LINEAGE.all(commonDir)
    .filter((r): r is LineageRecord => typeof r.session === 'string')
    .sort((a, b) => a.t - b.t);
}

export const successorOf = (session: string, records: LineageRecord[]) => records.find((r) => r.from === session)?.session ?? null;

/** The chain of sessions `session` continues, oldest first, ending with it; `onward`: it, then the sessions that continue it. */
export function lineageOf(commonDir: string, session: string, records: LineageRecord[] = listRecords(commonDir), onward = false): string[] {
  const byId = new Map(records.map((r) => [r.session, r]));
  const next = (s: string) => (onward ? successorOf(s, records) : byId.get(s)?.from);
  const chain = [session];
  for (let s = next(session); s && !chain.includes(s); s = next(s)) chain.push(s);
  return onward ? chain : chain.reverse();
}

/** The fields of /proc/<pid>/stat from field 3 on (after the last `)`: a command name may hold one). */
function statFields(pid: number): string[] {
  const stat = readTextOr(`/proc/${pid}/stat`) ?? '';
  return stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ') : [];
}

/** Field 4. */
export const parentOf = (pid: number): number | null => Number(statFields(pid)[1]) || null;

/** This process's ancestors, its parent first (at most 32), as far as /proc says. */
export function* ancestors(): Generator<{ pid: number; argv: string[] }> {
  let pid: number | null = process.ppid;
  for (let depth = 0; depth < 32 && pid !== null && pid > 1; depth++) {
    const cmdline = readTextOr(`/proc/${pid}/cmdline`);
    if (cmdline === null) return;
    yield { pid, argv: cmdline.split('\0').filter(Boolean) };
    pid = parentOf(pid);
  }
}

/** Field 22. */
export const processStart = (pid: number): string | null => statFields(pid)[19] ?? null;
