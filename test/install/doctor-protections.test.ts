// `git handoff doctor` ends with which protections hold in each client wired here, with this repository's state.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, ROOT } from '../helpers/repo';

// the wired commands found where a client finds them, so doctor's probes through them answer
const onPath = { env: { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` } };

const rowOf = (out: string, client: string) => out.split('\n').find((l) => l.startsWith(`${client} `));

describe('doctor: protections per client', () => {
  it('a repository wired for Claude Code and Zed: their rows (and VS Code\'s agent, which runs that wiring), the git hooks as installed here', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'claude'])).exitCode).toBe(0);
    expect((await repo.cli(['install', '--agent', 'zed'])).exitCode).toBe(0);
    const out = String((await repo.cli(['doctor'], onPath)).stdout);
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
    const after = json(await repo.cli(['doctor', '--json'], onPath)).protections;
    expect(after.map((r: any) => r.client)).toEqual(['claude', 'vscode', 'zed']);
    for (const r of after) {
      expect(r['git hooks (commit/push/ref checks)']).toBe('no: not installed here (`git handoff install --hooks`)');
      expect(r['server check']).toBe('unknown from here (`install --server` on the remote)');
    }
  });

  it('no client wired: says how to see every client; --all-clients lists them all', async () => {
    const repo = makeRepo({ commit: true });
    expect(String((await repo.cli(['doctor'])).stdout)).toContain('No agent client is wired here (`git handoff doctor --all-clients` shows what each would have).');
    const all = json(await repo.cli(['doctor', '--all-clients', '--json'])).protections;
    expect(all.map((r: any) => r.client)).toEqual(expect.arrayContaining(['claude', 'gemini', 'vscode', 'cline', 'kiro', 'zed', 'claude-desktop', 'continue']));
    const cell = (client: string, column: string) => all.find((r: any) => r.client === client)[column];
    expect(cell('gemini', 'guard on each tool call')).toBe('not wired here (`install --agent gemini`)');
    expect(cell('vscode', 'guard on each tool call')).toBe('not wired here (`install --agent claude`)');
    expect(cell('zed', 'MCP tools')).toBe('not wired here (`install --agent zed`)');
  });

  it('a client whose wiring doctor finds broken here (Codex, not yet trusted), and the guard switched off: the guard column says so', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'codex'])).exitCode).toBe(0);
    const guard = async () => json(await repo.cli(['doctor', '--json'], onPath)).protections.find((r: any) => r.client === 'codex')['guard on each tool call'];
    expect(await guard()).toBe('no, not here: see the `agent codex` rows above');
    repo.git(['config', 'handoff.guard', 'off']);
    expect(await guard()).toBe('off here (git config handoff.guard off)');
  });
});
