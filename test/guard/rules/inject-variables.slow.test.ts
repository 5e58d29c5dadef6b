// src/guard/rules/inject.ts: a session's command line may not set git-handoff's own switches (GIT_HANDOFF_BYPASS,
// _WITNESS, _RECORD_CHECK, _BIN, …), give another session's id to a command that runs with it, or write as another
// session or as the person through `git handoff … --session <other>` / `--person`; reading as another stays allowed.
import { describe, it } from 'vitest';
import { expectShell5, world5 } from '../world-wired';
import { ME, OTHER } from '../helpers';

describe("git-handoff's own variables and other sessions' ids on a session's command line", () => {
  it("refuses the person's switches in every spelling, and another session's id given to a command", async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        'GIT_HANDOFF_BYPASS=1 git commit -m x',
        'GIT_HANDOFF_WITNESS=/tmp/x git handoff recover',
        'GIT_HANDOFF_RECORD_CHECK=0 git commit -m x',
        'GIT_HANDOFF_BIN=/tmp/evil git commit -m x',
        'export GIT_HANDOFF_BYPASS=1; git commit -m x',
        'export GIT_HANDOFF_BYPASS=1',
        'declare -x GIT_HANDOFF_BYPASS=1; git push',
        'env GIT_HANDOFF_BYPASS=1 git commit -m x',
        "env -S 'GIT_HANDOFF_BYPASS=1 git commit -m x'",
        "sh -c 'GIT_HANDOFF_BYPASS=1 git push'",
        'GIT_HANDOFF_BYPASS=1 git handoff drop auth-refactor',
        `GIT_HANDOFF_SESSION=${OTHER} git commit -m x`,
        `CLAUDE_CODE_SESSION_ID=${OTHER} git commit -m x`,
        `export CODEX_THREAD_ID=${OTHER}; git commit -m x`,
        `git handoff drop auth-refactor --session ${OTHER}`,
        `git handoff edit auth-refactor --session ${OTHER}`,
        `git handoff redact auth-refactor --session=${OTHER}`,
        `git handoff rename-branch main other --session ${OTHER}`,
        `git handoff write auth-refactor -m x --session ${OTHER}`,
        'git handoff write auth-refactor -m x --person',
        'git handoff drop auth-refactor --person',
      ],
      'deny',
    );
  });

  it("allows the session's own id, the variable holding it, and reading as another session or the person", async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        `export GIT_HANDOFF_SESSION='${ME}' GIT_HANDOFF_CLIENT=claude-code; git handoff list`,
        'GIT_HANDOFF_SESSION=$CLAUDE_CODE_SESSION_ID git status',
        `GIT_HANDOFF_SESSION=${OTHER} git handoff list --mine`,
        `git handoff list --session ${OTHER}`,
        'git handoff boot --person',
        'GIT_HANDOFF_ROLE=reviewer git handoff list',
        // a variable nothing reads a session from
        `CLAUDE_SESSION_ID=${OTHER} git status`,
      ],
      'allow',
    );
  });
});
