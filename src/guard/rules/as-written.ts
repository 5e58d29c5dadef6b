// A refused command is quoted as the tool call wrote it: the segment of the line it came from, read back with the same
// tokenizer; else its words, each a shell word.
import { shellWord } from '../../terminal-text';
import type { SimpleCommand } from '../shell/command';
import { gitInvocation, type GitInvocation } from '../shell/git';
import { parseShell } from '../shell/parse';

/** Walks `line` outside quotes and escapes with each character's parenthesis depth; `visit` returning true stops it. */
function walk(line: string, visit: (i: number, c: string, depth: number) => boolean | void): void {
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
    if (visit(i, c, depth)) return;
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
  }
}

/** The line's parts between top-level `;` `&` `|` `&&` `||` and newlines (quotes, escapes, `$(…)`, backquotes and parentheses respected). */
function segments(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  let skip = -1;
  walk(line, (i, c, depth) => {
    if (i <= skip) return;
    if (depth === 0 && (c === ';' || c === '&' || c === '|' || c === '\n')) {
      out.push(line.slice(start, i));
      skip = i;
      while (line[skip + 1] === '&' || line[skip + 1] === '|') skip++;
      start = skip + 1;
    }
  });
  out.push(line.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** A part without the subshell parentheses around all of it, and only those: `$(…)` inside stays whole. */
function unwrapSubshell(seg: string): string {
  let s = seg;
  for (;;) {
    if (!s.startsWith('(') || !s.endsWith(')')) return s;
    let close = -1;
    walk(s, (i, c, depth) => {
      if (c === ')' && depth === 1) {
        close = i;
        return true;
      }
    });
    if (close !== s.length - 1) return s;
    s = s.slice(1, -1).trim();
  }
}

const same = (a: GitInvocation | null, b: GitInvocation) => a !== null && a.sub === b.sub && a.args.length === b.args.length && a.args.every((x, i) => x === b.args[i]);

/** A line the caller already read, as parseShell(line, cwd) gave it: not read again when a part is all of it. */
export interface ReadLine {
  line: string;
  cwd: string | null;
  cmds: SimpleCommand[];
}

/** `inv` as written in `line` (the tool call's shell command), else rebuilt from its words. */
export function asWritten(line: string | null | undefined, inv: GitInvocation, cwd = '/', read?: ReadLine): string {
  if (line && line.length <= 20_000) {
    for (const seg of segments(line)) {
      try {
        // the first look's one-command line, already read
        const cmds = read !== undefined && seg === read.line && cwd === read.cwd ? read.cmds : parseShell(seg, cwd);
        if (cmds.some((c) => same(gitInvocation(c), inv))) return unwrapSubshell(seg);
      } catch {
        // a part that does not parse alone: the next
      }
    }
  }
  return `git ${inv.sub} ${inv.args.map(shellWord).join(' ')}`.trim();
}
