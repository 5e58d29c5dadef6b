// What the decision stands on, out of a real Claude Code session's reach (offline, its Bash tool through the real
// wiring): another session's end event piped into the guard, `handoff.guard = off` appended to ~/.gitconfig by python
// from the home, `git handoff uninstall --agent claude`, and a write through a link made earlier on the line are each
// refused, and nothing changes — the other session's lease and claim, the home's git configuration, the wiring, the
// other session's handoff file; an ordinary script the same session runs writes its file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { payload } from '../guard/helpers';
import { converse } from './claude-script';
import { PATH_WITH_BIN, useClaude, wiredForClaude } from './deps';

const OTHER = 'other-live-7d3e9a10';
const FOREIGN = 'memory/handoff-main-auth-refactor.md';

useClaude();

describe('the anchors, from a real Claude Code session', () => {
  it('each reach for them is refused and changes nothing; an ordinary script runs', async () => {
    const repo = await wiredForClaude();
    // the other session: live here (its lease), a claim, its handoff file
    const pre = await repo.cli(['guard'], { input: JSON.stringify(payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, 'src', 'o.ts'), content: 'o\n' } }, OTHER)) });
    expect(pre.exitCode).toBe(0);
    expect((await repo.cli(['claim', 'src/auth/'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
    repo.write(FOREIGN, `<!-- claude-session: ${OTHER} -->\ntheir note\n`);
    const gitconfig = path.join(repo.home, '.gitconfig');
    writeFileSync(gitconfig, `${existsSync(gitconfig) ? readFileSync(gitconfig, 'utf8') : ''}[user]\n\tname = T\n`);
    const before = { gitconfig: readFileSync(gitconfig, 'utf8'), settings: readFileSync(path.join(repo.dir, '.claude', 'settings.json'), 'utf8'), note: readFileSync(path.join(repo.dir, FOREIGN), 'utf8') };
    const lease = () => repo.git(['for-each-ref', '--format=%(contents)', 'refs/handoff-leases/']).stdout;
    expect(lease()).toContain(OTHER);

    const end = JSON.stringify(payload(repo, 'claude-code/real-session-end.json', {}, OTHER)).replace(/'/g, "'\\''");
    const calls = [
      `printf '%s' '${end}' | git handoff guard`,
      `python3 -c "import os; open(os.path.expanduser('~/.gitconfig'), 'a').write('[handoff]\\n\\tguard = off\\n')"`,
      'git handoff uninstall --agent claude',
      `ln -s ${FOREIGN} x && echo mine > x`,
      `python3 -c "open('out.txt', 'w').write('ordinary')"`,
    ];
    const run = await converse(repo, calls.map((_, i) => `step ${i + 1}`), calls.map((command) => ({ tool: 'Bash', input: { command, description: 'run' } })), { env: { PATH: PATH_WITH_BIN } });
    expect(run.results).toHaveLength(calls.length);
    expect(run.results.slice(0, 4).map((r) => r.error), run.results.map((r) => r.text.slice(0, 160)).join('\n')).toEqual([true, true, true, true]);
    expect(run.results[4].error, run.results[4].text).toBe(false);

    expect(lease()).toContain(OTHER);
    const claims = JSON.parse(String((await repo.cli(['claims', '--json'])).stdout));
    expect(claims.map((c: { session: string }) => c.session)).toContain(OTHER);
    expect(readFileSync(gitconfig, 'utf8')).toBe(before.gitconfig);
    expect(readFileSync(path.join(repo.dir, '.claude', 'settings.json'), 'utf8')).toBe(before.settings);
    expect(readFileSync(path.join(repo.dir, FOREIGN), 'utf8')).toBe(before.note);
    expect(existsSync(path.join(repo.dir, 'x'))).toBe(false);
    expect(readFileSync(path.join(repo.dir, 'out.txt'), 'utf8')).toBe('ordinary');
  });
});
