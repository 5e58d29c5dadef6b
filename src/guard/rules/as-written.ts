// A refused command is quoted as the tool call wrote it, so that it reads (and runs) as written: the segment of the
// shell line it came from (`$(git rev-parse HEAD)` stays, quotes are kept), found by splitting the line at its
// top-level separators and reading each part back with the same tokenizer. Else its words, each a shell word.
import { shellWord } from '../event';
import { gitInvocation, parseShell, type GitInvocation } from '../shell';

/** The line's parts between top-level `;` `&` `|` `&&` `||` and newlines (quotes, escapes, `$(…)`, backquotes and parentheses respected). */
function segments(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  let depth = 0;
  let quote: '"' | "'" | '`' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '$' && line[i + 1] === '(') {
        depth++;
        i++;
      } else if (c === ')' && depth > 0) depth--;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (depth === 0 && (c === ';' || c === '&' || c === '|' || c === '\n')) {
      out.push(line.slice(start, i));
      while (line[i + 1] === '&' || line[i + 1] === '|') i++;
      start = i + 1;
    }
  }
  out.push(line.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

const same = (a: GitInvocation, b: GitInvocation) => a.sub === b.sub && a.args.length === b.args.length && a.args.every((x, i) => x === b.args[i]);

/** `inv` as written in `line` (the tool call's shell command), else rebuilt from its words. */
export function asWritten(line: string | null | undefined, inv: GitInvocation, cwd = '/'): string {
  if (line && line.length <= 20_000) {
    for (const seg of segments(line)) {
      try {
        if (parseShell(seg, cwd).some((c) => {
          const g = gitInvocation(c);
          return g !== null && same(g, inv);
        })) return seg.replace(/^\(+\s*|\s*\)+$/g, '');
      } catch {
        // a part that does not parse alone: the next
      }
    }
  }
  return `git ${inv.sub} ${inv.args.map(shellWord).join(' ')}`.trim();
}
