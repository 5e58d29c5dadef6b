// The secret scanner, bundled alone to dist/secrets.cjs (secretlint's recommended preset): only a scan loads it.
import { lintSource } from '@secretlint/core';
import { creator as preset } from '@secretlint/secretlint-rule-preset-recommend';
import { shortRule } from './keywords';

export interface RawFinding {
  ruleId: string;
  messageId: string;
  range: [number, number];
  line: number;
  column: number;
}

type Rule = { meta: { id: string } };
const FILTER_COMMENTS = '@secretlint/secretlint-rule-filter-comments';
// filter-comments honours `secretlint-disable` comments in the scanned text: in a handoff body that would let the
// writer switch the scan off unseen, so it is left out; --allow-secret is the one way through, on the record
const rules = (preset as unknown as { rules: Rule[] }).rules.filter((r) => r.meta.id !== FILTER_COMMENTS);
// RFC 2606 documentation hosts (example.com, *.test, *.invalid, *.example) cannot carry real credentials: the
// URL rules let them through, so `https://user:pass@example.com` in copied docs is not refused
const DOC_HOSTS = ['/@(?:[\\w-]+\\.)*example\\.(?:com|org|net)\\b/i', '/@(?:[\\w-]+\\.)+(?:test|invalid|example)\\b/i'];
const OPTIONS: Record<string, unknown> = {
  '@secretlint/secretlint-rule-basicauth': { allows: DOC_HOSTS },
  '@secretlint/secretlint-rule-database-connection-string': { allows: DOC_HOSTS },
};
const config = { rules: rules.map((r) => ({ id: r.meta.id, rule: r, options: OPTIONS[r.meta.id] })) };

/** A body that is one JSON document is scanned as a .json file too (the gcp rule reads service-account JSON). */
function extOf(content: string, filePath: string): string {
  const ext = filePath.slice(filePath.lastIndexOf('.'));
  if (ext === '.json' || !/^\s*\{/.test(content)) return ext;
  try {
    JSON.parse(content);
    return '.json';
  } catch {
    return ext;
  }
}

/** The config of a subset of the rules, in the preset's order (the order findings at one place come in). */
const configs = new Map<string, typeof config>();
function configOf(only: string[] | undefined): typeof config {
  if (!only) return config;
  const key = only.join(',');
  let c = configs.get(key);
  if (!c) configs.set(key, (c = { rules: config.rules.filter((r) => only.includes(shortRule(r.id))) }));
  return c;
}

/** Every finding in `content` (line and column 1-based); `only`: just these rules (short names, keywords.ts). */
export async function scanContent(content: string, filePath: string, only?: string[]): Promise<RawFinding[]> {
  const r = await lintSource({ source: { content, filePath, ext: extOf(content, filePath), contentType: 'text' }, options: { config: configOf(only) as never, maskSecrets: true, noPhysicFilePath: true } });
  return r.messages
    .filter((m) => m.type === 'message')
    .map((m) => ({ ruleId: m.ruleId, messageId: m.messageId, range: [m.range[0], m.range[1]], line: m.loc.start.line, column: m.loc.start.column + 1 }));
}

export const RULES: string[] = rules.map((r) => shortRule(r.meta.id));
