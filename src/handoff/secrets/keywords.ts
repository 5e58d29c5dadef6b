// Which rules of the preset can match a text, decided before the scanner is loaded (as gitleaks does with its
// rules' keywords): each rule's keywords are substrings that every match of every pattern of that rule contains
// (lower-cased, since some patterns ignore case), read from the rules' sources of the preset version below. The
// text is lower-cased once; a rule none of whose keywords occurs cannot report anything, so it is not run, and
// when no rule is left the scanner (dist/secrets.cjs) is not loaded at all. A rule without keywords always runs.
// What the scan finds is exactly what the whole preset finds (test/handoff/secrets/keywords.test.ts, old against new
// over the corpus); a preset of another version than the one these were read from runs every rule.
import { version as installedPreset } from '@secretlint/secretlint-rule-preset-recommend/package.json';

/** The preset version the keywords below were read from. */
export const KEYWORDS_FOR = '12.0.0';

/** The preset version the scanner bundles (the scan record names it). */
export const PRESET_VERSION: string = installedPreset;

/**
 * Every rule of the preset, in the preset's order (filter-comments is left out of the scan, secrets-engine.ts), with
 * its keywords. Patterns as in the preset's sources (module/index.js); options as secrets-engine.ts passes them.
 */
export const RULE_KEYWORDS: ReadonlyArray<readonly [rule: string, keywords: readonly string[]]> = [
  // only (?:SECRET|secret|Secret)_?(?:ACCESS|…)_?(?:KEY|…) runs: the access-key-id and account-id scans are off
  // (enableIDScanRule false)
  ['aws', ['secret']],
  // .json: JSON with "private_key_id" and "private_key" keys, which JSON text may spell with \u escapes; .p12 always
  ['gcp', ['private_key', '\\u']],
  // -----BEGIN[ ]?(…)?PRIVATE KEY(?: BLOCK)?-----…
  ['privatekey', ['private key']],
  // npm_[A-Za-z0-9_]{36}; in package.json x-oauth-basic@github.com, in .npmrc _authToken= (whatever the file name)
  ['npm', ['npm_', 'x-oauth-basic', '_authtoken']],
  // (?:https?|ftp|ftps)://user:password@host
  ['basicauth', ['://']],
  // (?:xoxb|xoxp|xapp|xoxa|xoxo|xoxr)-…; https://hooks.slack.com/services/… (case-insensitive)
  ['slack', ['xoxb-', 'xoxp-', 'xapp-', 'xoxa-', 'xoxo-', 'xoxr-', 'hooks.slack.com']],
  // SG\.\w…
  ['sendgrid', ['sg.']],
  ['shopify', ['shppa_', 'shpca_', 'shpat_', 'shpss_']],
  ['github', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_']],
  ['gitlab', ['glpat-']],
  ['grafana', ['glc_', 'glsa_']],
  // both forms hold T3BlbkFJ
  ['openai', ['t3blbkfj']],
  ['anthropic', ['sk-ant-api0']],
  ['groq', ['gsk_']],
  ['huggingface', ['hf_']],
  ['linear', ['lin_api_']],
  ['notion', ['ntn_']],
  ['1password', ['ops_ey']],
  // mongodb(+srv)://, (jdbc:)mysql(x)://, postgres(ql):// (case-insensitive)
  ['database-connection-string', ['mongodb', 'mysql', 'postgres']],
  ['hashicorp-vault', ['hvs.', 'hvb.', 'hvr.']],
  ['vercel', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_']],
  ['databricks', ['dapi']],
  ['docker', ['dckr_pat_']],
  ['figma', ['figd_']],
];

/** The preset's rules by short name, in its order. */
export const RULE_NAMES: readonly string[] = RULE_KEYWORDS.map(([r]) => r);

/**
 * The rules that may report something in `text` (scanned as `file`), in the preset's order; null: every rule (the
 * installed preset is not the one the keywords were read from).
 */
export function rulesFor(text: string, file: string): string[] | null {
  if (PRESET_VERSION !== KEYWORDS_FOR) return null;
  const lower = text.toLowerCase();
  return RULE_KEYWORDS.filter(([rule, words]) => (rule === 'gcp' && file.endsWith('.p12')) || words.length === 0 || words.some((w) => lower.includes(w))).map(([r]) => r);
}
