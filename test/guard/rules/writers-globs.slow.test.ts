// src/guard/rules/writers.ts against an attacker: a writer the guard does not list, naming the file through a glob, is
// judged on the files it names. Several spellings through each client's payload shape in-process and one through the
// real `git-handoff guard`; beside them, reads that must stay allowed.
import { describe, expect, it } from 'vitest';
import { foreignWorld, OWN_FILE } from '../world';
import { denial } from '../helpers';
import { expectAllNotCursor as expectAll, NOT_CURSOR, realShell, shellVerdict } from '../verdicts';

describe('2. a writer the guard does not list, naming the file through a glob, is judged on the files it names', () => {
  it('refuses sort -o, an unknown program, sed w through globs; allows reading', async () => {
    const repo = await foreignWorld();
    await expectAll(
      repo,
      [
        'sort -o memory/h?ndoff-main-auth-refactor.md README.md',
        'sort --output=memory/handoff-main-auth-*.md README.md',
        'sort -uo memory/handoff-main-auth-refactor.md README.md',
        'mytool --out=memory/handoff-main-auth-refactor.md',
        'vim memory/handoff-main-auth-*',
        'python3 tools/gen.py memory/h*ndoff-main-auth-refactor.md',
        "sed -n 's/a/b/w memory/handoff-main-auth-refactor.md' README.md",
        "sed -e 'w memory/handoff-main-auth-refactor.md' README.md",
      ],
      'deny',
    );
    await expectAll(repo, ['sort memory/handoff-main-auth-refactor.md', 'sort -o /tmp/sorted.txt memory/handoff-main-auth-refactor.md', 'mytool --out=build/out.txt src/a.ts', "sed -n '1p' memory/h*-auth-refactor.md"], 'allow');
    // an editor on the session's own file: allowed where each call is seen; Codex's write_stdin reaches no hook
    const own = await Promise.all(NOT_CURSOR.map(async (c) => [c.client, (await shellVerdict(repo, `vim ${OWN_FILE}`, [c])).verdict]));
    expect(own).toEqual(NOT_CURSOR.map(({ client }) => [client, client === 'codex' ? 'deny' : 'allow']));
    expect(denial(await realShell(repo, 'sort -o memory/h?ndoff-main-auth-refactor.md README.md', 1))).toMatch(/belongs to session/);
  });
});
