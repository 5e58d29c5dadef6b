// src/guard/rules/refs.ts against an attacker: fetch, push, remote and config refspecs whose pattern can write a
// handoff ref, and graft conversion, refused through every client's shape and the real sh front.
import { describe, expect, it } from 'vitest';
import { refOf } from '../../helpers/repo';
import { attackWorld, expectShell } from '../spellings';

const REF = 'refs/handoffs/main/auth-refactor';

describe('ref patterns that cover handoff refs', () => {
  it('refuses fetch, push, remote and config refspecs whose pattern can write a handoff ref, and graft conversion', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      [
        "git fetch --prune $EVILREPO 'refs/*:refs/*'",
        "git fetch $EVILREPO '+refs/*:refs/*'",
        "git fetch $EVILREPO '+refs/h*:refs/h*'",
        "git fetch $EVILREPO 'refs/heads/main' --refmap='+refs/heads/*:refs/*'",
        "git pull $EVILREPO '+*:*'",
        "git push --prune . 'refs/heads/*:refs/*'",
        "git push --force origin 'refs/*:refs/*'",
        "git push origin '+refs/*'",
        'git remote add --mirror=fetch -f evil $EVILREPO',
        'git remote add --mirror evil $EVILREPO',
        "git config remote.origin.fetch '+refs/*:refs/*'",
        "git config --add remote.origin.push 'refs/heads/*:refs/*'",
        'git replace --convert-graft-file',
      ],
      'deny',
    );
    await expectShell(
      w,
      ["git fetch $EVILREPO '+refs/heads/*:refs/remotes/evil/*'", 'git fetch origin', 'git push origin HEAD', "git push origin 'refs/heads/*'", 'git replace -l'],
      'allow',
    );
    expect(refOf(w.repo, REF)).not.toBeNull();
  });
});
