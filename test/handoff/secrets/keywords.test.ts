// The keyword pre-filter of the secret scan (src/handoff/secrets/keywords.ts): only the rules whose keywords occur
// run, and none at all loads no scanner. The old engine (every rule of the preset) against the new one (the
// pre-filter, then the rules it keeps) over the secret corpus and variants of it: the same findings, every one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYWORDS_FOR, PRESET_VERSION, RULE_KEYWORDS, rulesFor } from '../../../src/handoff/secrets/keywords';
import { loadScanner, rawFindings } from '../../../src/handoff/secrets/secrets';
import { ROOT } from '../../helpers/repo';

const CORPUS = path.join(ROOT, 'fixtures', 'secrets');
const corpus = ['clean', 'planted'].flatMap((dir) => readdirSync(path.join(CORPUS, dir)).sort().map((f) => ({ name: `${dir}/${f}`, text: readFileSync(path.join(CORPUS, dir, f), 'utf8') })));

/** A text as the old engine (every rule) and the new (pre-filter first) scan it: both lists, to compare whole. */
async function both(text: string, file: string) {
  return { old: await loadScanner().scanContent(text, file), now: await rawFindings(text, file) };
}

/** What the corpus turns into for the differential: each text as written, in other cases, inside JSON, as a gcp key file. */
function variants(text: string): string[] {
  const json = JSON.stringify({ note: text });
  const pem = /-----BEGIN[^\n]*PRIVATE KEY-----[\s\S]*?-----END[^\n]*PRIVATE KEY-----/.exec(text)?.[0];
  return [
    text,
    text.toUpperCase(),
    text.toLowerCase(),
    json,
    // the other schemes the URL rules know (basicauth: ftp, ftps, http; the database rules: mysqlx, postgresql, mongodb+srv)
    text.replace(/https:/g, 'ftp:'),
    text.replace(/https:/g, 'ftps:').replace(/mysql:/g, 'jdbc:mysqlx:').replace(/postgres:/g, 'postgresql:').replace(/mongodb:/g, 'mongodb+srv:'),
    // a service-account key file, keys spelled plainly and with \u escapes (what the gcp rule reads after JSON.parse)
    ...(pem ? [JSON.stringify({ type: 'service_account', private_key_id: 'abc', private_key: pem }), JSON.stringify({ private_key_id: 'abc', private_key: pem }).replace(/private_key/g, 'private\\u005fkey')] : []),
  ];
}

describe('the keyword pre-filter of the secret scan', () => {
  it('covers exactly the rules of the installed preset, in its order, for the version its keywords were read from', () => {
    const e = loadScanner();
    expect(RULE_KEYWORDS.map(([r]) => r)).toEqual(e.RULES);
    expect(KEYWORDS_FOR).toBe(PRESET_VERSION);
    for (const [, words] of RULE_KEYWORDS) for (const w of words) expect(w).toBe(w.toLowerCase());
  });

  it('old engine against new over the corpus and its variants, as every file a scan names: the same findings', async () => {
    const files = ['handoff.md', 'state.json', 'message', 'reason', 'package.json', '.npmrc'];
    let compared = 0;
    let found = 0;
    let skipped = 0;
    for (const c of corpus) {
      for (const text of variants(c.text)) {
        for (const file of files) {
          const r = await both(text, file);
          expect(r.now, `${c.name} as ${file}`).toEqual(r.old);
          compared++;
          found += r.old.length;
          if (rulesFor(text, file)?.length === 0) skipped++;
        }
      }
    }
    // the comparison saw findings of every kind and texts the pre-filter skips whole
    expect(compared).toBeGreaterThan(1500);
    expect(found).toBeGreaterThan(300);
    expect(skipped).toBeGreaterThan(100);
  });

  it('each rule run alone on the planted corpus finds nothing where none of its keywords occurs', async () => {
    const e = loadScanner();
    for (const c of corpus.filter((x) => x.name.startsWith('planted/'))) {
      for (const text of variants(c.text)) {
        const lower = text.toLowerCase();
        for (const [rule, words] of RULE_KEYWORDS) {
          if (words.some((w) => lower.includes(w))) continue;
          expect(await e.scanContent(text, 'package.json', [rule]), `${rule} in ${c.name}`).toEqual([]);
          expect(await e.scanContent(text, 'state.json', [rule]), `${rule} in ${c.name}`).toEqual([]);
        }
      }
    }
  });

  it('keeps the rules whose keyword occurs in any case, and skips the text a handoff usually is', () => {
    expect(rulesFor('## Goal\nMove sessions to the new token store.\n', 'handoff.md')).toEqual([]);
    expect(rulesFor('AWS_SECRET_ACCESS_KEY=…', 'handoff.md')).toEqual(['aws']);
    expect(rulesFor('Postgres: POSTGRES://u:p@db/app', 'handoff.md')).toEqual(['basicauth', 'database-connection-string']);
    expect(rulesFor('{"private\\u005fkey": 1}', 'state.json')).toEqual(['gcp']);
    expect(rulesFor('', 'key.p12')).toEqual(['gcp']);
  });
});
