// src/guard/rules/files.ts: one reader of the ownership marker in every client shape — a crafted line 1 (padded,
// blanks before the key, CRLF, a byte-order mark) keeps the file its owner's.
import { describe, it } from 'vitest';
import { ME, OTHER } from '../helpers';
import { expectEdit5, expectShell5, expectWrite5, world5 } from '../world-wired';

describe('one reader of the ownership marker, in every client shape', () => {
  it('a crafted line 1 (padded past 400 characters, blanks before the key, CRLF, a byte-order mark) keeps the file its owner\'s', async () => {
    const w = await world5();
    const crafted = [
      `<!-- claude-session: ${OTHER}${' '.repeat(600)}-->\n# Theirs\n`,
      `<!--${' '.repeat(500)}claude-session: ${OTHER} -->\n# Theirs\n`,
      `<!-- claude-session: ${OTHER} -->\r\n# Theirs\r\n`,
      `\uFEFF<!-- claude-session: ${OTHER} -->\n# Theirs\n`,
    ];
    const files = crafted.map((text, i) => {
      const f = `memory/handoff-main-crafted-${i}.md`;
      w.repo.write(f, text);
      return f;
    });
    await expectWrite5(w, files.map((f): [string, string] => [f, `<!-- claude-session: ${ME} -->\n# Mine\n`]), 'deny');
    await expectEdit5(w, files.map((f): [string, string, string] => [f, '# Theirs', '# Mine']), 'deny');
    await expectShell5(w, files.map((f) => `echo mine > ${f}`), 'deny');
  });
});
