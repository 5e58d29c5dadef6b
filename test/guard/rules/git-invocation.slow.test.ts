// src/guard/rules/git-invocation.ts against an attacker: git's environment and settings, judged by what they make git
// do — files named as git's output are writes, variables and keys not known to be quiet are refused — through every
// client's shape (in-process) and the real sh front.
import { describe, it } from 'vitest';
import { expectShell5, world5 } from '../world-wired';
import { ME, OTHER } from '../world';

const THEIR = 'memory/handoff-main-auth-refactor.md';

describe("2 and 6. git's environment and settings, by what they make git do", () => {
  it('files named as git output are judged as writes; variables and keys not known to be quiet are refused', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        `GIT_INDEX_FILE=${THEIR} git read-tree --empty`,
        `GIT_TRACE=$REPO/${THEIR} git log --grep=owned`,
        `GIT_TRACE2_EVENT=$REPO/${THEIR} git status`,
        `env GIT_TRACE_PACKET=$REPO/${THEIR} git fetch`,
        `export GIT_TRACE_PERFORMANCE=$REPO/${THEIR}; git log -1`,
        'GIT_TRACE="$X" git log',
        'GIT_DIR=$EVILREPO/.git git commit --allow-empty -m x',
        'GIT_WORK_TREE=memory git checkout -f HEAD',
        'GIT_OBJECT_DIRECTORY=$EMPTY/objects git commit -m x',
        'GIT_CONFIG_GLOBAL=$EMPTY/cfg git status',
        'GIT_EXEC_PATH=$EMPTY git status',
        'git --git-dir=$EVILREPO/.git --work-tree=memory checkout -f',
        'git --exec-path=$EMPTY log',
        `git -c trace2.normalTarget=$REPO/${THEIR} status`,
        'git -c Trace2.EventTarget=$EMPTY/t log',
        'git -c core.worktree=memory checkout -f',
        `git -c http.cookieFile=${THEIR} -c http.saveCookies=true fetch`,
        `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=trace2.perfTarget GIT_CONFIG_VALUE_0=$REPO/${THEIR} git status`,
        `git config --global trace2.normalTarget $REPO/${THEIR}`,
        'git config --global trace2.eventTarget $EMPTY/t',
        'git config core.worktree $EMPTY',
        'git config --system core.sharedRepository 0777',
        'git config --global http.saveCookies true',
      ],
      'deny',
    );
    await expectShell5(
      w,
      [
        'GIT_TRACE=1 git status',
        'GIT_TRACE=2 git log -1',
        'GIT_TRACE=$EMPTY/out/trace.log git log -1',
        'GIT_INDEX_FILE=$EMPTY/out/idx git read-tree HEAD',
        'GIT_AUTHOR_NAME=x GIT_AUTHOR_EMAIL=x@y git log -1',
        'GIT_DIR=$EVILREPO/.git git log',
        'git --git-dir=$EVILREPO/.git status',
        'git -c user.email=x@y log -1',
        'git -c color.ui=always log -1',
        'git -c core.quotepath=off status',
        'git -c protocol.file.allow=always status',
        'git config user.email x@y.z',
        'git config --global init.defaultBranch main',
        'git config pull.rebase false',
        'git config --get trace2.normalTarget',
      ],
      'allow',
    );
  });
});

describe("git run under another session's id or none", () => {
  it('a writing git with a session variable set to another id, emptied, unset or removed by env is refused; reads and its own id pass', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        'CLAUDE_CODE_SESSION_ID= git commit --allow-empty -m x',
        'unset CLAUDE_CODE_SESSION_ID; git commit --allow-empty -m x',
        'unset GIT_HANDOFF_SESSION CLAUDE_CODE_SESSION_ID && git reset --hard HEAD~1',
        'env -u CLAUDE_CODE_SESSION_ID git commit --allow-empty -m x',
        'env --unset=GEMINI_SESSION_ID git commit --allow-empty -m x',
        'env -i PATH=$PATH git commit --allow-empty -m x',
        `export CLAUDE_CODE_SESSION_ID=${OTHER}; git commit --allow-empty -m x`,
        `CODEX_THREAD_ID=${OTHER} git branch -D side`,
        'GIT_HANDOFF_SESSION= git commit --allow-empty -m x',
        'export COPILOT_AGENT_SESSION_ID=; git push origin main',
      ],
      'deny',
    );
    await expectShell5(
      w,
      [
        'CLAUDE_CODE_SESSION_ID= git log -1',
        'env -u CLAUDE_CODE_SESSION_ID git status',
        'unset CLAUDE_CODE_SESSION_ID; echo hi',
        `GIT_HANDOFF_SESSION=${ME} git commit --allow-empty -m x`,
        `env -u CLAUDE_CODE_SESSION_ID GIT_HANDOFF_SESSION=${ME} git commit --allow-empty -m x`,
        'env -u LANG git commit --allow-empty -m x',
        'unset GIT_DIR; git commit --allow-empty -m x',
      ],
      'allow',
    );
  });
});
