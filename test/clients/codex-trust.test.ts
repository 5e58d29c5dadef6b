// Codex skips untrusted hooks silently: doctor computes each hook's trust hash as Codex does and reports
// untrusted or modified git-handoff hooks, an untrusted project, and git-handoff missing from a login shell.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexHookHash } from '../../src/clients/codex-trust';
import { json, makeRepo, ROOT, type TestRepo } from '../helpers/repo';

/** Trusts the project and every hook of .codex/hooks.json in the test HOME's ~/.codex/config.toml, as /hooks does. */
function trustAll(repo: TestRepo, dir = repo.dir): void {
  const hooks = JSON.parse(readFileSync(path.join(repo.dir, '.codex', 'hooks.json'), 'utf8')).hooks;
  const snake = (e: string) => e.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
  let toml = `[projects."${dir}"]\ntrust_level = "trusted"\n`;
  for (const [event, groups] of Object.entries<any[]>(hooks)) {
    groups.forEach((g, gi) =>
      g.hooks.forEach((h: any, hi: number) => {
        toml += `\n[hooks.state."${path.join(dir, '.codex', 'hooks.json')}:${snake(event)}:${gi}:${hi}"]\ntrusted_hash = "${codexHookHash(event, g.matcher, h)}"\n`;
      }),
    );
  }
  mkdirSync(path.join(repo.home, '.codex'), { recursive: true });
  writeFileSync(path.join(repo.home, '.codex', 'config.toml'), toml);
}

const item = (r: any, component: string) => json(r).items.find((i: any) => i.component === component);

describe('codex trust hash', () => {
  it('is the hash the real Codex 0.169.0 gave these hooks (hooks/list currentHash)', () => {
    const command = 'cat >> /tmp/cx1-payloads.jsonl; echo >> /tmp/cx1-payloads.jsonl';
    expect(codexHookHash('PreToolUse', '', { type: 'command', command, timeout: 30 } as any)).toBe('sha256:c76d7c48c01782d09dc9665cff4150fc8a75cbeb8b051ff3af0fabcabc13d5e0');
    expect(codexHookHash('SessionStart', undefined, { command, timeout: 30 })).toBe('sha256:2a3f5f8f8177714d0a393add426c7903d831277701b0f585ac8fd343c46fbc48');
    // Stop keeps no matcher in Codex's identity
    expect(codexHookHash('Stop', 'anything', { command, timeout: 30 })).toBe('sha256:00ff4f92ba54b27dee3424478a5d42fdff863505b71f35cba31e291df7303e49');
  });
});

describe('doctor with Codex wired', () => {
  it('reports untrusted hooks and project as broken with the fix, exit 1; ok once trusted; modified after an edit', async () => {
    const repo = makeRepo({ commit: true });
    const install = await repo.cli(['install', '--agent', 'codex']);
    // before Codex ever ran here it will skip every hook until trusted: broken with the step (issue 23), not information
    expect(item(await repo.cli(['doctor', '--json']), 'agent codex trust')).toMatchObject({ status: 'broken', detail: expect.stringContaining('/hooks') });
    mkdirSync(path.join(repo.home, '.codex'));
    expect(install.stdout).toContain('/hooks');
    const before = await repo.cli(['doctor', '--json']);
    expect(before.exitCode).toBe(1);
    const untrusted = item(before, 'agent codex trust');
    expect(untrusted.status).toBe('broken');
    expect(untrusted.detail).toContain('not trusted');
    expect(untrusted.detail).toContain('PreToolUse');
    expect(untrusted.detail).toContain('/hooks');
    expect((await repo.cli(['doctor'])).stdout).toMatch(/agent codex trust\s+broken/);

    trustAll(repo);
    writeFileSync(path.join(repo.home, '.profile'), `export PATH="${path.join(ROOT, 'bin')}:$PATH"\n`);
    const trusted = await repo.cli(['doctor', '--json']);
    expect(item(trusted, 'agent codex trust').status).toBe('ok');
    expect(item(trusted, 'agent codex PATH').status).toBe('ok');

    const file = path.join(repo.dir, '.codex', 'hooks.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"timeout": 30', '"timeout": 31'));
    const edited = await repo.cli(['doctor', '--json']);
    expect(edited.exitCode).toBe(1);
    expect(item(edited, 'agent codex trust').detail).toContain('changed since they were trusted: PreToolUse');
  });

  it('reports git-handoff missing from a login shell, with the line to add', async () => {
    const repo = makeRepo({ commit: true });
    await repo.cli(['install', '--agent', 'codex']);
    trustAll(repo);
    writeFileSync(path.join(repo.home, '.profile'), 'export PATH=/usr/bin:/bin\n');
    const r = await repo.cli(['doctor', '--json'], { env: { SHELL: '/bin/bash' } });
    expect(r.exitCode).toBe(1);
    const p = item(r, 'agent codex PATH');
    expect(p.status).toBe('broken');
    expect(p.detail).toContain("-lc 'command -v git-handoff'");
    expect(p.detail).toContain('export PATH=');
  });
});
