// Claims no clock can squat (SPEC 10): a claim's expiry is written by its maker's clock, so each clone caps it by its
// own: a claim version (id and expiry) expires at the latest handoff.claimMaxTTL after this clone first saw it.
import path from 'node:path';
import type { Config, Storage } from '../../git/storage';
import { setting } from '../../config-keys';
import { handoffDir } from '../state/paths';
import { writeCache } from '../state/state-file';
import { readJsonOr } from '../../read-file';
import { setExpiryJudge, type Claim } from '../state/claims-marker';

const fileOf = (commonDir: string) => path.join(handoffDir(commonDir), 'claims-seen.json');
/** How long a first sighting is remembered when no table holds that version any more (at least two lifetimes). */
const KEEP_S = 30 * 86_400;

let current: { commonDir: string; maxS: number; seen: Map<string, number>; dirty: boolean } | null = null;

/** Judges expiry for this repository from now on in this process; `saveSightings` once the tables were read. */
export function judgeExpiry(repo: Storage, config: Config): void {
  const maxS = Math.max(1, Math.floor(setting(config, 'claimMaxTTL') / 1000));
  if (current?.commonDir === repo.commonDir) {
    current.maxS = maxS;
    return;
  }
  const seen = new Map<string, number>();
  for (const [k, v] of Object.entries(readJsonOr(fileOf(repo.commonDir))?.seen ?? {})) if (typeof v === 'number' && Number.isFinite(v)) seen.set(k, v);
  const state = { commonDir: repo.commonDir, maxS, seen, dirty: false };
  current = state;
  setExpiryJudge((c: Claim) => {
    const k = `${c.id}@${c.expires}`;
    let t = state.seen.get(k);
    if (t === undefined) {
      t = Math.floor(Date.now() / 1000);
      state.seen.set(k, t);
      state.dirty = true;
    }
    return t + state.maxS;
  });
}

export const judging = (repo: Storage): boolean => current?.commonDir === repo.commonDir;

/** Writes the first sightings made since they were read; a failure costs only a new window. */
export function saveSightings(): void {
  const s = current;
  if (!s?.dirty) return;
  const floor = Math.floor(Date.now() / 1000) - Math.max(KEEP_S, 2 * s.maxS);
  const kept = Object.fromEntries([...s.seen].filter(([, t]) => t >= floor));
  if (writeCache(fileOf(s.commonDir), { seen: kept }, handoffDir(s.commonDir))) s.dirty = false;
}
