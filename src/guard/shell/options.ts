// A command's arguments as its own option parser reads them: long options in any abbreviation, short options in
// clusters, `--`, option values (getopt, optionValue), and find's expression (findParts).

/** Whether `a` is the long option `full`, spelled whole or abbreviated to 3+ characters, with or without `=value`. */
export const isLong = (a: string, full: string) => {
  const name = a.split('=', 1)[0];
  return a.startsWith('--') && name.length >= 3 && full.startsWith(name);
};

/** Whether one of the `short` letters (alone or in a cluster) or one of the `long` options (whole or abbreviated, valued or not) is given. */
export const given = (o: Pick<Options, 'flags' | 'all'>, short: string, ...long: string[]): boolean =>
  [...short].some((c) => o.flags.includes(`-${c}`) || o.all(`-${c}`).length > 0) || long.some((l) => o.all(l).length > 0 || o.flags.some((f) => isLong(f, l)));

/**
 * A command's operands and option values as getopt reads them: `short` letters and `long` options that take a value
 * (in a cluster the letter takes the rest, or the next argument), `--` ending the options, options after operands.
 */
export function getopt(args: string[], short: string, long: string[] = []) {
  const operands: string[] = [];
  // every option value in the order given: the last of several spellings is the one a program keeps
  const given: Array<[string, string]> = [];
  const flags: string[] = [];
  // how many operands come before `--` (-1: none given)
  let dashdash = -1;
  const put = (k: string, v: string | undefined) => v !== undefined && given.push([k, v]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      dashdash = operands.length;
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a === '-' || !a.startsWith('-')) operands.push(a);
    else if (a.startsWith('--')) {
      const full = long.find((l) => isLong(a, l));
      if (full === undefined) flags.push(a);
      else put(full, a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i]);
    } else {
      for (let k = 1; k < a.length; k++) {
        if (!short.includes(a[k])) {
          flags.push(`-${a[k]}`);
          continue;
        }
        put(`-${a[k]}`, a.slice(k + 1) || args[++i]);
        break;
      }
    }
  }
  /** the values given to any of `keys`, in the order given */
  const all = (...keys: string[]) => given.filter(([k]) => keys.includes(k)).map(([, v]) => v);
  return { operands, flags, dashdash, all };
}

type Options = ReturnType<typeof getopt>;

/** Whether an option word takes the next word as its value: one of `valued`, or a cluster whose first valued letter ends it (`xargs -0a FILE`, `sudo -nu USER`). */
export function takesNext(word: string, valued: ReadonlySet<string>): boolean {
  if (valued.has(word)) return true;
  if (!/^-[^-]/.test(word)) return false;
  for (let k = 1; k < word.length; k++) if (valued.has(`-${word[k]}`)) return k === word.length - 1;
  return false;
}

/** The index of the first operand in `args` from `from` on, for a program that reads its options before its operands (`--` ends them). */
export function firstOperand(args: string[], valued: ReadonlySet<string>, from = 0): number {
  let k = from;
  while (k < args.length && args[k].startsWith('-') && args[k] !== '-') {
    if (args[k] === '--') return k + 1;
    k += takesNext(args[k], valued) ? 2 : 1;
  }
  return k;
}

/** The short options `-x` of each letter. */
export const shortOptions = (letters: string): Set<string> => new Set([...letters].map((c) => `-${c}`));

/** getopt of the options in `valued` (`-m`, `--repo`: whole, in a cluster or abbreviated), short and long in one list. */
export function options(args: string[], valued: Iterable<string>) {
  const all = [...valued];
  const short = all.filter((o) => /^-[^-]$/.test(o)).map((o) => o[1]);
  return getopt(args, short.join(''), all.filter((o) => o.startsWith('--')));
}

/** The operands of `args`, the value of each option in `valued` skipped. */
export const operands = (args: string[], valued: Iterable<string> = []): string[] => options(args, valued).operands;

/** find's starting points, what it deletes or runs, the files it writes (-fprint…), and the names narrowing a delete. */
export function findParts(args: string[]): { roots: string[]; acts: boolean; writes: string[]; names: string[] | null; namesListed: string[] | null } {
  let i = 0;
  // options before the starting points (-H -L -P -D <opts> -O<level>) and `--`
  for (; i < args.length; i++) {
    if (args[i] === '-D') i++;
    else if (args[i] === '--') {
      i++;
      break;
    } else if (!/^-([HLP]|O\d*)$/.test(args[i])) break;
  }
  const roots: string[] = [];
  for (; i < args.length && !args[i].startsWith('-') && args[i] !== '(' && args[i] !== '!'; i++) roots.push(args[i]);
  const expr = args.slice(i);
  const ACTS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir']);
  const writes = expr.flatMap((a, k) => (/^-f(print0?|printf|ls)$/.test(a) && expr[k + 1] !== undefined ? [expr[k + 1]] : []));
  const first = expr.findIndex((a) => ACTS.has(a));
  // only a conjunction of tests before the action narrows what goes, by a -name not negated (-o, groups, commas: nothing)
  const before = first < 0 ? [] : expr.slice(0, first);
  const plain = !before.some((a) => /^(-o|-or|\(|\)|,)$/.test(a)) && !expr.slice(first + 1).some((a) => /^(-o|-or|,)$/.test(a));
  const nameTests = (tests: string[]) => {
    const kept = (k: number) => tests[k + 1] !== undefined && !/^(!|-not)$/.test(tests[k - 1] ?? '');
    return tests.flatMap((a, k) => (a === '-name' && kept(k) ? [tests[k + 1]] : a === '-iname' && kept(k) ? [`${tests[k + 1]}\0i`] : []));
  };
  const names = plain ? nameTests(before) : [];
  // what it lists (-print, or no action): narrowed the same way, by the whole expression
  const listed = expr.some((a) => /^(-o|-or|\(|\)|,)$/.test(a)) ? [] : nameTests(expr);
  return { roots: roots.length ? roots : ['.'], acts: first >= 0, writes, names: names.length ? names : null, namesListed: listed.length ? listed : null };
}

/** The value of an option given as `-o X`, `-oX`, `--output X` or `--output=X` (the last one given), or undefined. */
export const optionValue = (args: string[], names: string[]): string | undefined => options(args, names).all(...names).pop();
