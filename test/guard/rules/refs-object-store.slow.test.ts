// src/guard/rules/refs.ts against an attacker: a write or removal under git's object store, and cp -l of a directory
// holding handoff files (a second name for a whole tree), refused through every client's shape and the real sh front.
import { describe, it } from 'vitest';
import { attackWorld, expectShell } from '../spellings';

describe('git’s object store, and second names for a whole tree', () => {
  it('refuses a write or removal under .git/objects and cp -l of a directory holding handoff files', async () => {
    const w = await attackWorld();
    await expectShell(
      w,
      ['rm -rf .git/objects/pack', 'rm -rf .git/objects', 'echo /tmp/x > .git/objects/info/alternates', 'cd .git && rm -rf objects', 'cp -al memory $EMPTY/m', 'cp -lR memory $EMPTY/m', 'cp --link --recursive memory $EMPTY/m'],
      'deny',
    );
    await expectShell(w, ['rm .git/index.lock', 'echo build/ >> .git/info/exclude', 'ls .git/objects', 'du -sh .git/objects', 'cp -a memory $EMPTY/backup', 'cp -al memory/scratch $EMPTY/s'], 'allow');
  });
});
