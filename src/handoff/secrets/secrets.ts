// Secrets never leave the machine (SPEC 2.6): every body and state.json scanned with secretlint's recommended
// preset before it is written, pushed or received. The scanner is dist/secrets.cjs, loaded only here, on demand.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../../errors';
import { parseCommit, type Storage } from '../../git/storage';
import { userMac } from '../state/user-key';
import { SECRET_TRAILER, secretTrailersOf, serializeState, type HandoffState } from '../store/document';
import { PRESET_VERSION, rulesFor, shortRule } from './keywords';

import type * as Engine from './secrets-engine';

let engine: typeof Engine | null = null;

/** The scanner bundle: beside this bundle in dist/, or the built one when running from the sources (tests). */
export function loadScanner(): typeof Engine {
  if (engine) return engine;
  const file = [path.join(__dirname, 'secrets.cjs'), path.join(__dirname, '..', '..', '..', 'dist', 'secrets.cjs')].find((f) => existsSync(f));
  if (!file) throw new HandoffError('environment', 'scanner-missing', 'the secret scanner (dist/secrets.cjs) is missing: reinstall git-handoff (or run `npm run build`)');
  // through the launcher's V8 code cache where there is one: compiling secretlint is most of a first scan's cost
  const dir = path.dirname(file);
  const loader = path.join(dir, 'load.cjs');
  engine = (existsSync(loader) ? (require(loader) as typeof import('../../load')).loadBundle(dir, 'secrets.cjs', 'scan') : require(file)) as typeof Engine;
  return engine;
}

/** What the scan record trailer says (known without loading the scanner). */
export const scanRecord = () => `secretlint-preset-recommend@${PRESET_VERSION}`;

/**
 * The scan record's proof that this user's git-handoff scanned exactly this body and state: a record copied or made
 * elsewhere does not verify, and that version is scanned again. Null when no key can be kept (then nothing is trusted).
 */
function scanProof(body: string, stateText: string): string | null {
  try {
    return userMac(JSON.stringify(['handoff-scanned', body, stateText]));
  } catch {
    return null;
  }
}

export interface Finding {
  /** the preset's rule, short name (aws, github, privatekey, …) */
  rule: string;
  messageId: string;
  /** which part of the version: handoff.md, state.json or the commit message */
  file: string;
  line: number;
  column: number;
  /** the start of the match and its length, never the secret */
  preview: string;
  range: [number, number];
}

/** A preview that names the kind of token without revealing it: at most 4 leading characters of a long match. */
export function maskPreview(secret: string): string {
  const n = [...secret].length;
  const keep = n >= 24 ? 4 : 0;
  return `${[...secret].slice(0, keep).join('').replace(/[\s\u0000-\u001f]/g, ' ')}${'*'.repeat(Math.min(8, n - keep))}… (${n} chars)`;
}

/** A span stretched to the end of its token: the aws rule's ends mid-secret, and a redaction would leave the tail readable. */
function wholeToken(text: string, [start, end]: [number, number]): [number, number] {
  let e = end;
  while (e < text.length && /[A-Za-z0-9+/=_-]/.test(text[e])) e++;
  return [start, e];
}

/** Only the rules whose keywords occur run, and the scanner is not even loaded when there is none. */
export async function rawFindings(text: string, file: string): Promise<Engine.RawFinding[]> {
  const rules = rulesFor(text, file);
  if (rules?.length === 0) return [];
  return loadScanner().scanContent(text, file, rules ?? undefined);
}

/** Every finding in these texts, in order. */
export async function scanTexts(parts: Array<{ file: string; text: string }>): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const p of parts) {
    if (!p.text) continue;
    for (const f of await rawFindings(p.text, p.file)) {
      const range = wholeToken(p.text, f.range);
      out.push({ rule: shortRule(f.ruleId), messageId: f.messageId, file: p.file, line: f.line, column: f.column, preview: maskPreview(p.text.slice(range[0], range[1])), range });
    }
  }
  return out;
}

/** The text with each finding's span replaced by `[REDACTED:<rule>]` (overlapping spans merged). */
export function redactText(text: string, findings: Finding[]): string {
  const spans = findings.map((f) => ({ s: f.range[0], e: f.range[1], rule: f.rule })).sort((a, b) => a.s - b.s);
  const merged: typeof spans = [];
  for (const sp of spans) {
    const last = merged[merged.length - 1];
    if (last && sp.s < last.e) last.e = Math.max(last.e, sp.e);
    else merged.push({ ...sp });
  }
  let out = '';
  let pos = 0;
  for (const sp of merged) {
    out += text.slice(pos, sp.s) + `[REDACTED:${sp.rule}]`;
    pos = sp.e;
  }
  return out + text.slice(pos);
}

/** `--allow-secret` values as the preset's short rule names; an unknown name is refused with the list. */
function normalizeAllowed(rules: string[] | undefined): string[] {
  if (!rules?.length) return [];
  const known = loadScanner().RULES;
  const unknown = rules.map(String).find((r) => !known.includes(shortRule(r.trim())));
  if (unknown !== undefined) throw new HandoffError('usage', 'unknown-secret-rule', `--allow-secret ${JSON.stringify(unknown)}: not a rule of the preset; one of: ${known.join(', ')}`, { rule: unknown, rules: known });
  return [...new Set(rules.map((r) => shortRule(String(r).trim())))];
}

/** A finding as it may be shown: no range, no secret. */
export const publicFinding = (f: Finding) => ({ rule: f.rule, messageId: f.messageId, file: f.file, line: f.line, column: f.column, preview: f.preview });
const describe = (f: Finding) => `${f.file}:${f.line}:${f.column}  ${f.rule} (${f.messageId})  ${f.preview}`;

/** The ways on from a write or import a finding refused. */
export const scanWaysOn = (verb: 'write' | 'import') => [
  `take the secret out and ${verb} again; if it was real, rotate it (it was in your session and may be in other logs)`,
  `${verb} with --redact: each finding is replaced by [REDACTED:<rule>]`,
  `if it is no secret (an example, a test value): --allow-secret <rule>, recorded in a ${SECRET_TRAILER.allowed} trailer and the audit log`,
];

export function secretFoundError(findings: Finding[], what: string, steps: string[]): HandoffError {
  const n = findings.length;
  return new HandoffError(
    'usage',
    'secret-found',
    `${what} contains ${n === 1 ? 'a secret' : `${n} secrets`}; nothing was written:\n` + findings.map((f) => `  ${describe(f)}`).join('\n') + '\nWays on:\n' + steps.map((s, i) => `  ${i + 1}. ${s}`).join('\n'),
    { findings: findings.map(publicFinding) },
  );
}

export interface ScanPolicy {
  redact?: boolean;
  allow?: string[];
}

/** A write as scanned: the texts (redacted where --redact replaced findings), the trailer lines to add, and what refuses it. */
export type Prepared = Awaited<ReturnType<typeof prepareWrite>>;

/** Scans a body and its state before a write: what refuses it, or the texts redacted, allowed rules let through on the record. */
export async function prepareWrite(body: string, state: HandoffState, policy: ScanPolicy, reason?: string) {
  const allow = normalizeAllowed(policy.allow);
  const stateText = JSON.stringify(state, null, 2) + '\n';
  const all = await scanTexts([
    { file: 'handoff.md', text: body },
    { file: 'state.json', text: stateText },
    { file: 'reason', text: reason ?? '' },
  ]);
  const allowed = all.filter((f) => allow.includes(f.rule));
  const found = all.filter((f) => !allow.includes(f.rule));
  const record = (b: string, st: HandoffState) => {
    const proof = scanProof(b, serializeState(st));
    return `${SECRET_TRAILER.scanned}: ${scanRecord()}${proof ? ` proof=${proof}` : ''}`;
  };
  const trailers = [...new Set(allowed.map((f) => f.rule))].map((r) => `${SECRET_TRAILER.allowed}: ${r}`);
  // without --redact a finding refuses the write, which then has no trailers to write
  if (!found.length || !policy.redact) return { body, state, reason, trailers: [record(body, state), ...trailers], redacted: 0, allowed, refused: found };
  const redact = (file: string, text: string) => redactText(text, found.filter((f) => f.file === file));
  const redactedBody = redact('handoff.md', body);
  const redactedState = found.some((f) => f.file === 'state.json') ? (JSON.parse(redact('state.json', stateText)) as HandoffState) : state;
  trailers.push(`${SECRET_TRAILER.redacted}: ${found.length} (${[...new Set(found.map((f) => f.rule))].join(', ')})`);
  const redactedReason = reason === undefined ? undefined : redact('reason', reason);
  return { body: redactedBody, state: redactedState, reason: redactedReason, trailers: [record(redactedBody, redactedState), ...trailers], redacted: found.length, allowed, refused: [] };
}

export type VersionFindings = Awaited<ReturnType<typeof scanVersions>>[number];

/** The stored versions with unallowed findings (body, state.json, message); `skipScanned` trusts a version's scan record. */
export async function scanVersions(repo: Storage, versions: Array<{ ref: string; oid: string }>, o: { skipScanned: boolean }) {
  if (!versions.length) return [];
  // commit, body and state of every version in one cat-file
  const objs = repo.readObjects(versions.flatMap((v) => [v.oid, `${v.oid}:handoff.md`, `${v.oid}:state.json`]));
  const text = (b: (typeof objs)[number]) => (b && b.type === 'blob' ? b.content.toString('utf8') : '');
  const out: Array<{ ref: string; oid: string; findings: Finding[] }> = [];
  for (let i = 0; i < versions.length; i++) {
    const c = objs[3 * i];
    if (!c || c.type !== 'commit') continue;
    const message = parseCommit(c.content).message;
    const t = secretTrailersOf(message);
    // the message, which the record does not cover, is scanned whatever it says
    const proof = o.skipScanned ? / proof=([0-9a-f]{64})$/.exec(t.scanned ?? '')?.[1] : undefined;
    const trusted = proof !== undefined && proof === scanProof(text(objs[3 * i + 1]), text(objs[3 * i + 2]));
    const allowed = t.allowed.map(shortRule);
    const found = await scanTexts([
      ...(trusted ? [] : [
        { file: 'handoff.md', text: text(objs[3 * i + 1]) },
        { file: 'state.json', text: text(objs[3 * i + 2]) },
      ]),
      { file: 'message', text: message },
    ]);
    const unallowed = found.filter((f) => !allowed.includes(f.rule));
    if (unallowed.length) out.push({ ref: versions[i].ref, oid: versions[i].oid, findings: unallowed });
  }
  return out;
}

/** The lines that name each version and its findings (masked), for a refused push or receive. */
export function describeVersions(found: VersionFindings[]): string[] {
  return found.flatMap((v) => [`${v.ref} version ${v.oid.slice(0, 12)}:`, ...v.findings.map((f) => `  ${describe(f)}`)]);
}
