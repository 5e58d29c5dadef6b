// Completion through git's own bash completion: `git handoff <TAB>` offers commands, topics and branches.
import { execa } from 'execa';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, makeRepo } from '../../helpers/repo';

const GIT_COMPLETION = '/usr/share/bash-completion/completions/git';

async function complete(repo: ReturnType<typeof makeRepo>, words: string[]): Promise<string[]> {
  const script = `
source ${GIT_COMPLETION}
eval "$(git-handoff completion bash)"
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})
COMP_CWORD=${words.length - 1}
COMP_LINE="${words.join(' ')}"
COMP_POINT=\${#COMP_LINE}
__git_wrap__git_main
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = await execa('bash', ['-c', script], {
    cwd: repo.dir,
    env: { ...repo.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` },
    extendEnv: false,
  });
  return r.stdout.split('\n').map((s) => s.trim()).filter(Boolean);
}

describe('shell completion', () => {
  it('completes commands, topics of the branch and branch names through git', async () => {
    const repo = makeRepo({ commit: true });
    repo.git(['branch', 'feature/login']);
    await repo.cli(['write', 'auth-refactor', '--session', 's1', '-m', 'x']);
    await repo.cli(['write', 'login-redirect-loop', '--session', 's1', '-m', 'x']);
    expect(await complete(repo, ['git', 'handoff', 'wr'])).toContain('write');
    const topics = await complete(repo, ['git', 'handoff', 'show', '']);
    expect(topics).toEqual(expect.arrayContaining(['auth-refactor', 'login-redirect-loop']));
    expect(await complete(repo, ['git', 'handoff', 'show', 'lo'])).toEqual(['login-redirect-loop']);
    expect(await complete(repo, ['git', 'handoff', 'list', '--branch', 'feat'])).toEqual(['feature/login']);
    // options: the long ones, never yargs's `--C`, `--q`, `--h` for -C, -q, -h, nor --version after a command
    const opts = await complete(repo, ['git', 'handoff', 'list', '--']);
    expect(opts).toEqual(expect.arrayContaining(['--all', '--unread', '--for-me', '--json']));
    for (const bad of ['--C', '--q', '--h', '--version']) expect(opts).not.toContain(bad);
    const zsh = await repo.cli(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/_git-handoff\(\)/);
  });
});
