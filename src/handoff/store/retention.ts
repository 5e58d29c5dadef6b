// Archive retention (SPEC 2, issue 57): `handoff.archiveRetention` = `<age>,<count>` (default 90d,1) or `off`. An archive
// entry is past it when it is older than the age (by the seconds in its name) and not among the newest `count` archives
// of its topic (the two entries one `archive` writes, same seconds, are one archive). `git handoff gc` prunes such
// entries here (and on a remote with --remote), the loss record notes each as removed, and neither fetch nor push
// carries one again, so the refs every clone holds stay bounded; the checks (hook, server) accept the deletion of an
// entry past the receiving repository's own retention, and refuse any other.
import { parseDuration, setting } from '../../config-keys';
import type { Config, Storage } from '../../git/storage';
import { HandoffError } from '../../errors';
import { ARCHIVE_PREFIX } from './names';
import { moveRefs } from './tx';

export interface Retention {
  ageMs: number;
  keep: number;
}

export const DEFAULT_RETENTION = '90d,1';

/** `<age>,<count>` (`90d,1`), `<age>` alone (count 1), or off|never|none; anything else is the default. */
export function parseRetention(v: string | undefined): Retention | null {
  const text = (v ?? DEFAULT_RETENTION).trim().toLowerCase();
  if (/^(off|never|none|false|no)$/.test(text)) return null;
  const m = /^([^,]+?)\s*(?:,\s*(\d+))?$/.exec(text);
  const ageMs = m ? parseDuration(m[1], NaN) : NaN;
  if (!m || !Number.isFinite(ageMs)) return parseRetention(DEFAULT_RETENTION);
  return { ageMs, keep: m[2] === undefined ? 1 : Number(m[2]) };
}

/** This repository's retention: from a configuration read already, else from the repository's. */
export function retentionOf(repo: Storage, config?: Config): Retention | null {
  return parseRetention(setting(config ?? repo.config(), 'archiveRetention'));
}

/** `<B>/<T>` and the seconds of an archive entry's key (`<B>/<T>/<seconds>-<12 hex>`, what follows refs/handoff-archive/). */
function partsOf(key: string): { topic: string; seconds: number } | null {
  const cut = key.lastIndexOf('/');
  const seconds = Number(key.slice(cut + 1).split('-')[0]);
  return cut > 0 && Number.isFinite(seconds) ? { topic: key.slice(0, cut), seconds } : null;
}

/**
 * The archive entry keys past `r` among `keys` (every entry of the topics concerned, so each topic's newest are
 * known): per topic the archives by their seconds, newest first; the first `keep` stay, and of the rest those older
 * than the age go.
 */
export function pastRetention(keys: Iterable<string>, r: Retention | null, nowMs = Date.now()): Set<string> {
  const out = new Set<string>();
  if (!r) return out;
  const byTopic = new Map<string, Map<number, string[]>>();
  for (const k of keys) {
    const p = partsOf(k);
    if (!p) continue;
    const events = byTopic.get(p.topic) ?? new Map<number, string[]>();
    events.set(p.seconds, [...(events.get(p.seconds) ?? []), k]);
    byTopic.set(p.topic, events);
  }
  const before = (nowMs - r.ageMs) / 1000;
  for (const events of byTopic.values()) {
    const newestFirst = [...events.keys()].sort((a, b) => b - a);
    for (const s of newestFirst.slice(r.keep)) if (s < before) for (const k of events.get(s)!) out.add(k);
  }
  return out;
}

export interface PruneResult {
  /** the archive entries past retention here, removed (or that would be, with dryRun) */
  pruned: string[];
  /** how many entries are kept */
  kept: number;
  retention: Retention | null;
}

/**
 * `git handoff gc`: removes this clone's archive entries past its retention in one transaction through the loss record
 * (each noted as removed: a retention, never a loss), and restarts the record's chain (as redact does) so the versions
 * only those entries reached, and the witness's copies of them, can go at git's next gc.
 */
export function pruneArchive(repo: Storage, o: { dryRun?: boolean; config?: Config; nowMs?: number } = {}): PruneResult {
  const retention = retentionOf(repo, o.config);
  const entries = repo.listRefNames([ARCHIVE_PREFIX]);
  const past = pastRetention(entries.map((e) => e.ref.slice(ARCHIVE_PREFIX.length)), retention, o.nowMs);
  const going = entries.filter((e) => past.has(e.ref.slice(ARCHIVE_PREFIX.length)));
  if (going.length && !o.dryRun) {
    // own: the hook's check of these deletions is pastRetention again, over the same entries (compare-and-swap on each)
    const r = moveRefs(repo, going.map((e) => ({ op: 'delete', ref: e.ref, oldOid: e.oid })), 'handoff gc: archive retention', { replaces: true, own: true });
    if (!r.ok) throw new HandoffError('concurrent', 'prune-raced', `an archive entry moved while \`git handoff gc\` pruned (${r.message}); nothing was pruned: run it again`);
  }
  return { pruned: going.map((e) => e.ref), kept: entries.length - going.length, retention };
}
