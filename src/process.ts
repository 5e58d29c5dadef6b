// The one module that starts a program (git's through src/git/run.ts). node:child_process is loaded at the first start:
// the guard's runs that start none do not pay for it.
import type * as ChildProcesses from 'node:child_process';

export type { ChildProcess } from 'node:child_process';

type Starter = 'spawn' | 'spawnSync' | 'execFile' | 'execFileSync';

/** node's `name`, loaded at its first call. */
function lazy<K extends Starter>(name: K): (typeof ChildProcesses)[K] {
  return ((...args: unknown[]) => {
    const loaded = require('node:child_process') as Record<Starter, (...a: unknown[]) => unknown>;
    return loaded[name](...args);
  }) as (typeof ChildProcesses)[K];
}

export const spawn = lazy('spawn');
export const spawnSync = lazy('spawnSync');
export const execFile = lazy('execFile');
export const execFileSync = lazy('execFileSync');
