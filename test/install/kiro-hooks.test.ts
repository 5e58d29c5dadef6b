// Kiro CLI 3 reads the standalone hook files `.kiro/hooks/<name>.json` for every agent of the workspace (the default
// one included): install writes git-handoff's there beside the agent file CLI 2 reads, the guard judges Kiro's payload
// arriving through it, and uninstall gives the worktree back byte for byte.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { foreignWorld, FOREIGN_FILE } from '../guard/world';
import { ROOT, type TestRepo } from '../helpers/repo';
import { tree } from '../helpers/tree';
import { payload } from '../guard/helpers';

const onPath = (repo: TestRepo) => ({ ...repo.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` });
const fixture = (name: string) => JSON.parse(readFileSync(path.join(ROOT, 'fixtures', 'hook-payloads', 'kiro', name), 'utf8'));

describe('install --agent kiro: CLI 3 standalone hook file', () => {
  it('wires the guard before every tool for every agent, refuses a write of another session\'s handoff file through it, and uninstall leaves nothing', async () => {
    const repo = await foreignWorld();
    mkdirSync(path.join(repo.dir, '.kiro', 'hooks'), { recursive: true });
    writeFileSync(path.join(repo.dir, '.kiro', 'hooks', 'lint.json'), '{"version":"v1","hooks":[]}\n');
    const before = tree(repo.dir);
    const r = await repo.cli(['install', '--agent', 'kiro', '--no-hooks'], { env: onPath(repo) });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const file = JSON.parse(readFileSync(path.join(repo.dir, '.kiro/hooks/git-handoff.json'), 'utf8'));
    expect(file).toEqual({ version: 'v1', hooks: [{ name: 'git-handoff-guard', trigger: 'PreToolUse', matcher: '*', action: { type: 'command', command: 'git-handoff guard --client=kiro' }, timeout: 30 }] });
    // the agent file CLI 2 reads stays wired too
    expect(existsSync(path.join(repo.dir, '.kiro/agents/git-handoff.json'))).toBe(true);

    // Kiro runs the command with its payload on stdin; CLI 3 names the event by its trigger
    const run = (p: unknown) => spawnSync('sh', ['-c', file.hooks[0].action.command], { cwd: repo.dir, env: onPath(repo), input: JSON.stringify(p), encoding: 'utf8' });
    const write = (rel: string) => ({ ...fixture('cli-pre-tool-use-fs-write-create.json'), hook_event_name: 'PreToolUse', cwd: repo.dir, tool_input: { command: 'create', path: path.join(repo.dir, rel), file_text: 'mine\n' } });
    const refused = run(write(FOREIGN_FILE));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(FOREIGN_FILE);
    const allowed = run(write('src/new.ts'));
    expect(allowed.status, allowed.stderr).toBe(0);

    // a session may not unwire it: the guard's hook edited out of the file is refused (the perimeter holds .kiro/hooks)
    const edit = payload(repo, 'claude-code/pre-tool-use-write.json', { tool_name: 'Write', tool_input: { file_path: path.join(repo.dir, '.kiro/hooks/git-handoff.json'), content: '{"version":"v1","hooks":[]}\n' } });
    const g = await repo.cli(['guard', '--client=claude-code'], { input: JSON.stringify(edit) });
    expect(JSON.parse(String(g.stdout) || '{}').hookSpecificOutput?.permissionDecision).toBe('deny');

    const u = await repo.cli(['uninstall', '--agent', 'kiro'], { env: onPath(repo) });
    expect(u.exitCode, String(u.stderr)).toBe(0);
    expect(tree(repo.dir)).toEqual(before);
  });
});
