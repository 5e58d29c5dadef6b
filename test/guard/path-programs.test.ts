// src/guard/path-programs.ts: the programs the perimeter keeps PATH's stand-ins from are every one the sh front
// (bin/git-handoff-guard), the hook stub (git-hooks/stub.sh) and the launcher's `#!` line run by name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/repo';
import { pathProgramNames } from '../../src/guard/path-programs';

/** sh's own commands: found in no PATH directory. */
const BUILTINS = new Set(
  ['.', ':', '[', 'break', 'case', 'cd', 'command', 'continue', 'do', 'done', 'echo', 'elif', 'else', 'esac', 'eval', 'exec', 'exit', 'export', 'false', 'fi', 'for', 'if', 'in', 'local', 'printf', 'read', 'return', 'set', 'shift', 'test', 'then', 'true', 'unset', 'until', 'wait', 'while', '{', '}', '!'],
);

/** The bare words a sh script runs as commands: a word at a command's start (after its assignments), not a function of its own, not a builtin. */
function programsRun(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8')
    // comments, arithmetic, here-documents' ends and case patterns (`case $x in a | b)`, `;; c)`) are no commands
    .replace(/(^|\s)#.*$/gm, '$1')
    .replace(/\$\(\([^)]*\)\)/g, '0')
    .replace(/^EOF$/gm, '')
    .replace(/(\bcase\s+\S+\s+in|;;)\s+((?:[^\s()|]+(?:\s*\|\s*)?)+)\)/g, '$1 )');
  const own = new Set([...text.matchAll(/^\s*([A-Za-z_][\w-]*)\(\)/gm)].map((m) => m[1]));
  const out = new Set<string>();
  // a command starts a line, or follows ; & | ( { ! $( then do else exec command
  const at = /(?<=(?:^|[;&|({!]|\$\(|\bthen|\bdo|\belse|\bexec|\bcommand|\bcommand -v)\s*(?:[A-Za-z_]\w*=(?:"[^"]*"|'[^']*'|[^\s"';(]*)\s+)*)([A-Za-z][\w.-]*)(?=[\s;)]|$)/gm;
  for (const m of text.matchAll(at)) if (!own.has(m[1]) && !BUILTINS.has(m[1])) out.add(m[1]);
  return [...out].sort();
}

describe('the programs found by PATH', () => {
  it("are every program the front, the hook stub and the launcher's #! line run by name", () => {
    const names = pathProgramNames();
    const launcher = /^#!\/usr\/bin\/env (\S+)/.exec(readFileSync(path.join(ROOT, 'bin', 'git-handoff'), 'utf8'));
    expect(launcher && names).toContain(launcher![1]);
    for (const f of ['bin/git-handoff-guard', 'git-hooks/stub.sh']) {
      const run = programsRun(f);
      expect(run.length, f).toBeGreaterThan(2);
      expect(run.filter((p) => !names.includes(p)), f).toEqual([]);
    }
    // the names the clients' wiring runs the front by
    for (const b of ['git-handoff-guard', 'git-handoff-front', 'git-handoff-front-split', 'git-handoff']) expect(names).toContain(b);
  });
});
