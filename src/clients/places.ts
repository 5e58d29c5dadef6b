// Where a client's files are, read from its record: its user folder (moved by its variable), its project files in a
// worktree, its trust file. For the installers, doctor and the plugin checks, which name no client's path themselves.
import path from 'node:path';
import type { ClientName } from './names';
import type { FileScope } from './record';
import { RECORDS } from './records';
import { userHome } from '../user-dirs';

/** The folder `client` keeps its user files in (`~/.claude`, or `$CLAUDE_CONFIG_DIR`; `~/.gemini`). */
export function userDir(client: ClientName, env: NodeJS.ProcessEnv = process.env, home = userHome(env)): string {
  const h = RECORDS[client].home!;
  return (h.variable && env[h.variable]) || path.join(home, h.dir);
}

/** A record path (a user one `$VAR/x` in its user folder or `~`-relative, a project one in `worktree`) as an absolute path. */
export function placed(
  client: ClientName,
  file: string,
  scope: FileScope,
  worktree: string | null,
  env: NodeJS.ProcessEnv = process.env,
  home = userHome(env),
): string | null {
  const m = /^\$[A-Z_]+\/(.*)$/.exec(file);
  if (m) return path.join(userDir(client, env, home), m[1]);
  if (path.isAbsolute(file)) return file;
  if (scope === 'user') return path.join(home, file);
  return worktree === null ? null : path.join(worktree, file);
}

/** The project (and local) files `client` reads hooks from, in `worktree`. */
export const projectFiles = (client: ClientName, worktree: string): string[] =>
  RECORDS[client].hookFiles.filter((f) => f.scope === 'project' || f.scope === 'local').map((f) => path.join(worktree, f.file));

/** The folder of a worktree holding `client`'s project files (`.claude`). */
export const projectDir = (client: ClientName): string => RECORDS[client].hookFiles.find((f) => f.scope === 'project')!.file.split('/')[0];

/** `client`'s trust file (its first), absolute. */
export function trustFile(client: ClientName, env: NodeJS.ProcessEnv = process.env): string {
  const t = RECORDS[client].trustFiles[0];
  return placed(client, t.file, t.scope, null, env)!;
}
