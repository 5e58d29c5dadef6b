// `git handoff doctor` ends with which protections hold in each client wired here, with this repository's state.
import { describe, expect, it } from 'vitest';
import { json, makeRepo } from '../helpers/repo';

const rowOf = (out: string, client: string) => out.split('\n').find((l) => l.startsWith(`${client} `));

describe('doctor: protections per client', () => {
  it('a repository wired for Claude Code and Zed: their rows (and VS Code\'s agent, which runs that wiring), the git hooks as installed here', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'claude'])).exitCode).toBe(0);
    expect((await repo.cli(['install', '--agent', 'zed'])).exitCode).toBe(0);
    const out = String((await repo.cli(['doctor'])).stdout);
    const section = out.slice(out.indexOf('Protections in the clients wired here'));
    expect(section).toMatch(/^Protections in the clients wired here/);
    expect(section.split('\n')[1]).toMatch(/^CLIENT +GUARD ON EACH TOOL CALL +GIT HOOKS \(COMMIT\/PUSH\/REF CHECKS\) +SERVER CHECK +MCP TOOLS$/);
    expect(rowOf(section, 'claude')).toMatch(/^claude +yes +yes: installed here +no remote +not needed/);
    expect(rowOf(section, 'vscode')).toMatch(/through `install --agent claude`'s wiring +yes: installed here/);
    expect(rowOf(section, 'zed')).toMatch(/^zed +no: only its `handoff_\*` tools are checked +yes: installed here +no remote +yes \(`install --agent zed`\)$/);
    // clients nobody wired here are not in it
    expect(rowOf(section, 'gemini')).toBeUndefined();
    expect(rowOf(section, 'continue')).toBeUndefined();

    // the git hooks removed and a remote added: the table says so
    expect((await repo.cli(['uninstall', '--hooks'])).exitCode).toBe(0);
    repo.git(['remote', 'add', 'origin', 'https://example.invalid/r.git']);
    const after = json(await repo.cli(['doctor', '--json'])).protections;
    expect(after.map((r: any) => r.client)).toEqual(['claude', 'vscode', 'zed']);
    for (const r of after) {
      expect(r['git hooks (commit/push/ref checks)']).toBe('no: not installed here (`git handoff install --hooks`)');
      expect(r['server check']).toBe('unknown from here (`install --server` on the remote)');
    }
  });

  it('no client wired: says how to see every client; --all-clients lists them all', async () => {
    const repo = makeRepo({ commit: true });
    expect(String((await repo.cli(['doctor'])).stdout)).toContain('No agent client is wired here (`git handoff doctor --all-clients` shows what each would have).');
    const all = json(await repo.cli(['doctor', '--all-clients', '--json'])).protections.map((r: any) => r.client);
    expect(all).toEqual(expect.arrayContaining(['claude', 'gemini', 'cline', 'kiro', 'zed', 'claude-desktop', 'continue']));
  });
});
