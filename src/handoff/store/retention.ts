// Archive retention (SPEC 2): `handoff.archiveRetention` = `<age>,<count>` (default 90d,1) or `off`. An entry is past it
// when older than the age and not among its topic's newest `count` archives (one `archive`'s two entries are one).
import { parseDuration, setting } from '../../config-keys';
import type { Config, Storage } from '../../git/storage';
import { HandoffError } from '../../errors';
import { ARCHIVE_PREFIX, stampOf } from './names';
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

/** The archive entry keys past `r` among `keys` (every entry of the topics concerned). */
export function pastRetention(keys: Iterable<string>, r: Retention | null, nowMs = Date.now()): Set<string> {
  const out = new Set<string>();
  if (!r) return out;
  const byTopic = new Map<string, Map<number, string[]>>();
  for (const k of keys) {
    // k: `<B>/<T>/<seconds>-<12 hex>`, what follows refs/handoff-archive/
    const seconds = stampOf(k);
    const topic = k.slice(0, k.lastIndexOf('/'));
    if (seconds === null || !topic) continue;
    const events = byTopic.get(topic) ?? new Map<number, string[]>();
    events.set(seconds, [...(events.get(seconds) ?? []), k]);
    byTopic.set(topic, events);
  }
  const before = (nowMs - r.ageMs) / 1000;
  for (const events of byTopic.values()) {
    const newestFirst = [...events.keys()].sort((a, b) => b - a);
    for (const s of newestFirst.slice(r.keep)) if (s < before) for (const k of events.get(s)!) out.add(k);
  }
  return out;
}

/**
 * `git handoff gc`: removes the archive entries past retention (`pruned`; with dryRun, those it would) in one
 * transaction, and restarts the record's chain (as redact does).
 */
export function pruneArchive(repo: Storage, o: { dryRun?: boolean; config?: Config; nowMs?: number } = {}) {
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
