// src/guard/lex.ts against an attacker: quoting and escapes split no word, so the guard reads what the shell will run.
// Several spellings through each client's payload shape in-process and a sample through the real `git-handoff guard`;
// beside them, look-alikes that must stay allowed.
import { describe, expect, it } from 'vitest';
import { FOREIGN_FILE, foreignWorld } from './world';
import { refOf } from '../helpers/repo';
import { denial } from './helpers';
import { expectAllNotCursor as expectAll, realShell } from './verdicts';

const REF = 'refs/handoffs/main/auth-refactor';

describe('1. quoting and escapes split no word: the guard reads what the shell will run', () => {
  it('refuses ref moves and file writes however they are quoted', async () => {
    const repo = await foreignWorld();
    await expectAll(
      repo,
      [
        `g''it update-r''ef -d re''fs/hand''offs/main/auth-refactor`,
        `"git" "update-ref" -d "${REF}"`,
        `g\\it upd\\ate-ref -d refs/hand\\offs/main/auth-refactor`,
        `$'\\x67it' update-ref -d ${REF}`,
        `$'\\147\\151\\164' $'update\\055ref' -d ${REF}`,
        `echo x | t"e"e ${FOREIGN_FILE}`,
        `r\\m ${FOREIGN_FILE}`,
        `'r'm -f "memory/hand"'off-main-auth-refactor.md'`,
        `echo x >"mem"ory/handoff-main-auth-ref\\actor.md`,
      ],
      'deny',
    );
    await expectAll(repo, [`echo 'g''it update-ref -d ${REF}'`, `cat "${FOREIGN_FILE}"`, `gr''ep -n x "${FOREIGN_FILE}"`], 'allow');
    // through the real command too, each client in turn
    for (const [i, c] of [`g''it update-r''ef -d re''fs/hand''offs/main/auth-refactor`, `r\\m ${FOREIGN_FILE}`, `$'\\x67it' update-ref -d ${REF}`].entries()) {
      expect(denial(await realShell(repo, c, i)), c).toMatch(/handoff ref|belongs to session/);
    }
    expect(refOf(repo, REF)).not.toBeNull();
  });
});
