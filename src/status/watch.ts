// What `status --watch` and `web` wait on: file watches on the refs and the local state of the repository (no
// polling), a change told at most once a second, and a slow tick for what changes with the clock alone (ages, a claim
// nearing its expiry).
import { readdirSync, watch, type Dirent, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Repo } from '../git/repo';
import { statOr } from '../read-file';

/** A change is told at most this often (the issue: no refresh faster than a second). */
const MIN_INTERVAL_MS = 1000;
/** What changes with the clock alone is told this often. */
export const TICK_MS = 30_000;

// files the reads of the view write themselves (caches, the record check's note, temporary files): no change of state
const OWN_WRITES = /(^|\/)(listing|record-seen\.json|versions\.json|witness\.json|guard\.log(\.1)?|guard-config\.json)$|\.tmp$|\.lock$/;

/**
 * Calls `onChange(why)` when a ref or the local state of `repo` changes (`ref` or `state`), or every TICK_MS
 * (`tick`); never more often than once per MIN_INTERVAL_MS, and never while a call is running. `close` stops it all.
 */
export function watchStore(repo: Pick<Repo, 'commonDir' | 'gitDir'>, onChange: (why: 'ref' | 'state' | 'tick') => void | Promise<void>): { close(): void } {
  const watchers = new Map<string, FSWatcher>();
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
  /**
   * One watch per directory (node's own recursive watch stats every file first: 0.6 s for 10,000 loose refs), and a
   * new directory's watch added when it comes (a first handoff of a branch, the state folder of a new clone).
   */
  const add = (dir: string, deep: boolean, why: 'ref' | 'state', only?: RegExp) => {
    if (watchers.has(dir) || closed) return;
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: true }, (_event, name) => {
        const file = name ? String(name) : '';
        if (file && OWN_WRITES.test(file)) return;
        if (only && file && !only.test(file)) return;
        if (file && (deep || (dir === repo.commonDir && file === 'handoff'))) addIfDirectory(path.join(dir, file), dir === repo.commonDir ? 'state' : why);
        schedule(why);
      });
    } catch {
      return; // gone, or not made yet: its parent's watch sees it come
    }
    w.on('error', () => {
      w.close();
      if (watchers.get(dir) === w) watchers.delete(dir);
    });
    watchers.set(dir, w);
    if (!deep) return;
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // removed meanwhile
    }
    for (const e of entries) if (e.isDirectory()) add(path.join(dir, e.name), true, why);
  };
  // a directory named by its parent's event was made, or removed and made again: watched afresh (an old watch of a
  // removed directory sees nothing more)
  const addIfDirectory = (p: string, why: 'ref' | 'state') => {
    // a file, or gone again: nothing to watch
    if (!statOr(p)?.isDirectory()) return;
    watchers.get(p)?.close();
    watchers.delete(p);
    add(p, true, why);
  };
  // loose refs (handoffs, tracking copies, claims, leases, notes, the record) and the state folder; packed-refs and
  // HEAD (a branch switched) beside them
  add(path.join(repo.commonDir, 'refs'), true, 'ref');
  add(path.join(repo.commonDir, 'handoff'), true, 'state');
  add(repo.commonDir, false, 'ref', /^(packed-refs|HEAD|handoff)$/);
  if (path.resolve(repo.gitDir) !== path.resolve(repo.commonDir)) add(repo.gitDir, false, 'ref', /^HEAD$/);
  const tick = setInterval(() => schedule('tick'), TICK_MS);
  return {
    close() {
      closed = true;
      clearInterval(tick);
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
