// `git handoff template` and `write --template`: the sections, an edit in the git editor, and the checks without one.
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_SECTIONS, missingSections, stripTemplate, templateText } from '../../../src/handoff/store/template';
import { BIN, json, makeRepo, refOf, tempDir } from '../../helpers/repo';

const NAMES = ['Goal', 'State', 'Done', 'Ruled out', 'Next action', 'Stop conditions', 'Important files'];

describe('template', () => {
  it('prints the seven sections as markdown headings, and as JSON', async () => {
    const repo = makeRepo();
    const r = await repo.cli(['template']);
    expect(r.exitCode).toBe(0);
    expect([...String(r.stdout).matchAll(/^## (.+)$/gm)].map((m) => m[1])).toEqual(NAMES);
    const j = json(await repo.cli(['template', '--json']));
    expect(j.sections.map((s: any) => s.name)).toEqual(NAMES);
    expect(j.text).toBe(String(r.stdout) + (String(r.stdout).endsWith('\n') ? '' : '\n'));
  });

  it('write --template opens the git editor on a terminal and keeps only what was filled in', async () => {
    const repo = makeRepo({ commit: true });
    const editor = path.join(tempDir(), 'editor.sh');
    writeFileSync(
      editor,
      `#!/bin/sh\nsed -i -e 's/^<!-- First line.*-->$/Redirect loop handoff/' -e 's/^<!-- What done looks like.*-->$/No more loop./' -e 's/^<!-- The one next step.*-->$/Run the tests./' "$1"\n`,
    );
    chmodSync(editor, 0o755);
    // `script` gives the command a terminal, which is when an editor is opened.
    const t = await execa('script', ['-qec', `${BIN} write login-redirect --template --session sess-tpl-1`, '/dev/null'], {
      cwd: repo.dir,
      env: { ...repo.env, GIT_EDITOR: editor },
      extendEnv: false,
      reject: false,
    });
    expect(t.exitCode, String(t.stdout)).toBe(0);
    expect(refOf(repo, 'refs/handoffs/main/login-redirect')).not.toBeNull();
    const body = String((await repo.cli(['show', 'login-redirect', '--raw'])).stdout);
    expect(body).toBe('Redirect loop handoff\n\n## Goal\nNo more loop.\n\n## Next action\nRun the tests.');
  });

  it('write --template without a terminal or a body exits 2 and writes nothing', async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['write', 'login-redirect', '--template', '--session', 's1']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('git handoff template > notes.md');
    expect(refOf(repo, 'refs/handoffs/main/login-redirect')).toBeNull();
  });

  it('write --template -F drops unfilled hints and sections and warns about the missing ones', async () => {
    const repo = makeRepo({ commit: true });
    const filled = templateText()
      .replace(/^<!-- First line.*-->$/m, 'Cache handoff')
      .replace(/^<!-- What done looks like.*-->$/m, 'Cache the user list.')
      .replace(/^<!-- When to stop.*-->$/m, 'If the cache grows past 1 GB.');
    const r = await repo.cli(['write', 'cache-layer', '--template', '-F', '-', '--session', 's1', '--json'], { input: filled });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(json(r).warnings).toEqual(['the body has no State, Done, Ruled out, Next action, Important files sections (see `git handoff template`)']);
    expect(String((await repo.cli(['show', 'cache-layer', '--raw'])).stdout)).toBe(
      'Cache handoff\n\n## Goal\nCache the user list.\n\n## Stop conditions\nIf the cache grows past 1 GB.',
    );
  });

  it('finds sections whatever their heading level or case', () => {
    expect(missingSections('# goal\nx\n### NEXT ACTION\ny\n## Stop condition\nz\n## state:\ns')).toEqual(['Done', 'Ruled out', 'Important files']);
    expect(stripTemplate(templateText())).toBe('');
    expect(TEMPLATE_SECTIONS.map((s) => s.name)).toEqual(NAMES);
  });
});
