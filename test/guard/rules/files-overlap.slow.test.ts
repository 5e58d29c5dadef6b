// Issue 14 / issue 15 bug 5: the seed overlap rule — the first two non-stopword tokens after `handoff-` (branch
// words are stopwords), a warning only on two shared tokens, naming both and the dropped stopwords, said to the
// model and to the person in each client's own fields, never a block; the CLI's topic warning follows the same rule.
import { describe, expect, it } from 'vitest';
import { json, makeRepo, type TestRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload } from '../helpers';

const mine = `<!-- claude-session: ${ME} -->`;
const theirs = `<!-- claude-session: ${OTHER} -->`;
const NEW = 'memory/handoff-main-search-index-rewrite.md';
const patch = (file: string) => `*** Begin Patch\n*** Add File: ${file}\n+${mine}\n+# x\n*** End Patch`;

/** A new protected file written with each client's file tool, and where each puts the model's and the person's text. */
const CLIENTS: Array<[string, (repo: TestRepo, file: string) => Record<string, unknown>, (a: any) => { model?: string; person?: string }]> = [
  [
    'Claude Code',
    (repo, file) => payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/${file}`, content: `${mine}\n# x\n` } }),
    (a) => ({ model: a?.hookSpecificOutput?.additionalContext, person: a?.systemMessage }),
  ],
  [
    'Gemini CLI',
    (repo, file) => payload(repo, 'gemini-cli/before-tool-write-file.json', { tool_input: { file_path: `${repo.dir}/${file}`, content: `${mine}\n# x\n` } }),
    // BeforeTool has no model-visible context in Gemini CLI: the person sees it, and AfterTool context reaches the model
    (a) => ({ model: a?.systemMessage, person: a?.systemMessage }),
  ],
  ['Codex', (repo, file) => payload(repo, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: patch(file) } }), (a) => ({ model: a?.hookSpecificOutput?.additionalContext, person: a?.systemMessage })],
  [
    'Cursor',
    (repo, file) => payload(repo, 'cursor/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/${file}`, content: `${mine}\n# x\n` } }),
    (a) => ({ model: a?.agent_message, person: a?.user_message }),
  ],
];

describe('the overlap warning (seed rule)', () => {
  for (const [client, write, said] of CLIENTS) {
    it(`${client}: warns on two shared tokens across branch words, to the model and the person, never blocking`, async () => {
      const repo = makeRepo({ commit: true });
      repo.write('memory/handoff-feat-search-index-v1.md', `${theirs}\n# v1\n`);
      const r = await guard(repo, write(repo, NEW));
      expect(denial(r)).toBeNull();
      const { model, person } = said(r.answer);
      for (const text of [model, person]) {
        expect(text).toContain('overlaps handoff-feat-search-index-v1.md');
        expect(text).toContain('"search" and "index"');
        expect(text).toMatch(/stopwords "main", "feat"|stopwords "feat", "main"/);
      }
    });

    it(`${client}: says nothing on one shared token (test-pass beside docs-pass, refactor-auth beside auth-login)`, async () => {
      const repo = makeRepo({ commit: true });
      repo.write('memory/handoff-main-docs-pass.md', `${theirs}\n# docs\n`);
      repo.write('memory/handoff-main-auth-login.md', `${theirs}\n# auth\n`);
      for (const file of ['memory/handoff-main-test-pass.md', 'memory/handoff-main-refactor-auth.md', 'memory/handoff-main-login-auth.md']) {
        const r = await guard(repo, write(repo, file));
        expect(r.stdout, `${client}: ${file}`).toBe('');
      }
    });
  }
});

describe('the CLI overlap warning (issue 15 bug 5)', () => {
  it('warns only on two shared tokens, naming them and the dropped stopwords', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'docs-pass', '--session', OTHER, '-m', 'x'])).exitCode).toBe(0);
    expect((await repo.cli(['write', 'auth-login', '--session', OTHER, '-m', 'x'])).exitCode).toBe(0);
    const quiet = await repo.cli(['write', 'test-pass', '--session', ME, '-m', 'y', '--json']);
    expect(quiet.exitCode).toBe(0);
    expect(json(quiet).warnings ?? []).toEqual([]);
    const one = await repo.cli(['write', 'refactor-auth', '--session', ME, '-m', 'y']);
    expect(one.stderr).not.toMatch(/overlap/);
    const two = await repo.cli(['write', 'refactor-auth-login-flow', '--session', ME, '-m', 'y']);
    expect(two.exitCode).toBe(0);
    expect(two.stderr).toContain('overlaps "auth-login"');
    expect(two.stderr).toContain('"auth" and "login"');
    expect(two.stderr).toContain('stopwords "refactor"');
  });
});
