// src/guard/rules/patch-files.ts against an attacker: the files a patch names, read from a here-document, a patch
// file, a redirect or a cat pipe, and an unreadable patch taken as the whole worktree. Each refused through every
// client's shape and the real sh front, the look-alikes allowed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { attackWorld, expectShell } from '../spellings';

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
  });
});
