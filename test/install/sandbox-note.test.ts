// What `install --agent claude` says of the sandbox entries it adds: git-handoff's own paths by name, the clients'
// wiring by count (the settings file lists them), in lines a terminal keeps whole.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';

describe('install --agent claude: the sandbox note', () => {
  it('names .git/handoff and memory, counts the rest as denyWrite holds them; no line of the report is over 100 characters', async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['install', '--agent', 'claude']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const out = String(r.stdout);
    const denied: string[] = JSON.parse(readFileSync(path.join(repo.dir, '.claude', 'settings.json'), 'utf8')).sandbox.filesystem.denyWrite;
    const note = out.slice(out.indexOf('.claude/settings.json: its sandbox')).split('\n').slice(0, 3);
    expect(note).toEqual([
      '.claude/settings.json: its sandbox (when on) keeps .git/handoff and memory read-only too,',
      `  and the ${denied.length - 2} paths of every client's wiring (listed in its sandbox.filesystem.denyWrite);`,
      '  git handoff doctor says whether the sandbox is on',
    ]);
    expect(denied).toEqual(expect.arrayContaining(['.git/handoff', 'memory', '.codex/hooks.json']));
    // the whole report fits a terminal of 100 columns
    for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
  });
});
