// Which rules of the preset can match a text, decided before the scanner is loaded (as gitleaks does): each rule's
// keywords are lower-cased substrings every match of the rule contains, read from the preset's sources of the version
// below. A rule none of whose keywords occurs is not run; with none left the scanner is not loaded at all.
// keywords.test.ts checks the scan finds exactly what the whole preset finds; another preset version runs every rule.
import { version as installedPreset } from '@secretlint/secretlint-rule-preset-recommend/package.json';

export const KEYWORDS_FOR = '12.0.0';

/** A preset rule's id as its short name (aws, github, …): what findings, --allow-secret and the record say. */
export const shortRule = (id: string) => id.replace(/^@secretlint\/secretlint-rule-/, '');

/** The preset version the scanner bundles (the scan record names it). */
export const PRESET_VERSION: string = installedPreset;

/** Every rule of the preset but filter-comments (secrets-engine.ts), in its order, with its keywords. */
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

/** The rules that may report something in `text` (scanned as `file`), in the preset's order; null: every rule. */
export function rulesFor(text: string, file: string): string[] | null {
  if (PRESET_VERSION !== KEYWORDS_FOR) return null;
  const lower = text.toLowerCase();
  return RULE_KEYWORDS.filter(([rule, words]) => (rule === 'gcp' && file.endsWith('.p12')) || words.some((w) => lower.includes(w))).map(([r]) => r);
}
