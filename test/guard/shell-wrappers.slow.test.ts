// src/guard/shell.ts against an attacker: env -S's split string, the producer of xargs' input and bash -O extglob -c
// are read as the shell will run them. Several spellings through each client's payload shape in-process and one
// through the real `git-handoff guard`; beside them, look-alikes that must stay allowed.
import { describe, expect, it } from 'vitest';
import { FOREIGN_FILE, foreignWorld } from './world';
import { denial } from './helpers';
import { expectAllNotCursor as expectAll, realShell } from './verdicts';

const REF = 'refs/handoffs/main/auth-refactor';

describe('9. env -S, xargs reading its targets from stdin, bash -O extglob -c', () => {
  it('reads the split string, the producer of xargs input and extglob patterns', async () => {
    const repo = await foreignWorld();
    await expectAll(
      repo,
      [
        `env -S 'rm -f ${FOREIGN_FILE}'`,
        `env -S"rm ${FOREIGN_FILE}"`,
        `env -vS 'git update-ref -d ${REF}'`,
        `env --split-string='git update-ref -d ${REF}'`,
        `echo ${FOREIGN_FILE} | xargs rm`,
        'ls memory/* | xargs rm -f',
        'find memory -name "*.md" | xargs rm',
        `find memory | xargs -I{} sh -c 'rm {}'`,
        'cat list.txt | xargs rm',
        'xargs rm < list.txt',
        "bash -O extglob -c 'rm memory/@(handoff-main-auth-refactor).md'",
        "bash -O extglob -c 'rm memory/!(x).md'",
        'shopt -s extglob; rm memory/+(handoff)-main-auth-refactor.md',
      ],
      'deny',
    );
    await expectAll(repo, ['echo README.md | xargs wc -l', "env -S 'echo hi'", "bash -O extglob -c 'ls'", "find . -name '*.tmp' | xargs rm", 'echo build/a.o | xargs rm -f', 'ls src | xargs cat'], 'allow');
    expect(denial(await realShell(repo, `env -S 'rm -f ${FOREIGN_FILE}'`, 1))).toMatch(/belongs to session/);
  });
});
