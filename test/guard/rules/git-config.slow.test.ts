// Issue 24: `git config` of keys that make git run a program or turn git-handoff's protection off (the one list in
// src/guard/rules/git-config.ts). Several spellings of each, through each client's payload shape (Claude Code,
// Gemini CLI, Codex, Cursor, Copilot CLI) in-process and a sample through the real `git-handoff guard`; harmless
// keys stay allowed; writing .git/config itself with a file tool or the shell stays refused, pointing at git config.
import { describe, expect, it } from 'vitest';
import { detectClient } from '../../../src/clients/index';
import { GuardContext } from '../../../src/guard/context';
import { decide } from '../../../src/guard/entry';
import { RUNNING_KEYS, runningKey } from '../../../src/guard/rules/git-config';
import { foreignWorld, SHELL_CLIENTS } from '../world';
import { denial, guard, ME, payload } from '../helpers';
import { expectAll, shellVerdict as shell } from '../verdicts';

const ENV = { ...process.env, GIT_HANDOFF_SESSION: ME };

describe('git config of a key that makes git run a program, in this repository', () => {
  it('is refused in every spelling, with the one-command way in the refusal', async () => {
    const repo = await foreignWorld();
    await expectAll(
      repo,
      [
        'git config core.fsmonitor /tmp/x.sh',
        'git config --local core.fsmonitor ./x.sh',
        'git config set core.fsmonitor ./x.sh',
        'git config set --local core.fsMonitor ./x.sh',
        'git config --worktree core.pager "less -R"',
        'git config core.pager cat',
        "git config 'core.editor' 'vim'",
        'g""it con""fig core.sshCommand "ssh -i key"',
        'git config --add alias.go "!sh ./x.sh"',
        "git config alias.go '!f() { sh x.sh; }; f'",
        'git config --replace-all filter.lfs.smudge "sh x.sh"',
        'git config filter.x.clean ./clean.sh',
        'git config filter.x.process ./p.sh',
        'git config diff.bin.textconv ./conv.sh',
        'git config diff.external ./d.sh',
        'git config merge.ours.driver ./m.sh',
        'git config credential.helper "!sh x.sh"',
        'git config credential.https://example.com.helper store',
        'git config gpg.program ./g.sh',
        'git config gpg.ssh.program ./g.sh',
        'git config sequence.editor ./e.sh',
        'git config pager.log ./p.sh',
        'git config remote.origin.uploadpack ./u.sh',
        'git config protocol.ext.allow always',
        'git config submodule.lib.update "!sh x.sh"',
        'git config trailer.sign.command ./t.sh',
        'git config interactive.diffFilter ./f.sh',
        'git config core.askPass ./a.sh',
        'git config --file .git/config core.pager less',
        'git config -f .git/config core.editor vim',
        'git config --file=.git/config.worktree core.fsmonitor ./x.sh',
        'git -C src config core.fsmonitor ./x.sh',
        'cd src && git config core.editor vim',
        'git config core.pager "$PAGER"',
        'git config alias.x "$CMD"',
      ],
      'deny',
      /run a program|runs a program|shell command|alias for a git command/,
    );
    // the way for one command is said
    expect((await shell(repo, 'git config core.pager cat')).reason).toMatch(/git --no-pager <command>|GIT_PAGER/);
    expect((await shell(repo, 'git config core.editor vim')).reason).toMatch(/GIT_EDITOR=/);
    expect((await shell(repo, 'git config core.fsmonitor ./x.sh')).reason).toMatch(/git -c core\.fsmonitor=<value> <command>/);
  });

  it('refuses a key that turns the protection off in any configuration, and one-off on a command that writes', async () => {
    const repo = await foreignWorld();
    await expectAll(
      repo,
      [
        'git config core.hooksPath /dev/null',
        'git config --global core.hooksPath /tmp/hooks',
        'git config set --global core.hookspath /tmp/hooks',
        'git config --system core.hooksPath /tmp/hooks',
        'git config include.path /tmp/evil.cfg',
        'git config --global includeIf.gitdir:~/.path /tmp/evil.cfg',
        'git config core.notesRef refs/notes/handoff-reads',
        'git config notes.rewriteRef refs/notes/handoff-reads',
        'git -c core.hooksPath=/dev/null commit -m x',
        'git -c core.hookspath=/dev/null push origin main',
        'git -c include.path=/tmp/evil.cfg merge topic',
        'git --config-env=core.hooksPath=HOOKS commit -m x',
        'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x',
        "GIT_CONFIG_PARAMETERS=\"'core.hooksPath'='/dev/null'\" git rebase main",
      ],
      'deny',
      /protection|hooks|read receipts|another configuration file/,
    );
  });

  it('allows harmless keys, removals, reads, other scopes for keys that only run a program, and one-off settings', async () => {
    const repo = await foreignWorld();
    await expectAll(
      repo,
      [
        'git config user.name "A Person"',
        'git config core.autocrlf input',
        'git config set core.autocrlf false',
        'git config --local color.ui auto',
        'git config pager.log false',
        'git config core.fsmonitor false',
        'git config alias.st status',
        'git config protocol.ext.allow never',
        'git config core.notesRef refs/notes/review',
        'git config --unset core.fsmonitor',
        'git config --unset core.hooksPath',
        'git config unset core.pager',
        'git config --remove-section filter.x',
        'git config --get core.pager',
        'git config core.pager',
        'git config --list',
        'git config --global core.editor vim',
        'git config --global core.pager "less -R"',
        'git config -f /tmp/other.cfg core.pager less',
        'git -c core.pager=cat log -1',
        'git -c core.hooksPath=/dev/null status',
        'git -c core.editor=true commit -m x',
        'git -c color.ui=never push origin main',
      ],
      'allow',
    );
  });

  it('refuses git config --edit and a section renamed, in any file git reads (issue 37: the keys a section holds are not read)', async () => {
    const repo = await foreignWorld();
    await expectAll(repo, ['git config --edit', 'git config -e', 'git config edit', 'git config --rename-section mine alias', 'git config rename-section x filter.lfs', 'git config --global --edit', 'git config --rename-section mine notes-old', 'git config --global --rename-section color core'], 'deny');
    await expectAll(repo, ['git config --file /tmp/elsewhere.cfg --edit', 'git config -f /tmp/elsewhere.cfg --rename-section a b', 'git config --global --remove-section color'], 'allow');
  });

  it('through the real guard, in each client shape', async () => {
    const repo = await foreignWorld();
    for (const [i, c] of ['git config core.fsmonitor ./x.sh', 'git config core.hooksPath /dev/null', 'git -c core.hooksPath=/dev/null commit -m x'].entries()) {
      const r = await guard(repo, SHELL_CLIENTS[i].make(repo, c), { GIT_HANDOFF_SESSION: ME });
      expect(denial(r), c).toMatch(/program|protection|hooks/);
    }
    expect(denial(await guard(repo, SHELL_CLIENTS[0].make(repo, 'git config user.name x'), { GIT_HANDOFF_SESSION: ME }))).toBeNull();
  });
});

describe('writing .git/config itself', () => {
  it('is refused with a file tool and the shell, pointing at git config', async () => {
    const repo = await foreignWorld();
    const file = `${repo.dir}/.git/config`;
    for (const p of [
      payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: file, content: '[core]\n\tfsmonitor = ./x.sh\n' } }),
      payload(repo, 'gemini-cli/before-tool-write-file.json', { tool_input: { file_path: file, content: '[user]\n\tname = x\n' } }),
      payload(repo, 'claude-code/pre-tool-use-edit.json', { tool_input: { file_path: file, old_string: '[core]', new_string: '[core]\n\thooksPath = /dev/null' } }),
    ]) {
      const adapter = detectClient(p);
      const event = adapter.parse(p);
      const d = await decide(new GuardContext(event, ENV));
      expect(d.deny).toMatch(/git config for a setting/);
    }
    await expectAll(repo, ['printf "[core]\\n\\tpager = x\\n" >> .git/config', 'echo "[include] path = /tmp/x" | tee -a .git/config', "sed -i 's/x/y/' .git/config"], 'deny', /git config for a setting/);
  });
});

describe('the list', () => {
  it('names each key once, and tells values apart where the value decides', () => {
    for (const k of ['core.hookspath', 'core.fsmonitor', 'core.pager', 'core.editor', 'core.sshcommand', 'alias.x', 'filter.a.clean', 'filter.a.smudge', 'filter.a.process', 'diff.a.textconv', 'diff.a.command', 'credential.helper', 'sequence.editor', 'gpg.program', 'include.path', 'includeif.onbranch:main.path']) {
      expect(RUNNING_KEYS.filter((r) => r.key.test(k)), k).toHaveLength(1);
    }
    expect(runningKey('alias.st', 'status')).toBeNull();
    expect(runningKey('alias.st', '!sh x')).not.toBeNull();
    expect(runningKey('core.fsmonitor', 'true')).toBeNull();
    expect(runningKey('user.name', 'x')).toBeNull();
    expect(runningKey('Core.HooksPath', 'x')?.protection).toBe(true);
  });
});
