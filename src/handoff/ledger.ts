// The guard's ledger: which session wrote which paths in which worktree, one append-only JSONL file per
// session under <git-common-dir>/handoff/ledger/. Appends of one line are atomic, so sessions never collide.
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { encodeBranch } from './names';
import { handoffDir, readFilesIn } from './paths';

export interface LedgerEntry {
  /** unix milliseconds */
  t: number;
  session: string;
  worktree: string;
  paths?: string[];
  /** a subagent acting under `session` */
  agent?: string;
  /** the session released its claims at t */
  released?: boolean;
}

export { handoffDir };
const ledgerDir = (commonDir: string) => path.join(handoffDir(commonDir), 'ledger');

export function appendLedger(commonDir: string, e: LedgerEntry): void {
  mkdirSync(ledgerDir(commonDir), { recursive: true });
  appendFileSync(path.join(ledgerDir(commonDir), `${encodeBranch(e.session)}.jsonl`), JSON.stringify(e) + '\n');
}

/** Records paths (relative to the worktree) that `session` wrote. */
export function recordWrites(commonDir: string, session: string, worktree: string, paths: string[], agent?: string): void {
  if (paths.length === 0) return;
  appendLedger(commonDir, { t: Date.now(), session, worktree, paths, ...(agent ? { agent } : {}) });
}

export function recordRelease(commonDir: string, session: string, worktree: string): void {
  appendLedger(commonDir, { t: Date.now(), session, worktree, released: true });
}

/** Every entry of every session (unparseable lines are skipped). */
export function readLedger(commonDir: string): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  for (const text of readFilesIn(ledgerDir(commonDir), '.jsonl')) {
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line);
        if (e && typeof e.session === 'string' && typeof e.t === 'number' && typeof e.worktree === 'string') out.push(e);
      } catch {
        /* a torn line from a crash: skip it */
      }
    }
  }
  return out.sort((a, b) => a.t - b.t);
}

export interface SessionActivity {
  session: string;
  /** last write or heartbeat in the ledger, unix ms */
  lastSeen: number;
  released: boolean;
  /** paths whose latest writer in this worktree is this session */
  paths: string[];
}

/** Per session in one worktree: its latest activity and the paths it was the last to write (released claims dropped). */
export function worktreeActivity(commonDir: string, worktree: string): Map<string, SessionActivity> {
  const lastWriter = new Map<string, string>();
  const acts = new Map<string, SessionActivity>();
  for (const e of readLedger(commonDir)) {
    if (e.worktree !== worktree) continue;
    const a = acts.get(e.session) ?? { session: e.session, lastSeen: 0, released: false, paths: [] };
    a.lastSeen = Math.max(a.lastSeen, e.t);
    if (e.released) {
      a.released = true;
      for (const [p, s] of lastWriter) if (s === e.session) lastWriter.delete(p);
    } else {
      a.released = false;
      for (const p of e.paths ?? []) lastWriter.set(p, e.session);
    }
    acts.set(e.session, a);
  }
  for (const [p, s] of lastWriter) acts.get(s)!.paths.push(p);
  return acts;
}
