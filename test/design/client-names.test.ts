// Clients as data (issue 71): a client is named only under src/clients/, where its record is; everything else asks the
// records (a field, a function of src/clients/). The check reads every src/**/*.ts outside src/clients/, comments
// included, for each name a record spells: its id (`claude-code`), its `install --agent` name (`claude`) and its
// session variable (`CLAUDE_CODE_SESSION_ID`), as a word of its own (`.claude/`, `claude-session` and
// `claudePlugins` are other words). The generated bin/ fronts are built from the records, so they are not read.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_RECORDS } from '../../src/clients/records';

const SRC = path.join(__dirname, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

const NAMES = [...new Set(ALL_RECORDS.flatMap((r) => [r.name, r.agent, r.sessionVar]).filter((n): n is string => !!n))];
const NAMED = new RegExp(`(?<![\\w.$-])(${NAMES.join('|')})(?![\\w-])`, 'g');

/** Each client name in `text`, as `line: name`. */
function namesIn(text: string): string[] {
  return text.split('\n').flatMap((line, i) => [...line.matchAll(NAMED)].map((m) => `${i + 1}: ${m[1]}`));
}

describe('a client is named only where its record is', () => {
  it('no file outside src/clients/ spells a client name', () => {
    const over: string[] = [];
    for (const file of sources(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      if (rel.startsWith('clients/')) continue;
      over.push(...namesIn(readFileSync(file, 'utf8')).map((f) => `src/${rel}:${f}`));
    }
    expect(over).toEqual([]);
  });

  it('the check finds an id, an agent name and a session variable, in code and comments (it can fail)', () => {
    expect(namesIn("if (client === 'gemini-cli') run('claude');\n// CODEX_THREAD_ID is Codex's")).toEqual(['1: gemini-cli', '1: claude', '2: CODEX_THREAD_ID']);
    expect(namesIn("const dir = '.claude/settings.json'; // a <!-- claude-session: ID --> line; claudePlugins(cwd)")).toEqual([]);
  });
});
