// "Needs a person" holds only what a person must act on, each entry whole and copyable (SPEC 11, issue 73): doctor's
// own probes are never there; a refused write to a claimed path shows the whole reason (holder, note, expiry, way
// on) in --json and its who and why on the screen; a refused command is shown as the shell reads it back.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { json, makeRepo, ROOT, type TestRepo } from '../helpers/repo';
import { denial, guard, ME, OTHER, payload } from '../guard/helpers';

const refusedCalls = async (repo: TestRepo) => json(await repo.cli(['status', '--json'])).attention.filter((x: { kind: string }) => x.kind === 'refused-call');

describe('needs a person', () => {
  it("doctor's refusal probes are not recorded: status needs nobody after a doctor run", async () => {
    const repo = makeRepo({ commit: true });
    // the hooks' commands find git-handoff on PATH, as at a person's terminal
    const env = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
    expect((await repo.cli(['install', '--agent', 'claude,kiro'], { env })).exitCode).toBe(0);
    const items = json(await repo.cli(['doctor', '--json'], { env })).items;
    // the probes ran and were refused (Kiro's names no session)
    for (const c of ['agent claude', 'agent kiro']) expect(items.find((i: { component: string }) => i.component === c), c).toMatchObject({ status: 'ok', detail: expect.stringContaining('refused') });
    expect(json(await repo.cli(['status', '--json'])).attention).toEqual([]);
    expect(String((await repo.cli(['status'])).stdout)).toContain('Needs a person (0)');
  }, 120_000);

  it('a write refused by a claim: the whole reason in --json, its holder, note and expiry on the screen', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['claim', 'src/auth/', '--session', OTHER, '--note', 'moving login to OAuth'])).exitCode).toBe(0);
    const call = payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, 'src/auth/login.ts'), content: 'x\n' } }, ME);
    expect(denial(await guard(repo, call))).not.toBeNull();
    const [e] = await refusedCalls(repo);
    expect(e.session).toBe(ME);
    expect(e.message).toContain(`src/auth/login.ts is claimed by session ${OTHER}`);
    expect(e.message).toContain('"moving login to OAuth"');
    expect(e.message).toMatch(/until \d{4}-\d\d-\d\dT/);
    expect(e.message).toContain('git handoff claim src/auth/login.ts --take-over --reason');
    const screen = String((await repo.cli(['status'])).stdout);
    const line = screen.split('\n').find((l) => l.includes('tool call refused'))!;
    expect(line).toContain(`claimed by session ${OTHER}`);
    expect(line).toContain('"moving login to OAuth"');
    expect(line).toMatch(/until \d{4}-\d\d-\d\dT/);
  }, 120_000);

  it('a refused command is shown as the session wrote it: pasted into sh, the same words', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'auth-oauth', '-m', 'Goal: OAuth', '--session', 'sess-a'])).exitCode).toBe(0);
    const argv = ['write', 'auth-oauth', '-m', 'Goal: finish OAuth', '-m', "it's $HOME `mine`", '--session', 'sess-b'];
    expect((await repo.cli(argv)).exitCode).toBe(3);
    const [e] = await refusedCalls(repo);
    const shown = e.message.split('\n')[0].replace(/ refused$/, '');
    expect(shown.startsWith('git handoff ')).toBe(true);
    const words = await execa('sh', ['-c', `set -- ${shown.slice('git handoff '.length)}; printf '%s\\0' "$@"`]);
    expect(words.stdout.split('\0').slice(0, -1)).toEqual(argv);
    expect(String((await repo.cli(['status'])).stdout)).toContain(shown);
  }, 120_000);
});
