// What the rules may ask about the world, each answered lazily and at most once per guard run: the repository
// a path lives in (found without git), its handoff settings (cached), and — only when a rule needs it — git itself.
import path from 'node:path';
import { readConfigFiles, type Config } from '../git/config';
import { setting } from '../config-keys';
import type { Repo } from '../git/repo';
import { SESSION_RE } from '../handoff/state/session';
import type { ClientAdapter, GuardEvent } from '../clients/event';
import { RECORDS } from '../clients/records';
import { configFiles } from '../git/config-files';
import { configKey, locate, readConfigCache, walkUp, writeConfigCache, type Location } from './locate';
import type { SimpleCommand } from './shell/command';
import { firstParse } from './allow';
import { userHome } from '../user-dirs';

/** What the first look parsed and located, handed to the full guard so that nothing is done twice (undefined: not looked for). */
export interface Seen {
  adapter: ClientAdapter;
  event: GuardEvent;
  loc?: Location | null;
  cmds?: SimpleCommand[] | null; // null: past the first look's bound
  config?: Config | null;
}

/** Whether this call's before-tool context reaches the model (its record's contextBeforeTool, or printed by its shell call: contextInShellOutput). */
export const modelReadsBefore = (e: GuardEvent): boolean => RECORDS[e.client].contextBeforeTool || (e.action.type === 'shell' && !!RECORDS[e.client].contextInShellOutput);

export const DEFAULT_PROTECT = ['**/memory/handoff-*.md'];

export class GuardContext {
  /** null when none can be read: a stranger's call (rules/pre-tool.ts) */
  readonly session: string | null;
  private locs = new Map<string, Location | null>();
  private repos = new Map<string, Repo>();
  private configs = new Map<string, Config>();
  private foreign?: boolean;
  private line?: SimpleCommand[] | null;

  constructor(
    readonly event: GuardEvent,
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.session = event.session && SESSION_RE.test(event.session) ? event.session : null;
  }

  /** Takes over what the first look parsed and located (src/guard/first.ts), so nothing is done twice. */
  seed(seen: Seen): void {
    if (seen.loc !== undefined) this.locs.set(path.resolve(this.event.cwd), seen.loc);
    if (seen.loc && seen.config) this.configs.set(seen.loc.commonDir, seen.config);
    if (seen.cmds) this.line = seen.cmds;
  }

  /** A shell call's line as the first look reads it, once per guard run (null: past its bound); undefined for other calls. */
  get shellLine(): SimpleCommand[] | null | undefined {
    const a = this.event.action;
    if (a.type !== 'shell') return undefined;
    return this.line === undefined ? (this.line = firstParse(a.command, a.cwd ?? this.event.cwd)) : this.line;
  }

  /** Whether the event's cwd is in a repository git refuses as another user's (safe.directory). */
  untrusted(): boolean {
    return (this.foreign ??= this.locate() === null && walkUp(this.event.cwd) !== null);
  }

  /** An absolute path for a path the tool named (relative paths are relative to `dir`, else the event's cwd). */
  abs(p: string, dir?: string | null): string {
    return path.resolve(dir ?? this.event.cwd, p);
  }

  locate(dir: string = this.event.cwd): Location | null {
    const key = path.resolve(dir);
    if (!this.locs.has(key)) this.locs.set(key, locate(key));
    return this.locs.get(key)!;
  }

  /** The repository of a file, found from the nearest directory up (the file may not exist yet). */
  locateFile(file: string): Location | null {
    return this.locate(path.dirname(file));
  }

  /** The full repository handle; spawns git, so only rules that need git call it. */
  async repo(loc: Location): Promise<Repo> {
    let r = this.repos.get(loc.gitDir);
    if (!r) {
      const { openRepo } = await import('../git/repo');
      r = openRepo(loc.worktree);
      this.repos.set(loc.gitDir, r);
    }
    return r;
  }

  /** handoff.* and identity settings, from a cache that git refreshes when a config file changes. */
  async config(loc: Location): Promise<Config> {
    let c = this.configs.get(loc.commonDir);
    if (!c) {
      const key = configKey(loc, this.env);
      c = readConfigCache(loc, key, this.env) ?? undefined;
      if (!c) {
        // only a changed configuration starts git
        const base = new Set(configFiles(loc, this.env));
        const read = readConfigFiles(await this.repo(loc), userHome(this.env));
        c = read.config;
        // included files are kept with the settings (the perimeter protects them: src/guard/perimeter.ts)
        writeConfigCache(loc, key, c, this.env, read.files.filter((f) => !base.has(f)));
      }
      this.configs.set(loc.commonDir, c);
    }
    return c;
  }

  async guardOff(loc: Location): Promise<boolean> {
    return !setting(await this.config(loc), 'guard');
  }

  /** Globs of protected handoff files: the seed tools' default plus `git config handoff.protect` (relative to the worktree). */
  async protectGlobs(loc: Location | null): Promise<string[]> {
    if (!loc) return DEFAULT_PROTECT;
    const extra = setting(await this.config(loc), 'protect');
    return [...DEFAULT_PROTECT, ...extra.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean)];
  }
}
