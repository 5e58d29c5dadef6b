// Each client, in its own payload shape: an ordinary call passes silently, a foreign handoff write and a raw
// handoff ref deletion are refused in that client's answer shape.
import { describe, expect, it } from 'vitest';
import { makeRepo, refOf } from '../helpers/repo';
import { denial, guard, OTHER, payload, writeHandoff } from '../guard/helpers';

const foreignFile = 'memory/handoff-main-auth-refactor.md';
const foreignBody = `<!-- claude-session: ${OTHER} -->\n# Auth refactor\n`;

describe('client shapes', () => {
  it('Claude Code: silent allow, foreign write denied, raw update-ref denied', async () => {
    const repo = makeRepo({ commit: true });
    repo.write(foreignFile, foreignBody);
    expect(await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json'))).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await guard(repo, payload(repo, 'claude-code/pre-tool-use-read.json'))).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json'))).toMatchObject({ exitCode: 0, stdout: '' });

    const w = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/${foreignFile}`, content: 'mine now' } }));
    expect(w.exitCode).toBe(0);
    expect(w.answer.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    expect(w.answer.hookSpecificOutput.permissionDecisionReason).toContain(`session ${OTHER.slice(0, 8)}`);

    await writeHandoff(repo, 'auth-refactor', 'body', OTHER);
    const ref = 'refs/handoffs/main/auth-refactor';
    const d = await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: `git update-ref -d ${ref}` } }));
    expect(d.answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(d.answer.hookSpecificOutput.permissionDecisionReason).toContain('git handoff archive');
    expect(refOf(repo, ref)).not.toBeNull();
    const packed = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/.git/packed-refs`, content: '' } }));
    expect(denial(packed)).toContain('ref store');
  });

  it('Gemini CLI: decision/reason shape', async () => {
    const repo = makeRepo({ commit: true });
    repo.write(foreignFile, foreignBody);
    expect(await guard(repo, payload(repo, 'gemini-cli/before-tool-shell.json'))).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await guard(repo, payload(repo, 'gemini-cli/before-tool-write-file.json'))).toMatchObject({ exitCode: 0, stdout: '' });
    const w = await guard(repo, payload(repo, 'gemini-cli/before-tool-replace.json', { tool_input: { file_path: `${repo.dir}/${foreignFile}`, old_string: 'Auth', new_string: 'Mine' } }));
    expect(w.answer).toMatchObject({ decision: 'deny' });
    expect(w.answer.reason).toContain(OTHER.slice(0, 8));
    const d = await guard(repo, payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command: 'git update-ref refs/handoffs/main/auth-refactor HEAD' } }));
    expect(d.answer).toMatchObject({ decision: 'deny' });
  });

  it('Codex: hookSpecificOutput shape, apply_patch onto a foreign handoff', async () => {
    const repo = makeRepo({ commit: true });
    repo.write(foreignFile, foreignBody);
    expect(await guard(repo, payload(repo, 'codex/pre-tool-use-bash.json'))).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await guard(repo, payload(repo, 'codex/pre-tool-use-apply-patch.json'))).toMatchObject({ exitCode: 0, stdout: '' });
    const patch = `*** Begin Patch\n*** Update File: ${foreignFile}\n@@\n-# Auth refactor\n+# Mine\n*** End Patch`;
    const w = await guard(repo, payload(repo, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: patch } }));
    expect(w.answer.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    const d = await guard(repo, payload(repo, 'codex/pre-tool-use-bash.json', { tool_input: { command: "bash -lc 'git update-ref -d refs/handoffs/main/auth-refactor'" } }));
    expect(d.answer.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('Cursor: permission/user_message/agent_message shape', async () => {
    const repo = makeRepo({ commit: true });
    repo.write(foreignFile, foreignBody);
    expect(await guard(repo, payload(repo, 'cursor/before-shell-execution.json'))).toMatchObject({ exitCode: 0, stdout: '' });
    const w = await guard(repo, payload(repo, 'cursor/before-shell-execution.json', { command: `echo mine >> ${foreignFile}` }));
    expect(w.answer).toMatchObject({ permission: 'deny' });
    expect(w.answer.user_message).toContain(OTHER.slice(0, 8));
    expect(w.answer.agent_message).toContain(OTHER.slice(0, 8));
    const d = await guard(repo, payload(repo, 'cursor/before-shell-execution.json', { command: 'git push --force origin refs/handoffs/main/auth-refactor' }));
    expect(d.answer).toMatchObject({ permission: 'deny' });
    expect(denial(await guard(repo, payload(repo, 'cursor/before-shell-execution.json', { command: 'git update-ref -d refs/handoffs/main/auth-refactor' })))).toContain('git handoff archive');
    const raw = await guard(repo, payload(repo, 'cursor/before-shell-execution.json', { command: 'rm -f .git/refs/handoffs/main/auth-refactor' }));
    expect(denial(raw)).toContain('ref store');
  });
});
