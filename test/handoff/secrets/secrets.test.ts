// The scanner itself (dist/secrets.cjs): the corpus counts, every preset rule, bad input, and redaction.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactionOf } from '../../../src/handoff/secrets/redact-check';
import { loadScanner, maskPreview, redactText, scanTexts } from '../../../src/handoff/secrets/secrets';
import { ROOT } from '../../helpers/repo';

const CORPUS = path.join(ROOT, 'fixtures', 'secrets');
const read = (dir: string) => readdirSync(path.join(CORPUS, dir)).sort().map((f) => ({ name: f, text: readFileSync(path.join(CORPUS, dir, f), 'utf8') }));
/** The rules a planted file's name says it carries: 007-npm.md → [npm]. */
const rulesOf = (name: string) => name.replace(/^\d+-/, '').replace(/\.md$/, '').split('+');

describe('secret scanner corpus', () => {
  it('finds nothing in 200 realistic clean bodies full of near-misses (false positives: 0 of 200)', async () => {
    const clean = read('clean');
    expect(clean.length).toBeGreaterThanOrEqual(200);
    const flagged: string[] = [];
    for (const c of clean) {
      const f = await scanTexts([{ file: 'handoff.md', text: c.text }]);
      if (f.length) flagged.push(`${c.name}: ${f.map((x) => x.rule).join(',')}`);
    }
    expect(flagged).toEqual([]);
  });

  it('finds the planted secret of every rule of the preset, in all 51 planted bodies', async () => {
    const planted = read('planted');
    expect(planted.length).toBeGreaterThanOrEqual(50);
    const missed: string[] = [];
    const covered = new Set<string>();
    for (const p of planted) {
      const got = new Set((await scanTexts([{ file: 'handoff.md', text: p.text }])).map((f) => f.rule));
      for (const r of rulesOf(p.name)) (got.has(r) ? covered.add(r) : missed.push(`${p.name}: ${r}`));
    }
    expect(missed).toEqual([]);
    expect([...covered].sort()).toEqual([...loadScanner().RULES].sort());
  });

  it('--redact leaves no finding and no byte of the secret, and the result is a redaction of the original', async () => {
    for (const p of read('planted')) {
      const found = await scanTexts([{ file: 'handoff.md', text: p.text }]);
      const secrets = found.map((f) => p.text.slice(f.range[0], f.range[1]));
      const red = redactText(p.text, found);
      for (const s of secrets) expect(red).not.toContain(s);
      // overlapping spans (a gcp key file holds a private key) merge into one marker
      expect(found.some((f) => red.includes(`[REDACTED:${f.rule}]`))).toBe(true);
      expect(await scanTexts([{ file: 'handoff.md', text: red }])).toEqual([]);
      expect(await redactionOf(p.text, 'handoff.md', [])).toBe(red);
      // the preview never carries the secret
      for (const f of found) expect(secrets.some((s) => f.preview.includes(s))).toBe(false);
    }
  });
});

describe('secret scanner on bad input', () => {
  const token = 'ghp_' + 'Zq8'.repeat(12);
  it('a 1 MiB body on one line, near-misses only: no finding, no crash; one secret at its end: found', async () => {
    const unit = `sha256:${'ab12'.repeat(16)} 0f3c2a9d7e6b5a4c3d2e1f0a9b8c7d6e5f4a3b2c 123e4567-e89b-42d3-a456-426614174000 data:image/png;base64,iVBORw0KGgo= `;
    const big = unit.repeat(Math.floor((1024 * 1024 - 100) / unit.length));
    expect(await scanTexts([{ file: 'handoff.md', text: big }])).toEqual([]);
    const found = await scanTexts([{ file: 'handoff.md', text: big + token }]);
    expect(found.map((f) => [f.rule, f.line])).toEqual([['github', 1]]);
    expect(found[0].column).toBe(big.length + 1);
  });

  it('binary-ish text (controls, lone high code points, long base64) scans without a crash', async () => {
    const noise = Array.from({ length: 20_000 }, (_, i) => String.fromCharCode(1 + ((i * 7919) % 0x2fff))).join('');
    expect(Array.isArray(await scanTexts([{ file: 'handoff.md', text: noise }]))).toBe(true);
    const found = await scanTexts([{ file: 'handoff.md', text: `${noise}\n${token}\n${noise}` }]);
    expect(found.map((f) => f.rule)).toEqual(['github']);
  });

  it('the aws rule reports the key name with the secret length: the redaction still covers the whole secret', async () => {
    const secret = 'Tq9' + 'x7Lm2Pz4Kw'.repeat(3) + 'R5vN8bQ';
    const text = `aws_secret_access_key = ${secret}\n`;
    const found = await scanTexts([{ file: 'handoff.md', text }]);
    expect(found.map((f) => f.rule)).toEqual(['aws']);
    expect(redactText(text, found)).toBe('[REDACTED:aws]\n');
  });

  it('masks previews: at most 4 leading characters of a long match, only the length of a short one', () => {
    expect(maskPreview('ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('ghp_********… (40 chars)');
    expect(maskPreview('hunter2pw')).toBe('********… (9 chars)');
  });
});

describe('redactionOf (what the hooks recompute)', () => {
  it('replaces every finding but those of the rules the version allowed', async () => {
    const gh = 'ghp_' + 'Vb8'.repeat(12);
    const npm = 'npm_' + 'Nc4'.repeat(12);
    const text = `a ${gh}\nb ${npm}\n`;
    expect(await redactionOf(text, 'handoff.md', [])).toBe('a [REDACTED:github]\nb [REDACTED:npm]\n');
    expect(await redactionOf(text, 'handoff.md', ['npm'])).toBe(`a [REDACTED:github]\nb ${npm}\n`);
    expect(await redactionOf('nothing here', 'handoff.md', [])).toBe('nothing here');
  });
});
