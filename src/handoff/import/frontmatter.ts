// Markdown handoffs with YAML frontmatter (SPEC 4 import): the fields, and a handoff_id checked against the sha256
// of the RFC 8785 canonical JSON of every other field plus the body.
import { createHash } from '../../lazy-crypto';
// a few function definitions (ESM only, so imported, not required); the large YAML parser is loaded on use
import canonicalize from 'canonicalize';
import { HandoffError } from '../../errors';
import { assertAddressee, assertRefTarget, assertSlug, isAddressee, normalAddressee } from '../store/address';
import { oneLine } from '../store/document';
import { EMAIL_RE } from '../store/person';
import { yamlParser } from '../../yaml';

const REQUIRED = ['schema_version', 'from', 'to', 'topic', 'ts_utc'] as const;

/** `---\n<yaml>\n---\n<body>`: the YAML text and the body, byte for byte; null when the text has no frontmatter. */
function splitFrontmatter(text: string): { yaml: string; body: string } | null {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? { yaml: m[1], body: text.slice(m[0].length) } : null;
}

function handoffIdOf(fields: Record<string, unknown>, body: string): string {
  const { handoff_id: _id, ...rest } = fields;
  const json = canonicalize({ ...rest, body });
  if (json === undefined) throw new Error('nothing to canonicalize');
  return `sha256:${createHash('sha256').update(json, 'utf8').digest('hex')}`;
}

/** A `to` value of a frontmatter file: an addressee as given, or a bare client name, email or role slug. */
function addresseeOf(value: string, file: string): string {
  if (isAddressee(normalAddressee(value))) return normalAddressee(value);
  if (EMAIL_RE.test(value)) return `person:${value}`;
  return assertAddressee(`role:${value}`, `${file}: to`);
}

const listOf = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const bad = (file: string, why: string) => new HandoffError('usage', 'invalid-frontmatter', `${file}: ${why}; nothing was imported`, { file });

/** Parses and checks a frontmatter handoff; null when the text has no frontmatter. Exit 2 for bad fields, 6 for a wrong handoff_id. */
export function parseFrontmatterHandoff(file: string, text: string) {
  const parts = splitFrontmatter(text);
  if (!parts) return null;
  const YAML = yamlParser();
  let fields: unknown;
  try {
    // the core schema (YAML 1.2): ts_utc stays the string it was written as
    fields = YAML.parse(parts.yaml, { schema: 'core', uniqueKeys: true, maxAliasCount: 0 });
  } catch (e) {
    throw bad(file, `its frontmatter is not valid YAML (${oneLine((e as Error).message).slice(0, 200)})`);
  }
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) throw bad(file, 'its frontmatter is not a mapping of fields');
  const f = fields as Record<string, unknown>;
  const missing = REQUIRED.filter((k) => f[k] === undefined || f[k] === null);
  if (missing.length) throw bad(file, `its frontmatter lacks ${missing.join(', ')}`);
  if ('body' in f) throw bad(file, 'its frontmatter has a "body" field, which the handoff_id reserves for the text after it');
  const text1 = (k: string) => {
    if (typeof f[k] !== 'string' || !f[k]) throw bad(file, `${k} must be a non-empty string`);
    return f[k] as string;
  };
  const strings = (k: string) =>
    listOf(f[k]).map((v) => {
      if (typeof v !== 'string') throw bad(file, `${k} must be a string or a list of strings`);
      return v;
    });
  let handoffId: string;
  try {
    handoffId = handoffIdOf(f, parts.body);
  } catch (e) {
    throw bad(file, `its fields cannot be written as canonical JSON (${(e as Error).message})`);
  }
  if (f.handoff_id !== undefined) {
    const given = text1('handoff_id');
    if (given !== handoffId) {
      throw new HandoffError(
        'integrity',
        'handoff-id-mismatch',
        `${file}: handoff_id ${given} does not match its content (computed ${handoffId}): the file changed after it was written, or was written by a tool that hashes otherwise; nothing was imported`,
        { file, given, computed: handoffId },
      );
    }
  }
  return {
    topic: text1('topic'),
    from: oneLine(text1('from')),
    to: strings('to').map((v) => addresseeOf(v, file)),
    tags: strings('tags').map((v) => assertSlug(v, `${file}: tags`)),
    refs: strings('references').map((v) => assertRefTarget(v, `${file}: references`)),
    body: parts.body,
  };
}
