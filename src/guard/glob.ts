// Glob matching for the rules (find -name, git pathspecs), linear in practice and total: no pattern is compiled
// into a regular expression, so no pattern can throw or backtrack without bound.

/** Whether `text` matches the glob `pattern`: `*` any run (slashes too, as git's pathspecs), `?` one character; a
 *  bracket expression `[…]` counts as any one character (wider than the shell: a guard may over-match, never under). */
export function globMatch(pattern: string, text: string): boolean {
  const p = collapse(pattern);
  let pi = 0;
  let ti = 0;
  let star = -1;
  let mark = 0;
  while (ti < text.length) {
    const tok = p[pi];
    if (tok !== undefined && tok !== '*' && (tok === '?' || tok === '[]' || tok === text[ti])) {
      pi++;
      ti++;
    } else if (tok === '*') {
      star = pi++;
      mark = ti;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++mark;
    } else return false;
  }
  while (p[pi] === '*') pi++;
  return pi === p.length;
}

/** The pattern as tokens: one character, `*` (runs of stars are one), `?`, or `[]` for a bracket expression. */
function collapse(pattern: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if ('?*+@!'.includes(c) && pattern[i + 1] === '(') {
      // an extglob group (bash -O extglob): any run, wider than the shell (a guard may over-match, never under)
      let depth = 0;
      for (i++; i < pattern.length; i++) {
        if (pattern[i] === '(') depth++;
        else if (pattern[i] === ')' && --depth === 0) break;
      }
      if (out[out.length - 1] !== '*') out.push('*');
    } else if (c === '\\' && i + 1 < pattern.length) out.push(pattern[++i]);
    else if (c === '*') {
      if (out[out.length - 1] !== '*') out.push('*');
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) out.push('[');
      else {
        out.push('[]');
        i = end;
      }
    } else out.push(c);
  }
  return out;
}

/** Whether a string holds glob characters. */
export const isGlob = (s: string) => /[*?[]/.test(s);
