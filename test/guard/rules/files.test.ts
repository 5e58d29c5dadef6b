// The seed tools' file convention: every case of SPEC 6 for protected handoff files.
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload } from '../helpers';

const write = (repo: any, file: string, content: string) =>
  guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/${file}`, content } }));
const edit = (repo: any, file: string, oldText: string, newText: string) =>
  guard(repo, payload(repo, 'claude-code/pre-tool-use-edit.json', { tool_input: { file_path: `${repo.dir}/${file}`, old_string: oldText, new_string: newText } }));
const bash = (repo: any, command: string) => guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }));
const patch = (repo: any, body: string) => guard(repo, payload(repo, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: `*** Begin Patch\n${body}\n*** End Patch` } }, ME));

const mine = `<!-- claude-session: ${ME} -->`;
const theirs = `<!-- claude-session: ${OTHER} -->`;

describe('protected handoff files', () => {
  it('refuses a bare name that has no topic', async () => {
    const repo = makeRepo({ commit: true });
    const r = await write(repo, 'memory/handoff-main.md', `${mine}\nnote\n`);
    expect(denial(r)).toMatch(/handoff-<branch>-<topic>\.md/);
    expect(denial(r)).toContain('handoff-main-auth-refactor.md');
    expect(denial(await write(repo, 'memory/handoff-main-fix-main.md', `${mine}\n`))).toMatch(/no valid topic/);
  });

  it('lets a session write its own file with its marker', async () => {
    const repo = makeRepo({ commit: true });
    expect(await write(repo, 'memory/handoff-main-auth-refactor.md', `${mine}\n# Auth\n`)).toMatchObject({ exitCode: 0, stdout: '' });
    repo.write('memory/handoff-main-auth-refactor.md', `${mine}\n# Auth\n`);
    expect(await edit(repo, 'memory/handoff-main-auth-refactor.md', '# Auth', '# Auth v2')).toMatchObject({ stdout: '' });
    expect(await bash(repo, `echo more >> memory/handoff-main-auth-refactor.md`)).toMatchObject({ stdout: '' });
  });

  it('hands over the exact marker line when it is missing (the handshake)', async () => {
    const repo = makeRepo({ commit: true });
    const r = await write(repo, 'memory/handoff-main-auth-refactor.md', '# Auth\n');
    expect(denial(r)).toContain(`Prepend this exact line as line 1`);
    expect(denial(r)!.trim().endsWith(mine)).toBe(true);
    // The retry with the line it was given goes through.
    expect(await write(repo, 'memory/handoff-main-auth-refactor.md', `${mine}\n# Auth\n`)).toMatchObject({ stdout: '' });
    // A marker naming someone else is refused too.
    expect(denial(await write(repo, 'memory/handoff-main-auth-refactor.md', `${theirs}\n# Auth\n`))).toContain('names session');
  });

  it('refuses every way of changing a file with a foreign marker', async () => {
    const repo = makeRepo({ commit: true });
    const f = 'memory/handoff-main-login-redirect-loop.md';
    repo.write(f, `${theirs}\n# Login\n`);
    for (const r of [
      await write(repo, f, `${mine}\n# Mine\n`),
      await edit(repo, f, '# Login', '# Mine'),
      await bash(repo, `echo mine > ${f}`),
      await bash(repo, `echo mine >> ${f}`),
      await bash(repo, `printf x | tee -a ${f}`),
      await bash(repo, `sed -i s/Login/Mine/ ${f}`),
      await bash(repo, `cp /tmp/other.md ${f}`),
      await bash(repo, `mv ${f} /tmp/gone.md`),
      await bash(repo, `cd memory && rm handoff-main-login-redirect-loop.md`),
      await bash(repo, `sh -c "cat x > ${f}"`),
      await patch(repo, `*** Update File: ${f}\n@@\n-# Login\n+# Mine`),
      await patch(repo, `*** Delete File: ${f}`),
    ]) {
      expect(denial(r)).toContain(`session ${OTHER.slice(0, 8)}`);
      expect(r.exitCode).toBe(0);
    }
  });

  it('refuses an Edit of a marker-less legacy file but allows rewriting it whole with a marker', async () => {
    const repo = makeRepo({ commit: true });
    const f = 'memory/handoff-main-auth-refactor.md';
    repo.write(f, '# Old note without marker\n');
    expect(denial(await edit(repo, f, 'Old', 'New'))).toMatch(/no ownership marker/);
    expect(denial(await bash(repo, `echo x >> ${f}`))).toMatch(/no ownership marker/);
    expect(await write(repo, f, `${mine}\n# New\n`)).toMatchObject({ stdout: '' });
  });

  it('keeps the marker line in place on an edit of an own file', async () => {
    const repo = makeRepo({ commit: true });
    const f = 'memory/handoff-main-auth-refactor.md';
    repo.write(f, `${mine}\n# Auth\n`);
    expect(denial(await edit(repo, f, mine, '# no marker'))).toMatch(/keep line 1/);
  });

  it("refuses an edit of an own file that reaches into line 1 by a part of it: another session's id put in, its tail or its newline replaced; a Codex hunk adding a line above it", async () => {
    const repo = makeRepo({ commit: true });
    const f = 'memory/handoff-main-auth-refactor.md';
    const other = OTHER.split('-')[0];
    const reset = () => repo.write(f, `${mine}\n# Auth\nnotes\n`);
    reset();
    // a substring of the marker: the id rewritten to another session's (ownership forged), its tail, its newline
    for (const [from, to] of [
      [ME, OTHER],
      [ME.split('-')[0], other],
      ['-->', '--'],
      ['-->\n# Auth', '# Auth'],
      ['>\n# Auth', 'x\n# Auth'],
      ['\n# Auth', ' # Auth'],
    ]) {
      expect(denial(await edit(repo, f, from, to)), JSON.stringify(from)).toMatch(/keep line 1/);
    }
    // a MultiEdit whose second edit reaches it
    const multi = payload(repo, 'claude-code/pre-tool-use-multiedit.json', { tool_input: { file_path: `${repo.dir}/${f}`, edits: [{ old_string: 'notes', new_string: 'more notes' }, { old_string: ME, new_string: OTHER }] } });
    expect(denial(await guard(repo, multi))).toMatch(/keep line 1/);
    // Codex: the marker as a hunk's context with a line added before it; the marker replaced; as the hunk's anchor, kept
    expect(denial(await patch(repo, `*** Update File: ${f}\n@@\n+${theirs}\n ${mine}\n # Auth`))).toMatch(/keep line 1/);
    expect(denial(await patch(repo, `*** Update File: ${f}\n@@\n-${mine}\n+${theirs}`))).toMatch(/keep line 1/);
    expect(denial(await patch(repo, `*** Update File: ${f}\n@@ ${mine}\n # Auth\n-notes\n+more notes`))).toBeNull();
    // a pure addition (placed by no text of the file) bringing another session's marker line; one bringing none passes
    expect(denial(await patch(repo, `*** Update File: ${f}\n@@\n+${theirs}`))).toMatch(/keep line 1/);
    expect(denial(await patch(repo, `*** Update File: ${f}\n@@\n+more notes`))).toBeNull();
    // what leaves line 1 as it is: an edit below it, one that keeps the marker line whole, a hunk with it kept in place
    expect(denial(await edit(repo, f, '# Auth', '# Auth v2'))).toBeNull();
    expect(denial(await edit(repo, f, `${mine}\n# Auth`, `${mine}\n# Auth v3`))).toBeNull();
    expect(denial(await patch(repo, `*** Update File: ${f}\n@@\n ${mine}\n-# Auth\n+# Auth v4`))).toBeNull();
    expect(denial(await patch(repo, `*** Update File: ${f}\n@@\n notes\n+appended`))).toBeNull();
  });

  it('warns without blocking when a new topic overlaps a sibling', async () => {
    const repo = makeRepo({ commit: true });
    repo.write('memory/handoff-main-auth-token-refresh.md', `${theirs}\n# Auth\n`);
    const r = await write(repo, 'memory/handoff-main-auth-token-expiry.md', `${mine}\n# Auth tests\n`);
    expect(denial(r)).toBeNull();
    expect(r.answer.hookSpecificOutput.additionalContext).toMatch(/overlaps handoff-main-auth-token-refresh\.md/);
    expect(await write(repo, 'memory/handoff-main-auth-session-store.md', `${mine}\n# other\n`)).toMatchObject({ stdout: '' });
    const codex = await patch(repo, `*** Add File: memory/handoff-main-auth-token-docs.md\n+${mine}\n+# docs`);
    expect(denial(codex)).toBeNull();
    expect(codex.answer.hookSpecificOutput.additionalContext).toMatch(/overlaps/);
  });

  it('applies apply_patch Add File rules (marker required)', async () => {
    const repo = makeRepo({ commit: true });
    const r = await patch(repo, `*** Add File: memory/handoff-main-cache-layer.md\n+# Cache`);
    expect(denial(r)).toContain(mine);
  });

  it('leaves unrelated paths alone, and protects git config handoff.protect globs', async () => {
    const repo = makeRepo({ commit: true });
    expect(await write(repo, 'docs/handoff-notes.txt', 'x')).toMatchObject({ stdout: '' });
    expect(await write(repo, 'memory/notes.md', 'x')).toMatchObject({ stdout: '' });
    expect(await bash(repo, 'echo x > memory/notes.md')).toMatchObject({ stdout: '' });
    repo.write('NOTES/session.md', `${theirs}\nnote\n`);
    expect(await write(repo, 'NOTES/session.md', 'x')).toMatchObject({ stdout: '' });
    repo.git(['config', 'handoff.protect', 'NOTES/*.md']);
    expect(denial(await write(repo, 'NOTES/session.md', `${mine}\nx`))).toContain(OTHER.slice(0, 8));
  });

  it('protects the default pattern outside the repository too (client memory directories)', async () => {
    const repo = makeRepo({ commit: true });
    const outside = `${repo.home}/.claude/projects/p/memory/handoff-main-auth-refactor.md`;
    const r = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: outside, content: '# no marker' } }));
    expect(denial(r)).toContain(mine);
  });
});
