// src/guard/rules/refs.ts against an attacker: read receipts (refs/notes/handoff-reads) are protected like handoff
// refs, by ref, notes and file commands. Several spellings through each client's payload shape in-process and one
// through the real `git-handoff guard`; beside them, reads and notes of others that must stay allowed.
import { describe, expect, it } from 'vitest';
import { foreignWorld } from '../world';
import { denial } from '../helpers';
import { expectAllNotCursor as expectAll, realShell } from '../verdicts';

describe('11. read receipts are protected like handoff refs', () => {
  it('refuses dropping or rewriting refs/notes/handoff-reads by ref, notes or file commands', async () => {
    const repo = await foreignWorld();
    await expectAll(
      repo,
      [
        'git update-ref -d refs/notes/handoff-reads',
        'git update-ref refs/notes/handoff-reads HEAD',
        'git notes --ref=handoff-reads remove HEAD',
        'git notes --ref handoff-reads prune',
        'GIT_NOTES_REF=refs/notes/handoff-reads git notes remove HEAD',
        'git -c core.notesRef=refs/notes/handoff-reads notes add -f -m x HEAD',
        'git push origin :refs/notes/handoff-reads',
        'git push -f origin refs/notes/handoff-reads',
        'rm -f .git/refs/notes/handoff-reads',
        "g''it upd''ate-ref -d refs/notes/hand''off-reads",
      ],
      'deny',
    );
    await expectAll(repo, ['git notes --ref=handoff-reads list', 'git notes show HEAD', 'git notes add -m x HEAD', 'git log --notes=handoff-reads -1'], 'allow');
    expect(denial(await realShell(repo, 'git notes --ref=handoff-reads remove HEAD', 2))).toMatch(/read receipts/);
  });
});
