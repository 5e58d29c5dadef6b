// One reader of a handoff file's ownership marker for the guard and `import` (issue 37): a crafted line 1 (long,
// spaces, CRLF, a byte-order mark) names the same owner to both, and the guard refuses the file to any other session.
import { describe, expect, it } from 'vitest';
import { markerOf as guardMarkerOf } from '../../../src/guard/rules/files';
import { markerOf, parseMarker } from '../../../src/handoff/import/seed-file';
import { planImport } from '../../../src/handoff/import/import';
import { openRepo } from '../../../src/git/repo';
import { makeRepo } from '../../helpers/repo';
import { denial, guard, ME, OTHER, payload } from '../helpers';
import { inProcess } from '../spellings';

const FILE = 'memory/handoff-main-login-redirect-loop.md';

/** Line 1 spellings, each with the owner both readers must see (null: no marker). */
const CRAFTED: Array<[string, string, string | null]> = [
  ['a marker line longer than 400 characters', `<!-- claude-session: ${OTHER}${' '.repeat(600)}-->\n# Login\n`, OTHER],
  ['blanks before the key past 400 characters', `<!--${' '.repeat(500)}claude-session: ${OTHER} -->\n# Login\n`, OTHER],
  ['an id with a space inside', `<!-- claude-session: ${OTHER} extra -->\n# Login\n`, `${OTHER} extra`],
  ['an empty id', `<!-- claude-session: -->\n# Login\n`, ''],
  ['CRLF line ends', `<!-- claude-session: ${OTHER} -->\r\n# Login\r\n`, OTHER],
  ['a byte-order mark', `\uFEFF<!-- claude-session: ${OTHER} -->\n# Login\n`, OTHER],
  ['tabs around the id and after the marker', `<!--\tclaude-session:\t${OTHER}\t-->\t\n# Login\n`, OTHER],
];

/** What `import` reads as the owner of `text` (its plan), or the error it gives. */
function importOwner(dir: string, text: string, put: (f: string, t: string) => void): string {
  put(FILE, text);
  try {
    return planImport(openRepo(dir), [`${dir}/${FILE}`], { session: null as any })[0].owner.id;
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

describe('the ownership marker: one reader', () => {
  it('the guard reads the marker with the same function as import', () => {
    expect(guardMarkerOf).toBe(markerOf);
    expect(parseMarker(`<!-- claude-session: ${ME} -->`)).toBe(ME);
    expect(parseMarker('<!-- claude-session -->')).toBeNull();
    expect(parseMarker('<!--->')).toBeNull();
    expect(parseMarker(`x <!-- claude-session: ${ME} -->`)).toBeNull();
    // a line of a million blanks is read in one pass (no backtracking expression over it)
    expect(markerOf(`<!-- claude-session: ${' '.repeat(1_000_000)}x`)).toBeNull();
  });

  it('every crafted line 1: guard and import name the same owner, and another session may not write the file', async () => {
    const repo = makeRepo({ commit: true });
    const abs = `${repo.dir}/${FILE}`;
    const wrong: string[] = [];
    for (const [what, text, owner] of CRAFTED) {
      if (markerOf(text) !== owner) wrong.push(`${what}: read ${JSON.stringify(markerOf(text))}`);
      const imported = importOwner(repo.dir, text, (f, t) => repo.write(f, t));
      // import keeps a valid owner, and refuses an id that is no valid session id (never reads it as no marker)
      if (owner === OTHER ? imported !== OTHER : !/^error: .*claude-session marker/.test(imported)) wrong.push(`${what}: import read ${imported}`);
      // the guard: the file is another session's (or names an owner that is no valid session): ME may not change it
      const calls = [
        payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: abs, content: `<!-- claude-session: ${ME} -->\n# Mine\n` } }),
        payload(repo, 'claude-code/pre-tool-use-edit.json', { tool_input: { file_path: abs, old_string: '# Login', new_string: '# Mine' } }),
      ];
      for (const p of calls) {
        const r = await inProcess('claude-code', p);
        if (r.verdict !== 'deny' || !/belongs to (session|another session)/.test(r.reason)) wrong.push(`${what}: ${r.verdict} ${r.reason.slice(0, 120)}`);
      }
      // its owner (a valid one) still may
      if (owner === OTHER) {
        const own = await inProcess('claude-code', payload(repo, 'claude-code/pre-tool-use-edit.json', { tool_input: { file_path: abs, old_string: '# Login', new_string: '# Login v2' } }, OTHER));
        if (own.verdict !== 'allow') wrong.push(`${what}: its owner was refused: ${own.reason.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('through the real guard command: a padded marker keeps the file its owner\'s', async () => {
    const repo = makeRepo({ commit: true });
    repo.write(FILE, CRAFTED[0][1]);
    const write = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/${FILE}`, content: `<!-- claude-session: ${ME} -->\n# Mine\n` } }));
    expect(denial(write)).toMatch(/belongs to session/);
  });

  it('a Write whose own line 1 is a crafted marker is read the same way', async () => {
    const repo = makeRepo({ commit: true });
    const write = (content: string) => inProcess('claude-code', payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/${FILE}`, content } }));
    // ME claiming the file with its own marker padded past 400 characters is ME's marker, not a missing one
    expect((await write(`<!-- claude-session: ${ME}${' '.repeat(600)}-->\n# Mine\n`)).verdict).toBe('allow');
    // a padded marker naming another session is that session's, refused as such
    expect((await write(`<!-- claude-session: ${OTHER}${' '.repeat(600)}-->\n# Mine\n`)).reason).toMatch(/names session/);
    expect((await write(`<!-- claude-session: ${ME} x -->\n# Mine\n`)).reason).toMatch(/no valid session id/);
  });
});
