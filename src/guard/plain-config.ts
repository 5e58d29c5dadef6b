// What the sh front (bin/git-handoff-guard) knows of git's configuration: node writes
// <git-common-dir>/handoff/guard-config.plain beside its configuration cache while the configuration it read sets
// nothing that makes a file tool's call its own to judge (PLAIN_UNLESS: more protected files, the guard switched,
// another hooks directory; or an include), holding the files it stamped, each present (+) or absent (-); and removes it
// otherwise. The front hands a write over unless that file is there, lists exactly the files its own environment
// gives git, and was changed after each of them (change times: a date set back changes a file's too): it reads no
// configuration file itself.
import { lstatSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../git/config';
import { configFiles } from '../git/config-files';
import { keyName } from '../config-keys';
import { handoffDir } from '../handoff/state/paths';
import { writeState } from '../handoff/state/state-file';

/** Settings under which a file tool's call is node's whatever its path (keys as git lists them, in lower case). */
const PLAIN_UNLESS: readonly string[] = [keyName('protect'), keyName('guard'), 'core.hooksPath'].map((k) => k.toLowerCase());

/** An include, read or not (a file it names that is missing now may come): the configuration is node's to read. */
const INCLUDE = /^include(if\..*)?\.path$/i;

export const plainConfigFile = (commonDir: string) => path.join(handoffDir(commonDir), 'guard-config.plain');

const present = (f: string): boolean => {
  try {
    lstatSync(f);
    return true;
  } catch {
    return false;
  }
};

/** The line the front compares with the files its environment names: `<file>:+|` or `<file>:-|` each, in git's order. */
const configListLine = (files: string[]): string => files.map((f) => `${f}:${present(f) ? '+' : '-'}|`).join('');

/** Writes or removes the summary for a configuration node read now from `configFiles(loc, env)` and `included`. */
export function notePlainConfig(loc: { commonDir: string; gitDir: string }, config: Config | null, included: string[], env: NodeJS.ProcessEnv): void {
  const file = plainConfigFile(loc.commonDir);
  try {
    const line = config === null ? null : configListLine(configFiles(loc, env));
    const plain = line !== null && !/[\n\r]/.test(line) && included.length === 0 && ![...config!.keys()].some((k) => PLAIN_UNLESS.includes(k.toLowerCase()) || INCLUDE.test(k));
    if (plain) writeState(file, `${line}\n`, handoffDir(loc.commonDir));
    else rmSync(file, { force: true });
  } catch {
    // a summary: without it the front hands writes to node, which reads the configuration itself
    try {
      rmSync(file, { force: true });
    } catch {
      /* nothing more to do */
    }
  }
}
