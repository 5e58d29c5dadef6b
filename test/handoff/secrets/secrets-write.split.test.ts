// write and import refuse a secret (exit 2, nothing written, never echoed), or redact / allow it on the record.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { quickDescribe, slowDescribe } from '../../helpers/sets';
import { scanTexts } from '../../../src/handoff/secrets/secrets';
import { json, makeRepo, refOf, ROOT, type TestRepo } from '../../helpers/repo';
import { secretsIn, touchedFiles } from './helpers';

const PLANTED = path.join(ROOT, 'fixtures', 'secrets', 'planted');
/** One planted body per rule of the preset, with the secret values scanned out of it. */
async function onePerRule(): Promise<Array<{ rule: string; file: string; body: string; secrets: string[] }>> {
  const out = new Map<string, { rule: string; file: string; body: string; secrets: string[] }>();
  for (const f of readdirSync(PLANTED).sort()) {
    const rule = f.replace(/^\d+-/, '').replace(/\.md$/, '');
    if (rule.includes('+') || out.has(rule)) continue;
    const body = readFileSync(path.join(PLANTED, f), 'utf8');
    out.set(rule, { rule, file: path.join(PLANTED, f), body, secrets: await secretsIn(body) });
  }
  return [...out.values()];
}

const SESSION = 'sess-a';
const topicOf = (rule: string) => `leak-${rule.replace(/[^a-z0-9]+/g, '-')}`;

/** Every object in the repository, as text: a refused write must have stored no blob with the secret. */
const allObjects = (repo: TestRepo) => repo.git(['cat-file', '--batch-all-objects', '--batch'], { allowFail: true }).stdout;

quickDescribe('write refuses a secret', () => {
  it('each rule of the preset: exit 2, rule, line and column named, nothing written, the secret on no output', async () => {
    const repo = makeRepo({ commit: true });
    const cases = await onePerRule();
    expect(cases.length).toBe(24);
    const outputs: string[] = [];
    for (const c of cases) {
      const r = await repo.cli(['write', topicOf(c.rule), '-F', c.file, '--session', SESSION]);
      outputs.push(String(r.stdout), String(r.stderr));
      expect(r.exitCode, `${c.rule}: ${r.stderr}`).toBe(2);
      expect(String(r.stderr)).toMatch(new RegExp(`handoff\\.md:\\d+:\\d+  ${c.rule} \\(`));
      expect(String(r.stderr)).toContain('nothing was written');
      expect(refOf(repo, `refs/handoffs/main/${topicOf(c.rule)}`)).toBeNull();
    }
    const seen = [...outputs, allObjects(repo), ...touchedFiles(repo)].join('\n');
    for (const c of cases) for (const s of c.secrets) expect(seen.includes(s), `${c.rule} secret leaked`).toBe(false);
  });

  it('--json: error code secret-found with rule, line, column and a masked preview; -m, stdin and --template alike', async () => {
    const repo = makeRepo({ commit: true });
    const token = 'ghp_' + 'Q7w'.repeat(12);
    const body = `# notes\n\nthe curl printed ${token}\n`;
    const r = await repo.cli(['write', 'leak-json', '-m', body, '--session', SESSION, '--json']);
    expect(r.exitCode).toBe(2);
    const err = json(r).error;
    expect(err.code).toBe('secret-found');
    expect(err.data.findings).toEqual([{ rule: 'github', messageId: 'GITHUB_TOKEN', file: 'handoff.md', line: 3, column: 18, preview: 'ghp_********… (40 chars)' }]);
    expect(String(r.stdout)).not.toContain(token);
    const stdin = await repo.cli(['write', 'leak-json', '-F', '-', '--session', SESSION], { input: body });
    expect(stdin.exitCode).toBe(2);
    const template = await repo.cli(['write', 'leak-json', '--template', '-m', `## Goal\n${body}`, '--session', SESSION]);
    expect(template.exitCode).toBe(2);
    const takeover = await repo.cli(['write', 'leak-json', '-m', 'clean', '--session', SESSION]);
    expect(takeover.exitCode).toBe(0);
    const taken = await repo.cli(['write', 'leak-json', '-m', body, '--session', 'sess-b', '--take-over', '--reason', 'gone']);
    expect(taken.exitCode).toBe(2);
    const inReason = await repo.cli(['write', 'leak-json', '-m', 'clean', '--session', 'sess-b', '--take-over', '--reason', `owner gone, used ${token}`, '--json']);
    expect(inReason.exitCode).toBe(2);
    expect(json(inReason).error.data.findings.map((f: { file: string }) => f.file)).toEqual(['reason']);
    await repo.cli(['write', 'leak-json', '-m', 'clean', '--session', 'sess-b', '--take-over', '--reason', `owner gone, used ${token}`, '--redact']);
    expect(repo.git(['log', '-1', '--format=%B', 'refs/handoffs/main/leak-json']).stdout).toContain('Handoff-Reason: owner gone, used [REDACTED:github]');
    expect(allObjects(repo)).not.toContain(token);
  });

  it('a secret in state.json (a dirty file named like a token) refuses too', async () => {
    const repo = makeRepo({ commit: true });
    const token = 'glpat-' + 'Zr4k9'.repeat(5);
    repo.write(`notes-${token}.txt`, 'x');
    const r = await repo.cli(['write', 'state-leak', '-m', 'clean body', '--session', SESSION, '--json']);
    expect(r.exitCode).toBe(2);
    expect(json(r).error.data.findings.map((f: { file: string; rule: string }) => [f.file, f.rule])).toEqual([['state.json', 'gitlab']]);
  });

  it('near-misses are written: UUIDs, oids, sha256 digests, base64 images, the documented example keys', async () => {
    const repo = makeRepo({ commit: true });
    const clean = path.join(ROOT, 'fixtures', 'secrets', 'clean');
    for (const f of readdirSync(clean).slice(0, 5)) {
      const r = await repo.cli(['write', 'near-misses', '-F', path.join(clean, f), '--session', SESSION]);
      expect(r.exitCode, String(r.stderr)).toBe(0);
    }
  });
});

quickDescribe('bad input through write', () => {
  it('a 1 MiB one-line body of near-misses is written; binary-ish text is written or refused for what it is, never a crash', async () => {
    const repo = makeRepo({ commit: true });
    const unit = `sha256:${'9f'.repeat(32)} ${'e3b0c442'.repeat(5)} 123e4567-e89b-42d3-a456-426614174000 AKIAIOSFODNN7EXAMPLE `;
    const big = unit.repeat(Math.floor((1024 * 1024 - 64) / unit.length));
    const r = await repo.cli(['write', 'big-notes', '-F', '-', '--session', SESSION], { input: big });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const noise = Array.from({ length: 50_000 }, (_, i) => String.fromCharCode(1 + ((i * 7919) % 0x2fff))).join('').replace(/\0/g, '');
    const b = await repo.cli(['write', 'noise-notes', '-F', '-', '--session', SESSION], { input: noise });
    expect(b.exitCode, String(b.stderr)).toBe(0);
    const nul = await repo.cli(['write', 'noise-notes', '-F', '-', '--session', SESSION, '--json'], { input: 'a\0b' });
    expect(json(nul).error.code).toBe('body-binary');
  });
});

quickDescribe('--redact and --allow-secret', () => {
  it('--redact stores [REDACTED:<rule>], says how many, and records the scan and the redaction', async () => {
    const repo = makeRepo({ commit: true });
    const gh = 'ghp_' + 'Lm3'.repeat(12);
    const slack = 'xoxb-123456789012-1234567890123-' + 'Ab9'.repeat(8);
    const r = await repo.cli(['write', 'redacted-notes', '-m', `token ${gh}\nand ${slack}`, '--session', SESSION, '--redact']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stderr)).toContain('redacted 2 secrets');
    const ref = 'refs/handoffs/main/redacted-notes';
    expect(repo.git(['show', `${ref}:handoff.md`]).stdout).toBe('token [REDACTED:github]\nand [REDACTED:slack]\n');
    const msg = repo.git(['log', '-1', '--format=%B', ref]).stdout;
    expect(msg).toMatch(/^Handoff-Scanned: secretlint-preset-recommend@\d+\.\d+\.\d+ proof=[0-9a-f]{64}$/m);
    expect(msg).toMatch(/^Handoff-Redacted: 2 \(github, slack\)$/m);
    expect(allObjects(repo)).not.toContain(gh);
    expect(allObjects(repo)).not.toContain(slack);
  });

  it('--allow-secret <rule> writes it with a trailer and an audit line (masked), doctor lists it; other rules still refuse', async () => {
    const repo = makeRepo({ commit: true });
    const gh = 'ghp_' + 'Tk5'.repeat(12);
    const npm = 'npm_' + 'Yu7'.repeat(12);
    const refused = await repo.cli(['write', 'allowed-notes', '-m', `fixture ${gh}\n${npm}`, '--session', SESSION, '--allow-secret', 'github']);
    expect(refused.exitCode).toBe(2);
    expect(String(refused.stderr)).toMatch(/ npm \(/);
    expect(String(refused.stderr)).not.toMatch(/ github \(/);
    const bad = await repo.cli(['write', 'allowed-notes', '-m', 'x', '--session', SESSION, '--allow-secret', 'githb']);
    expect(bad.exitCode).toBe(2);
    expect(json(await repo.cli(['write', 'allowed-notes', '-m', 'x', '--session', SESSION, '--allow-secret', 'githb', '--json'])).error.code).toBe('unknown-secret-rule');
    const ok = await repo.cli(['write', 'allowed-notes', '-m', `fixture ${gh}\n${npm}`, '--session', SESSION, '--allow-secret', 'github', '--allow-secret', '@secretlint/secretlint-rule-npm']);
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    const ref = 'refs/handoffs/main/allowed-notes';
    const msg = repo.git(['log', '-1', '--format=%B', ref]).stdout;
    expect(msg).toMatch(/^Handoff-Allowed-Secret: github$/m);
    expect(msg).toMatch(/^Handoff-Allowed-Secret: npm$/m);
    const audit = readFileSync(path.join(repo.dir, '.git', 'handoff', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ source: 'write', event: 'allow-secret', ref, session: SESSION, rules: ['github', 'npm'] });
    const doctor = await repo.cli(['doctor', '--json']);
    const items = json(doctor).items.filter((i: { component: string }) => i.component === 'secrets');
    expect(items).toEqual([{ component: 'secrets', status: 'info', detail: expect.stringContaining(`${ref} version ${refOf(repo, ref)!.slice(0, 12)} carries findings allowed with --allow-secret: github,npm`) }]);
    // the secret itself is in the body, on the record, and nowhere else: not in the audit, doctor or any output
    const elsewhere = [String(refused.stdout), String(refused.stderr), String(ok.stdout), String(ok.stderr), String(doctor.stdout), ...touchedFiles(repo)].join('\n');
    expect(elsewhere).not.toContain(gh);
    expect(elsewhere).not.toContain(npm);
  });
});

slowDescribe('import scans every file first', () => {
  it('each rule of the preset refused on import: exit 2, every file named, nothing imported; --redact imports them redacted', async () => {
    const repo = makeRepo({ commit: true });
    const cases = await onePerRule();
    const dir = path.join(repo.dir, 'memory');
    mkdirSync(dir);
    for (const c of cases) writeFileSync(path.join(dir, `handoff-main-${topicOf(c.rule)}.md`), `<!-- claude-session: ${SESSION} -->\n${c.body}`);
    const r = await repo.cli(['import', 'memory', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(2);
    const err = json(r).error;
    expect(err.code).toBe('secret-found');
    const rules = new Set(err.data.findings.map((f: { rule: string }) => f.rule));
    for (const c of cases) expect(rules.has(c.rule), c.rule).toBe(true);
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
    const text = await repo.cli(['import', 'memory']);
    const red = await repo.cli(['import', 'memory', '--redact']);
    expect(red.exitCode, String(red.stderr)).toBe(0);
    expect(String(red.stderr)).toMatch(/redacted \d+ secrets/);
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout.trim().split('\n')).toHaveLength(cases.length);
    for (const c of cases) {
      const stored = repo.git(['show', `refs/handoffs/main/${topicOf(c.rule)}:handoff.md`]).stdout;
      expect(await scanTexts([{ file: 'handoff.md', text: stored }])).toEqual([]);
    }
    const seen = [String(r.stdout), String(text.stdout), String(text.stderr), String(red.stdout), String(red.stderr), allObjects(repo), ...touchedFiles(repo, ['memory'])].join('\n');
    for (const c of cases) for (const s of c.secrets) expect(seen.includes(s), `${c.rule} leaked`).toBe(false);
  });
});

quickDescribe('only the paths that scan load the scanner', () => {
  it('write loads dist/secrets.cjs when a rule\'s keyword occurs (not for a body none can match); show, list and the guard never do, and no other bundle carries its rules', async () => {
    const repo = makeRepo({ commit: true });
    const loads = async (args: string[], input = '') => String((await repo.cli(args, { input, env: { NODE_DEBUG: 'module', GIT_HANDOFF_SESSION: SESSION } })).stderr).includes('secrets.cjs');
    expect(await loads(['write', 'load-check', '-m', 'hello'])).toBe(false);
    expect(await loads(['write', 'load-check', '-m', 'the Secret stays in the vault'])).toBe(true);
    expect(await loads(['write', 'load-check', '-m', 'see https://ci.example.org/run/7'])).toBe(true);
    expect(await loads(['show', 'load-check'])).toBe(false);
    expect(await loads(['list'])).toBe(false);
    expect(await loads(['guard'], JSON.stringify({ session_id: SESSION, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: repo.dir }))).toBe(false);
    for (const b of ['cli.cjs', 'fast.cjs', 'guard.cjs']) expect(readFileSync(path.join(ROOT, 'dist', b), 'utf8')).not.toContain('GITHUB_TOKEN');
  });
});
