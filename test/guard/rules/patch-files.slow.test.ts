// src/guard/rules/patch-files.ts against an attacker: the files a patch names, read from a here-document, a patch
// file, a redirect or a cat pipe, and an unreadable patch taken as the whole worktree. Each refused through every
// client's shape and the real sh front, the look-alikes allowed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attackWorld, expectShell, inProcess, throughFront } from '../spellings';
import { ME, payload } from '../helpers';

const F = 'memory/handoff-main-auth-refactor.md';

describe('patches', () => {
  it('judges the files a patch names: a here-document, a patch file, a redirect, a cat pipe; an unreadable patch as the whole worktree', async () => {
    const w = await attackWorld();
    const patch = `--- a/${F}\n+++ b/${F}\n@@ -1,2 +1,2 @@\n <!-- claude-session: other-9b1e77d0-bbbb -->\n-their note\n+mine\n`;
    const file = path.join(w.empty, 'x.patch');
    writeFileSync(file, patch);
    const plain = path.join(w.empty, 'plain.patch');
    writeFileSync(plain, '--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+c\n');
    await expectShell(
      w,
      [
        `git apply <<'EOF'\n${patch}EOF`,
        `git apply ${file}`,
        `git apply --index ${file}`,
        `patch -p1 < ${file}`,
        `patch -p1 -i ${file}`,
        `patch ${F} ${file}`,
        `cat ${file} | git apply`,
        `cat ${file} | patch -p0`,
        `curl -s file://${file} | git apply`,
        `git am ${file}`,
      ],
      'deny',
    );
    await expectShell(w, [`git apply --check ${file}`, `git apply --stat ${file}`, `patch --dry-run -p1 < ${file}`, `git apply ${plain}`, `cat ${plain} | patch -p1`], 'allow');
    // a patch that cannot be read is refused for what it may reach, and the reason says why that file is reached
    for (const command of [`git apply ${path.join(w.empty, 'missing.patch')}`, `curl -s file://${file} | patch -p1`]) {
      const r = await inProcess('claude-code', payload(w.repo, 'claude-code/pre-tool-use-bash.json', { session_id: ME, tool_input: { command } }));
      expect(r.verdict).toBe('deny');
      expect(r.reason).toContain(`${F} (reached because the patch cannot be read before it runs`);
    }
  });

  it("Codex's apply_patch, as its tool and in its shell: CRLF, padded headers, Move to and Delete File onto protected paths", async () => {
    const w = await attackWorld();
    const own = 'memory/handoff-main-my-own-note.md';
    const envelopes = [
      `*** Begin Patch\r\n*** Update File: ${F}\r\n@@\r\n-their note\r\n+mine\r\n*** End Patch\r\n`,
      `*** Begin Patch\n*** Update File:  ${F}\n@@\n-their note\n+mine\n*** End Patch\n`,
      `*** Begin Patch\n  *** Update File: ${F}  \n@@\n-their note\n+mine\n*** End Patch\n`,
      `*** Begin Patch\n*** Delete File:   ${F}\r\n*** End Patch\n`,
      `*** Begin Patch\n*** Update File: b.txt\n*** Move to: ${F}\n@@\n-b\n+c\n*** End Patch\n`,
      `*** Begin Patch\n*** Update File: b.txt\n*** Move to: .git/config\n@@\n-b\n+c\n*** End Patch\n`,
      `*** Begin Patch\r\n*** Add File: .git/hooks/pre-commit\r\n+#!/bin/sh\r\n*** End Patch\r\n`,
    ];
    const tool = (patch: string) => payload(w.repo, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: patch } });
    const wrong: string[] = [];
    for (const [i, e] of envelopes.entries()) {
      const r = await inProcess('codex', tool(e));
      if (r.verdict !== 'deny') wrong.push(`tool ${JSON.stringify(e)}: ${r.verdict}`);
      if (i % 3 === 0 && throughFront(w.repo, 'codex', tool(e)).verdict !== 'deny') wrong.push(`tool through the front ${JSON.stringify(e)}`);
    }
    expect(wrong).toEqual([]);
    await expectShell(
      w,
      [
        ...envelopes.map((e) => `apply_patch <<'EOF'\n${e}EOF`),
        `bash -lc "apply_patch <<'EOF'\n${envelopes[3]}EOF"`,
        `apply_patch '${envelopes[4]}'`,
      ],
      'deny',
    );
    // a context line led by a space is no header inside an Update's hunks; the session's own file and plain files pass
    const plain = `*** Begin Patch\r\n*** Add File: notes/todo.md\r\n+hi\r\n*** End Patch\r\n`;
    const ownEdit = `*** Begin Patch\n*** Update File: ${own}\n@@\n <!-- claude-session: ${ME} -->\n-my note\n+my note, more\n*** End Patch\n`;
    for (const e of [plain, ownEdit]) expect((await inProcess('codex', tool(e))).verdict, e).toBe('allow');
    await expectShell(w, [`apply_patch <<'EOF'\n${plain}EOF`], 'allow');
  });
});
