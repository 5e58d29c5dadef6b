// What `status --watch` and `web` wait on: file watches on the refs and the local state of the repository (no
// polling), a change told at most once a second, and a slow tick for what changes with the clock alone (ages, a claim
// nearing its expiry).
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Repo } from '../git/repo';

/** A change is told at most this often (the issue: no refresh faster than a second). */
export const MIN_INTERVAL_MS = 1000;
/** What changes with the clock alone is told this often. */
export const TICK_MS = 30_000;

// files the reads of the view write themselves (caches, the record check's note, temporary files): no change of state
const OWN_WRITES = /(^|\/)(listing|record-seen\.json|versions\.json|witness\.json|guard\.log(\.1)?|guard-config\.json)$|\.tmp$|\.lock$/;

export interface StoreWatch {
  close(): void;
}

/**
 * Calls `onChange(why)` when a ref or the local state of `repo` changes (`ref` or `state`), or every TICK_MS
 * (`tick`); never more often than once per MIN_INTERVAL_MS, and never while a call is running. `close` stops it all.
 */
export function watchStore(repo: Pick<Repo, 'commonDir' | 'gitDir'>, onChange: (why: 'ref' | 'state' | 'tick') => void | Promise<void>): StoreWatch {
  const watchers: FSWatcher[] = [];
  let closed = false;
  let pending: 'ref' | 'state' | 'tick' | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let last = 0;
  const fire = async () => {
    timer = null;
    if (closed || !pending) return;
    if (running) return schedule(pending);
    const why = pending;
    pending = null;
    running = true;
    last = Date.now();
    try {
      await onChange(why);
    } finally {
      running = false;
      if (pending && !closed) schedule(pending);
    }
  };
  const schedule = (why: 'ref' | 'state' | 'tick') => {
    if (closed) return;
    pending = pending && pending !== 'tick' ? pending : why;
    if (timer) return;
    // a short settle for the files of one move (lock, rename, packed-refs), then at most once a second
    timer = setTimeout(fire, Math.max(100, last + MIN_INTERVAL_MS - Date.now()));
  };
  const watched = new Set<string>();
  const add = (dir: string, recursive: boolean, why: 'ref' | 'state', only?: RegExp) => {
    if (watched.has(dir)) return;
    try {
      const w = watch(dir, { recursive, persistent: true }, (_event, name) => {
        const file = name ? String(name).split(path.sep).join('/') : '';
        if (file && OWN_WRITES.test(file)) return;
        if (only && file && !only.test(file)) return;
        // the state folder made after the watch began (the first claim or guard call of a clone)
        if (file === 'handoff' && dir === repo.commonDir) add(path.join(repo.commonDir, 'handoff'), true, 'state');
        schedule(why);
      });
      w.on('error', () => w.close());
      watchers.push(w);
      watched.add(dir);
    } catch {
      // a directory not made yet (no refs/handoffs in a new clone): its parent's watch sees it come
    }
  };
  // loose refs (handoffs, tracking copies, claims, leases, notes, the record) and the state folder; packed-refs and
  // HEAD (a branch switched) beside them
  add(path.join(repo.commonDir, 'refs'), true, 'ref');
  add(path.join(repo.commonDir, 'handoff'), true, 'state');
  add(repo.commonDir, false, 'ref', /^(packed-refs|HEAD|handoff|refs)$/);
  if (path.resolve(repo.gitDir) !== path.resolve(repo.commonDir)) add(repo.gitDir, false, 'ref', /^HEAD$/);
  const tick = setInterval(() => schedule('tick'), TICK_MS);
  return {
    close() {
      closed = true;
      clearInterval(tick);
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
