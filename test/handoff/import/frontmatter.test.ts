// Import of markdown handoffs with YAML frontmatter (issue 18): fields become trailers, `from` is kept, and a
// given handoff_id (sha256 of the RFC 8785 canonical JSON of the other fields and the body) is checked.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, refOf } from '../../helpers/repo';
import { ok } from '../../sync/world';

const BODY = '# Goal\nShip the release — café ✓\n\n# Next action\nTag v1.2\n';
const FIELDS = {
  schema_version: 1,
  from: 'claude-code:sess-old',
  to: ['codex', 'role:reviewer', 'ops@example.com'],
  topic: 'release-plan',
  ts_utc: '2026-11-20T09:30:00Z',
  references: ['docs/release.md', 'https://example.com/run/7'],
  tags: ['release'],
};

/** The oracle, independent of the library: keys sorted by code unit, JSON.stringify's string escaping (RFC 8785 §3.2). */
function expectedId(fields: Record<string, unknown>, body: string): string {
  const all: Record<string, unknown> = { ...fields, body };
  const sorted = Object.fromEntries(Object.keys(all).sort().map((k) => [k, all[k]]));
  return `sha256:${createHash('sha256').update(JSON.stringify(sorted), 'utf8').digest('hex')}`;
}

function fileWith(dir: string, id: string | null, body = BODY): string {
  const yaml = [
    'schema_version: 1',
    'from: claude-code:sess-old',
    'to:',
    '  - codex',
    '  - role:reviewer',
    '  - ops@example.com',
    'topic: release-plan',
    'ts_utc: 2026-11-20T09:30:00Z',
    'references: [docs/release.md, "https://example.com/run/7"]',
    'tags: [release]',
    ...(id ? [`handoff_id: "${id}"`] : []),
  ].join('\n');
  const file = path.join(dir, 'handoff.md');
  writeFileSync(file, `---\n${yaml}\n---\n${body}`);
  return file;
}

describe('import of a frontmatter handoff', () => {
  it('a good handoff_id imports: to, tags and references become trailers, from is kept as Handoff-Imported-From', async () => {
    const repo = makeRepo({ commit: true });
    const file = fileWith(repo.home, expectedId(FIELDS, BODY));
    await ok(repo, ['import', file, '--session', 'sess-new']);
    const v = json(await ok(repo, ['show', 'release-plan', '--json', '--no-receipt']));
    expect(v.body).toBe(BODY);
    expect(v.session).toBe('sess-new');
    expect(v.to).toEqual(['client:codex', 'role:reviewer', 'person:ops@example.com']);
    expect(v.tags).toEqual(['release']);
    expect(v.refs).toEqual(['docs/release.md', 'https://example.com/run/7']);
    expect(v.importedFrom).toBe('claude-code:sess-old');
    expect(repo.git(['log', '-1', '--format=%B', 'refs/handoffs/main/release-plan']).stdout).toMatch(/^Handoff-Imported-From: claude-code:sess-old$/m);
    // importing again is harmless
    expect(json(await ok(repo, ['import', file, '--session', 'sess-new', '--json']))[0].status).toBe('unchanged');
  });

  it('a file without handoff_id imports too (nothing to check); --person owns it as the person', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['import', fileWith(repo.home, null), '--person']);
    expect(json(await ok(repo, ['list', '--json']))[0].session).toBe('person:test@example.com');
  });

  it('a wrong handoff_id (one changed character in the body, or in a field) exits 6 and writes nothing', async () => {
    const repo = makeRepo({ commit: true });
    const good = expectedId(FIELDS, BODY);
    for (const file of [fileWith(repo.home, good, BODY.replace('v1.2', 'v1.3')), fileWith(repo.home, expectedId({ ...FIELDS, tags: ['other'] }, BODY))]) {
      const r = await repo.cli(['import', file, '--session', 'sess-new']);
      expect(r.exitCode).toBe(6);
      expect(String(r.stderr)).toMatch(/handoff_id sha256:[0-9a-f]{64} does not match its content \(computed sha256:[0-9a-f]{64}\).*nothing was imported/);
      expect(refOf(repo, 'refs/handoffs/main/release-plan')).toBeNull();
    }
    // bad fields are exit 2
    writeFileSync(path.join(repo.home, 'x.md'), '---\nfrom: a\n---\nbody\n');
    expect((await repo.cli(['import', path.join(repo.home, 'x.md'), '--session', 's'])).exitCode).toBe(2);
    expect(repo.git(['for-each-ref', 'refs/handoffs/']).stdout).toBe('');
  });
});
