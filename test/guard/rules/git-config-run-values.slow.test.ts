// Issue 24: commands hidden in configuration values and environment variables. A value git (or another program)
// runs as a command is read as `sh -c '<value>'` would be and judged as if written bare: the lead's bypasses and
// spellings of our own are refused in every client's payload shape; the harmless look-alikes stay allowed.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { foreignWorld, ME, SHELL_CLIENTS } from '../world';
import { ROOT, tempDir } from '../../helpers/repo';
import { denial, guard } from '../helpers';
import { expectAll, shellVerdict } from '../verdicts';

const REF = 'refs/handoffs/main/auth-refactor';
const DEL = `git update-ref -d ${REF}`;

describe('a value that runs a command is judged as that command', () => {
  it('refuses the bypasses found on main', async () => {
    const repo = await foreignWorld();
    await expectAll(
      repo,
      [
        `git -c core.pager='${DEL}' log`,
        `GIT_PAGER='${DEL}' git log`,
        `git -c core.fsmonitor='${DEL}' status`,
        "git -c diff.external='rm -rf memory' diff",
        "git -c core.editor='rm -rf memory' commit",
        "GIT_EDITOR='rm -f memory/handoff-main-auth-refactor.md' git commit --amend",
      ],
      'deny',
    );
  });

  it('refuses other spellings: quoting, env, glued -c, key case, GIT_CONFIG_*, earlier on the line, other variables', async () => {
    const repo = await foreignWorld();
    await expectAll(
      repo,
      [
        `git -c "core.pager=${DEL}" log -1`,
        `git -c core.Pager="${DEL}" log`,
        `git -c CORE.PAGER='${DEL}' show`,
        `git -c pager.log='${DEL}' log`,
        `git -c"core.pager=${DEL}" log`,
        `env GIT_PAGER='${DEL}' git log`,
        `env -i PAGER='${DEL}' git log`,
        `export GIT_PAGER='${DEL}'; git log`,
        `export GIT_PAGER='${DEL}' && git diff`,
        `GIT_PAGER='${DEL}'; git log`,
        `P='${DEL}'; GIT_PAGER="$P" git log`,
        `P='${DEL}' git --config-env=core.pager=P log`,
        `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='${DEL}' git log`,
        `export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0='rm -rf memory'; git commit`,
        `GIT_CONFIG_PARAMETERS="'core.pager'='${DEL}'" git log`,
        "VISUAL='rm -f memory/handoff-main-auth-refactor.md' git commit",
        "EDITOR='sh -c \"rm -rf memory\"' git commit",
        "GIT_SEQUENCE_EDITOR='rm -rf memory' git rebase -i HEAD~1",
        `GIT_SSH_COMMAND='${DEL}; ssh' git fetch origin`,
        'GIT_EXTERNAL_DIFF="rm -rf memory" git diff',
        `GIT_ASKPASS='${DEL}' git push origin main`,
        "git -c filter.x.smudge='rm -rf memory' checkout .",
        "git -c credential.helper='!rm -rf memory' fetch",
        "git -c interactive.diffFilter='echo x > memory/handoff-main-auth-refactor.md' add -p",
        `bash -c "git -c core.pager='${DEL}' log"`,
        // git runs its pager at the top of the worktree, wherever -C or cd sent it
        `git -C memory -c core.pager='rm -f memory/handoff-main-auth-refactor.md' log`,
        `cd memory && GIT_EDITOR='rm -f memory/handoff-main-auth-refactor.md' git commit`,
      ],
      'deny',
    );
  });

  it('allows the harmless look-alikes', async () => {
    const repo = await foreignWorld();
    // HEAD is this session's own commit: amending it is this session's to do
    repo.commit(`mine\n\nClaude-Session-Id: ${ME}`, { 'c.txt': 'c\n' });
    await expectAll(
      repo,
      [
        'git -c core.pager=cat log',
        'git -c core.pager="less -R" log -p',
        'GIT_PAGER=less git log -p',
        'GIT_PAGER=cat git log --oneline',
        'PAGER=cat git diff',
        'GIT_EDITOR=true git commit --amend --no-edit',
        'EDITOR=true git commit --amend',
        "git -c core.editor='code --wait' commit",
        'GIT_SEQUENCE_EDITOR=: git rebase -i HEAD~1',
        "GIT_SSH_COMMAND='ssh -i ~/.ssh/id_ed25519 -o IdentitiesOnly=yes' git fetch origin",
        'export GIT_PAGER=cat; git log -1',
        'git -c core.fsmonitor=false status',
        'git -c diff.external=difft diff',
        'git --no-pager log -1',
        'PAGER= git log',
        "git -c core.sshCommand='ssh -o BatchMode=yes' fetch origin",
      ],
      'allow',
    );
  });

  it('an editor git opens is typed into: allowed where each call is seen, refused in Codex, whose write_stdin no hook sees', async () => {
    const repo = await foreignWorld();
    repo.commit(`mine\n\nClaude-Session-Id: ${ME}`, { 'c.txt': 'c\n' });
    const EDITORS = ['git -c core.editor=vim commit', 'EDITOR=vim git rebase -i HEAD~1', "GIT_SSH_COMMAND='ssh -o ProxyCommand=none' git fetch origin; ssh localhost"];
    await expectAll(repo, EDITORS, 'allow', undefined, SHELL_CLIENTS.filter((c) => c.client !== 'codex'));
    await expectAll(repo, EDITORS, 'deny', /write_stdin/, SHELL_CLIENTS.filter((c) => c.client === 'codex'));
  });

  it('refuses a value it cannot see on a line that names protected things, and allows it elsewhere', async () => {
    const repo = await foreignWorld();
    await expectAll(repo, [`git --config-env=core.pager=PAGERCMD log ${REF}`, 'GIT_PAGER="$(cat /tmp/p)" git log -- memory'], 'deny', /cannot/);
    await expectAll(repo, ['git --config-env=core.pager=PAGERCMD log', 'GIT_EDITOR="$MY_EDITOR" git commit'], 'allow');
  });

  it('through the real git-handoff guard, in each client shape', async () => {
    const repo = await foreignWorld();
    for (const [i, c] of [`git -c core.pager='${DEL}' log`, `GIT_PAGER='${DEL}' git log`, "git -c core.editor='rm -rf memory' commit"].entries()) {
      expect(denial(await guard(repo, SHELL_CLIENTS[i].make(repo, c), { GIT_HANDOFF_SESSION: ME })), c).not.toBeNull();
    }
    expect(denial(await guard(repo, SHELL_CLIENTS[0].make(repo, 'GIT_PAGER=cat git log'), { GIT_HANDOFF_SESSION: ME }))).toBeNull();
  });

  it('names what the value would do', async () => {
    const repo = await foreignWorld();
    expect((await shellVerdict(repo, `GIT_PAGER='${DEL}' git log`)).reason).toMatch(/moves a handoff ref directly/);
  });
});

describe('a command-running key set in the global or system configuration (git reads them here too)', () => {
  it('is judged as the command its value runs', async () => {
    const repo = await foreignWorld();
    await expectAll(
      repo,
      [
        `git config --global core.pager '${DEL}'`,
        `git config set --global core.pager "${DEL}"`,
        "git config --system core.fsmonitor 'rm -rf memory'",
        "git config --file ~/.gitconfig core.pager 'rm -rf memory'",
        "git config -f ~/.config/git/config diff.external 'rm -f memory/handoff-main-auth-refactor.md'",
        `git config --file=$HOME/.gitconfig core.sshCommand "${DEL}; ssh"`,
        "git config --global --add filter.x.smudge 'rm -rf memory'",
        `git config --global core.editor "$(echo ${DEL})"`,
      ],
      'deny',
    );
    // a value that runs nothing protected, a key that runs nothing, a removal: allowed (the held-back corpus's
    // `git config --global core.editor vim` among them)
    await expectAll(
      repo,
      ['git config --global core.editor vim', 'git config --global core.pager "less -R"', 'git config -f /tmp/other.cfg core.pager less', 'git config --global user.name "A Person"', 'git config --global pager.log false', 'git config --global --unset core.pager'],
      'allow',
    );
  });
});

describe('removing core.hooksPath', () => {
  it('is refused while git-handoff\'s hooks are where it points, in every spelling; allowed elsewhere', async () => {
    const repo = await foreignWorld();
    const removals = ['git config --unset core.hooksPath', 'git config --unset-all core.hookspath', 'git config unset core.hooksPath', 'git config --local --unset core.HooksPath', 'git config --remove-section core', "git con''fig --unset core.hooksPath"];
    // no core.hooksPath, or one pointing where no stub is: removing it turns nothing off
    await expectAll(repo, removals, 'allow');
    repo.git(['config', 'core.hooksPath', '.githooks']);
    await expectAll(repo, removals, 'allow');
    const r = await repo.cli(['install', '--hooks']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(existsSync(path.join(repo.dir, '.githooks', 'reference-transaction'))).toBe(true);
    await expectAll(repo, removals, 'deny', /core\.hooksPath.*stop running/s);
    // another scope that holds no core.hooksPath: nothing changes
    await expectAll(repo, ['git config --file /tmp/none.cfg --unset core.hooksPath', 'git config --unset core.pager'], 'allow');
  });
});

describe('the sh front (bin/git-handoff-guard)', () => {
  it('hands every such line over to node, for a session it knows (where it answers ordinary lines alone)', async () => {
    const repo = await foreignWorld();
    // the real front beside a stand-in for node's guard that says it was handed the payload
    const root = tempDir();
    mkdirSync(path.join(root, 'bin'));
    mkdirSync(path.join(root, 'dist'));
    const front = path.join(root, 'bin', 'git-handoff-guard');
    copyFileSync(path.join(ROOT, 'bin', 'git-handoff-guard'), front);
    chmodSync(front, 0o755);
    writeFileSync(path.join(root, 'dist', 'guard.cjs'), "process.stdout.write('HANDED\\n');\n");
    // node's guard has seen the session: its lineage and config cache are there, so the front may answer alone
    await shellVerdict(repo, 'ls', SHELL_CLIENTS.slice(0, 3));
    const env = { ...repo.env };
    for (const k of ['CLAUDE_PID', 'GIT_HANDOFF_BYPASS', 'GIT_HANDOFF_SESSION']) delete env[k];
    const run = (client: (typeof SHELL_CLIENTS)[number], command: string) =>
      spawnSync('sh', [front, `--client=${client.client}`], { cwd: repo.dir, env, input: JSON.stringify(client.make(repo, command)) }).stdout.toString();
    const wrong: string[] = [];
    for (const client of SHELL_CLIENTS.slice(0, 3)) {
      // the control: an ordinary line is answered by the front alone (nothing handed over)
      if (run(client, 'ls -la') === 'HANDED\n') wrong.push(`${client.client}: the front handed over \`ls -la\`, so this test shows nothing`);
      for (const c of ['git -c core.pager=cat log', 'GIT_PAGER=cat git log', 'git -c core.fsmonitor=x status', 'env GIT_PAGER=cat git log', 'export GIT_PAGER=cat; git log', 'PAGER=cat git diff', 'git --config-env=core.pager=P log', 'git config --global core.pager cat', 'git config --unset core.hooksPath', 'EDITOR=true git commit']) {
        if (run(client, c) !== 'HANDED\n') wrong.push(`${client.client}: the front answered ${JSON.stringify(c)} alone`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
