// Issue 14: a shell command cannot carry the ownership marker, so it may write a protected handoff file only when
// the file exists and its line 1 is this session's marker — every write spelling, through every client's shell.
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload } from '../helpers';

const FILE = 'memory/handoff-main-auth-refactor.md';
const mine = `<!-- claude-session: ${ME} -->`;
const theirs = `<!-- claude-session: ${OTHER} -->`;

/** One shell command in each client's own shape. */
const SHELLS: Record<string, (repo: TestRepo, command: string) => Record<string, unknown>> = {
  'Claude Code': (repo, command) => payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }),
  'Gemini CLI': (repo, command) => payload(repo, 'gemini-cli/real-before-tool-run-shell-command.json', { tool_input: { command } }),
  Codex: (repo, command) => payload(repo, 'codex/real-pre-tool-use-bash.json', { tool_input: { command } }),
  Cursor: (repo, command) => payload(repo, 'cursor/before-shell-execution.json', { command }),
};

// Every spelling the shell classifier reads as a write of FILE (and the seed suite's three).
const WRITES = [
  `echo x >> ${FILE}`,
  `echo x > ${FILE}`,
  `printf x | tee ${FILE}`,
  `printf x | tee -a ${FILE}`,
  `python3 -c "open('${FILE}','w').write('x')"`,
  `node -e "require('fs').writeFileSync('${FILE}', 'x')"`,
  `python3 - <<'EOF'\nopen('${FILE}', 'a').write('x')\nEOF`,
  `sed -i s/a/b/ ${FILE}`,
  `cp /etc/hostname ${FILE}`,
  `mv /tmp/somewhere ${FILE}`,
  `ln -s /etc/hostname ${FILE}`,
  `dd if=/dev/zero of=${FILE} count=1`,
  `truncate -s 0 ${FILE}`,
  `install -m 644 /etc/hostname ${FILE}`,
  `touch ${FILE}`,
  `cd memory && echo x >> handoff-main-auth-refactor.md`,
  `bash -lc 'echo x >> ${FILE}'`,
];

describe('shell writes of a protected handoff file', () => {
  for (const [client, shell] of Object.entries(SHELLS)) {
    it(`${client}: denied when the file is absent, naming the path and the way on`, async () => {
      const repo = makeRepo({ commit: true });
      for (const command of WRITES) {
        const reason = denial(await guard(repo, shell(repo, command)));
        expect(reason, command).toContain('handoff-main-auth-refactor.md');
        expect(reason, command).toContain('does not exist yet');
        expect(reason, command).toContain(mine);
        expect(reason, command).toContain('git handoff write');
      }
    });
  }

  it('denies a shell write to a file owned by another session, or with no marker, in every client', async () => {
    const repo = makeRepo({ commit: true });
    for (const body of [`${theirs}\n# theirs\n`, '', '# legacy\n']) {
      repo.write(FILE, body);
      for (const [client, shell] of Object.entries(SHELLS)) {
        for (const command of [`echo x >> ${FILE}`, `printf x | tee -a ${FILE}`, `python3 -c "open('${FILE}','a').write('x')"`]) {
          expect(denial(await guard(repo, shell(repo, command))), `${client}: ${command} over ${JSON.stringify(body)}`).toBeTruthy();
        }
      }
    }
  });

  it('allows a shell write to the session\'s own existing file, and reads of any handoff file', async () => {
    const repo = makeRepo({ commit: true });
    repo.write(FILE, `${mine}\n# mine\n`);
    repo.write('memory/handoff-main-login-loop.md', `${theirs}\n# theirs\n`);
    for (const [client, shell] of Object.entries(SHELLS)) {
      for (const command of [`echo more >> ${FILE}`, `printf x | tee -a ${FILE}`, `sed -i s/mine/ours/ ${FILE}`, `python3 -c "open('${FILE}','a').write('x')"`]) {
        expect(denial(await guard(repo, shell(repo, command))), `${client}: ${command}`).toBeNull();
      }
      for (const command of ['cat memory/handoff-main-login-loop.md', `python3 -c "print(open('memory/handoff-main-login-loop.md').read())"`, 'cp memory/handoff-main-login-loop.md /tmp/copy.md']) {
        expect(denial(await guard(repo, shell(repo, command))), `${client}: ${command}`).toBeNull();
      }
    }
  });

  it('the file tool with the marker still creates the file the shell may not', async () => {
    const repo = makeRepo({ commit: true });
    const w = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/${FILE}`, content: `${mine}\n# x\n` } }));
    expect(denial(w)).toBeNull();
    const c = await guard(repo, payload(repo, 'cursor/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/${FILE}`, content: `${mine}\n# x\n` } }, ME));
    expect(denial(c)).toBeNull();
  });
});
