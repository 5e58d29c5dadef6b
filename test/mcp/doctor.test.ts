// `doctor` starts the server each wired MCP client's entry runs, exactly as written there, and asks it for its tools:
// a row per client, ok with the tools it listed, or broken with why and the fix.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, ROOT } from '../helpers/repo';

// `git-handoff` found where a client finds it
const onPath = { env: { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` } };

const rowOf = (out: unknown, component: string) => String(out).split('\n').find((l) => l.startsWith(`${component} `));

describe('doctor: the MCP clients wired here', () => {
  it('zed: the server its entry starts answers with its tools; a command that is not there is a broken row with the fix', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'zed'])).exitCode).toBe(0);
    const ok = await repo.cli(['doctor'], onPath);
    expect(rowOf(ok.stdout, 'agent zed')).toMatch(/^agent zed +ok +.*settings\.json: `git-handoff -C .* mcp` answered MCP with its tools: handoff_begin, .*handoff_status/);
    expect(json(await repo.cli(['doctor', '--json'], onPath)).protections.find((r: any) => r.client === 'zed')['MCP tools']).toBe('yes (`install --agent zed`)');

    const file = path.join(repo.home, '.config', 'zed', 'settings.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"command":"git-handoff"', '"command":"/nonexistent/git-handoff"'));
    const broken = await repo.cli(['doctor'], onPath);
    expect(broken.exitCode).toBe(1);
    const row = rowOf(broken.stdout, 'agent zed');
    expect(row).toMatch(/^agent zed +broken +/);
    expect(row).toContain('`/nonexistent/git-handoff -C');
    expect(row).toContain('did not start: /nonexistent/git-handoff not found');
    expect(row).toContain('git handoff install --agent zed --launcher');
    expect(json(await repo.cli(['doctor', '--json'], onPath)).protections.find((r: any) => r.client === 'zed')['MCP tools']).toBe('no, not here: see the `agent zed` rows above');
  });

  it('continue: its own YAML file read back; junie: an entry that serves another repository is broken, one gone is missing', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--agent', 'continue,junie'])).exitCode).toBe(0);
    const ok = await repo.cli(['doctor'], onPath);
    expect(rowOf(ok.stdout, 'agent continue')).toMatch(/^agent continue +ok +.*git-handoff\.yaml: `git-handoff -C .* mcp` answered MCP with its tools: handoff_begin/);
    expect(rowOf(ok.stdout, 'agent junie')).toMatch(/^agent junie +ok +.*mcp\.json: /);

    const file = path.join(repo.dir, '.junie', 'mcp', 'mcp.json');
    const text = readFileSync(file, 'utf8');
    // the repository named elsewhere in the file, the entry running another one
    writeFileSync(file, text.replace(JSON.stringify(repo.dir), '"/elsewhere"').replace('{', `{\n  "note": ${JSON.stringify(repo.dir)},`));
    const foreign = await repo.cli(['doctor'], onPath);
    expect(foreign.exitCode).toBe(1);
    expect(rowOf(foreign.stdout, 'agent junie')).toMatch(/^agent junie +broken +.*mcp\.json: its "git-handoff" entry does not run this repository's server .*\/elsewhere.*run `git handoff install --agent junie` again/);

    writeFileSync(file, text.replace('"mcpServers"', '"otherServers"'));
    expect(rowOf((await repo.cli(['doctor'], onPath)).stdout, 'agent junie')).toMatch(/^agent junie +missing +.*mcp\.json has no entry of the MCP server "git-handoff" \(git handoff install --agent junie\)/);
  });
});
