// Every `git config handoff.*` knob in one typed table: name, type, default and doc line (the README table and the man
// page are written from it). Every reader goes through `setting` or `parseSetting` (test/design/one-config-table.test.ts).

type Spec =
  /** git's true words read true, its false words false, anything else `other` */
  | { type: 'bool'; default: boolean; other: boolean }
  /** the last value as it is; `multi`: every value, in git's order */
  | { type: 'string'; default?: undefined; multi?: boolean }
  /** "30m", "2h", "45s", "1d" or plain seconds, in milliseconds; anything else the default */
  | { type: 'duration'; default: number }
  /** a whole number of at least `min` (0); anything else the default (null: the reader says what that means) */
  | { type: 'int'; default: number | null; min?: number }
  /** one of `values` (trimmed, any case); anything else the default */
  | { type: 'enum'; values: readonly string[]; default: string };

/** `shown`: the default as the docs show it; `doc`: what the key does, one line (Markdown code spans). */
interface Key {
  spec: Spec;
  shown: string;
  doc: string;
}

const HOUR = 3_600_000;

const KEYS = {
  leaseTTL: { spec: { type: 'duration', default: 30 * 60_000 }, shown: '30m', doc: 'how long a worktree lease stays live after its last heartbeat (s, m, h, d)' },
  claimTTL: { spec: { type: 'duration', default: 2 * HOUR }, shown: '2h', doc: 'how long a claim lasts unless renewed or released, when `claim` is given no `--ttl` (s, m, h, d; SPEC 10)' },
  claims: {
    spec: { type: 'enum', values: ['enforce', 'tell'], default: 'enforce' },
    shown: 'enforce',
    doc: 'a write to a path another live session claims is refused (by the guard and pre-commit), naming the holder and the ways on; `tell`: told to the model and the person instead, claims advisory (SPEC 10)',
  },
  protect: { spec: { type: 'string', multi: true }, shown: '(none)', doc: 'more globs of protected handoff files, beside `**/memory/handoff-*.md` (multi-valued)' },
  autoSync: { spec: { type: 'bool', default: false, other: false }, shown: 'false', doc: 'the pre-push hook also pushes changed handoff refs to the remote being pushed to' },
  sign: { spec: { type: 'bool', default: false, other: false }, shown: 'false', doc: "sign handoff commits with git's signing setup (`gpg.format`, `user.signingKey`)" },
  remote: { spec: { type: 'string' }, shown: 'origin', doc: 'the remote that fetch, push, sync and the sync column use when none is named' },
  fetchOnStart: {
    spec: { type: 'bool', default: true, other: false },
    shown: 'true',
    doc: "session start fetches the remote's handoffs of the branch (at most 2 s, never a prompt); `false`: never",
  },
  guard: { spec: { type: 'bool', default: true, other: true }, shown: 'on', doc: '`off` makes the agent guard allow everything in this repository' },
  minFormat: {
    spec: { type: 'enum', values: ['1', '2'], default: '2' },
    shown: '2',
    doc: '`1`: take in archives of format-1 clients (git-handoff 094717a or older), which name nobody, by push and fetch (set on the server and in each clone while such clients remain); `2`: refuse them (SPEC 2)',
  },
  formatVersion: {
    spec: { type: 'int', default: null },
    shown: '(unset)',
    doc: "the store's format version, set only by a build whose data older builds would misread; a newer one than this build's is exit 7 for every command (SPEC 2)",
  },
  pushBatch: {
    spec: { type: 'int', default: 2000, min: 1 },
    shown: '2000',
    doc: 'at most this many refs in one push of `sync`/`push`; more go in several pushes, each continuing where the last stopped (SPEC 7)',
  },
  hostWait: {
    spec: { type: 'duration', default: 60_000 },
    shown: '60s',
    doc: "how long `sync`, `push` and `claim` wait out a host's rate limit (backing off from 2 s) before saying so (SPEC 7)",
  },
  archiveRetention: {
    spec: { type: 'string' },
    shown: '90d,1',
    doc: '`<age>,<count>`: archive entries older than the age and past the newest count of their topic are pruned by `git handoff gc`, and no longer fetched or pushed; `off` keeps them all (SPEC 2)',
  },
  claimMaxTTL: {
    spec: { type: 'duration', default: 24 * HOUR },
    shown: '24h',
    doc: 'the longest a claim lasts: a longer `--ttl` is refused, and each clone counts a claim expired this long after it first saw that version of it (SPEC 10)',
  },
} as const satisfies Record<string, Key>;

type HandoffKey = keyof typeof KEYS;

type ValueOf<S> = S extends { type: 'bool' }
  ? boolean
  : S extends { type: 'duration' } | { type: 'int'; default: number }
    ? number
    : S extends { type: 'int' }
      ? number | null
      : S extends { type: 'enum'; values: readonly (infer V)[] }
        ? V
        : S extends { multi: true }
          ? string[]
          : string | undefined;
type SettingValue<K extends HandoffKey> = ValueOf<(typeof KEYS)[K]['spec']>;

/** The key's full name as git spells it: handoff.<key>. */
export const keyName = (k: HandoffKey): string => `handoff.${k}`;

/** git's words for true (git_parse_maybe_bool, in any case); its false ones are FALSE_WORDS and (callers say) empty. */
export const TRUE_WORDS = ['true', 'yes', 'on', '1'];
const FALSE_WORDS = ['false', 'no', 'off', '0'];

/** A value as git reads a boolean word (untrimmed, any case): true, false, or null for anything else. */
export function gitBool(v: string): boolean | null {
  const w = v.toLowerCase();
  return TRUE_WORDS.includes(w) ? true : FALSE_WORDS.includes(w) ? false : null;
}

/** "30m", "2h", "45s", "1d" or plain seconds, in milliseconds. */
export function parseDuration(v: string | undefined, fallbackMs: number): number {
  if (!v) return fallbackMs;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(v);
  if (!m) return fallbackMs;
  const mult = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 's').toLowerCase() as 'ms'];
  return Number(m[1]) * mult;
}

/** A key's value from the values git gave for it (in git's order; none: unset), by the key's type. */
export function parseSetting<K extends HandoffKey>(k: K, values: readonly string[] | undefined): SettingValue<K> {
  const s: Spec = KEYS[k].spec;
  const v = values?.at(-1);
  const t = v?.trim() ?? '';
  const out = (() => {
    switch (s.type) {
      case 'bool':
        return v === undefined ? s.default : (gitBool(t) ?? s.other);
      case 'duration':
        return parseDuration(v, s.default);
      case 'int':
        return /^\d+$/.test(t) && Number(t) >= (s.min ?? 0) ? Number(t) : s.default;
      case 'enum':
        return s.values.includes(t.toLowerCase()) ? t.toLowerCase() : s.default;
      case 'string':
        return s.multi ? [...(values ?? [])] : v;
    }
  })();
  return out as SettingValue<K>;
}

/** A key's value in a configuration git answered (keys in lower case, as `git config` prints them). */
export const setting = <K extends HandoffKey>(c: ReadonlyMap<string, string[]>, k: K): SettingValue<K> => parseSetting(k, c.get(keyName(k).toLowerCase()));

/** Each key as the README table and the man page show it. */
export const CONFIG_KEYS = (Object.keys(KEYS) as HandoffKey[]).map((k) => ({ key: keyName(k), default: KEYS[k].shown, description: KEYS[k].doc }));
