// Values read out of a configuration read (src/git/config.ts reads it): a key's last value, a boolean, the identity
// git would be missing.
import type { Config } from './storage';

/** The last value of a key, as git reports it. */
export const configValue = (c: Config, key: string): string | undefined => c.get(key.toLowerCase())?.at(-1);

/** Adds a value to a key's values, in git's order. */
export const addValue = (map: Config, key: string, value: string): void => void (map.get(key) ?? map.set(key, []).get(key)!).push(value);

/** Whether a value is one of git's words for true. */
export const isTrue = (v: string): boolean => /^(true|yes|on|1)$/i.test(v.trim());

export function configBool(c: Config, key: string): boolean {
  const v = configValue(c, key);
  return v !== undefined && isTrue(v);
}

export const FALLBACK_IDENTITY = { name: 'git-handoff', email: 'git-handoff@localhost' };

/** Environment that fills in any identity part git has not been given, so a write never fails for it. */
export function identityEnv(c: Config, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const role of ['author', 'committer'] as const) {
    const R = role.toUpperCase();
    if (!env[`GIT_${R}_NAME`] && !configValue(c, `${role}.name`) && !configValue(c, 'user.name')) out[`GIT_${R}_NAME`] = FALLBACK_IDENTITY.name;
    if (!env[`GIT_${R}_EMAIL`] && !configValue(c, `${role}.email`) && !configValue(c, 'user.email') && !env.EMAIL) {
      out[`GIT_${R}_EMAIL`] = FALLBACK_IDENTITY.email;
    }
  }
  return out;
}
