// git-handoff's own folders in the user's home, the one place they are named (but src/load.ts, which runs before any
// module is loaded); the guard's perimeter protects all three.
import path from 'node:path';

type Env = NodeJS.ProcessEnv;
/** The user's home: HOME, else the system's answer (node:os, about 0.3 ms to load, only then). */
export const userHome = (env: Env = process.env) => env.HOME || (require('node:os') as typeof import('node:os')).homedir();

/** <XDG cache>/git-handoff: the code cache, the per-user key, the guard's log outside a repository */
export const userCacheDir = (env: Env = process.env) => path.join(env.XDG_CACHE_HOME || path.join(userHome(env), '.cache'), 'git-handoff');
/** <XDG state>/git-handoff: the witnesses of the loss records */
export const userStateDir = (env: Env = process.env) => path.join(env.XDG_STATE_HOME || path.join(userHome(env), '.local', 'state'), 'git-handoff');
/** <XDG data>/git-handoff: plugin and extension copies, settings saved before install */
export const userDataDir = (env: Env = process.env) => path.join(env.XDG_DATA_HOME || path.join(userHome(env), '.local', 'share'), 'git-handoff');

/** All of git-handoff's own folders in the home. */
export const userDirs = (env: Env = process.env) => [userCacheDir(env), userStateDir(env), userDataDir(env)];
