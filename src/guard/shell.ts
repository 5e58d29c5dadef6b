// A shell command line as the simple commands it runs: tokenized by shell-quote, with nested `sh -c`,
// wrappers (env, sudo, xargs, timeout…), `cd` tracking, subshells and $(…) / `…`, heredoc bodies skipped.
import path from 'node:path';
import { parse, type ParseEntry } from 'shell-quote';

export interface Redirect {
  op: string;
  target: string;
}

export interface SimpleCommand {
  /** program and arguments, wrappers and VAR=value assignments removed */
  argv: string[];
  /** VAR=value assignments in front of the command */
  assigns: Record<string, string>;
  /** the directory it runs in, when known (after `cd` steps of the same line) */
  cwd: string | null;
  redirects: Redirect[];
  /** arguments are also read from stdin (xargs) */
  xargs: boolean;
}

const SEPARATORS = new Set([';', '&&', '||', '|', '|&', '&', '(', ')', ';;', '<(', '>(']);
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>']);
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish']);
// Words that open or close a compound command; the simple command follows them (`{ git …; }`, `then git …`).
const RESERVED = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until']);
const MAX_DEPTH = 4;

/** Turns unquoted newlines into `;`, drops heredoc bodies, and appends backtick bodies as their own commands. */
export function normalizeScript(script: string): string {
  const lines = script.split('\n');
  const out: string[] = [];
  const extra: string[] = [];
  let heredoc: { word: string; strip: boolean } | null = null;
  let quote: '"' | "'" | null = null;
  let current = '';
  for (const line of lines) {
    if (heredoc) {
      if ((heredoc.strip ? line.replace(/^\t+/, '') : line) === heredoc.word) heredoc = null;
      continue;
    }
    let continued = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '\\' && quote !== "'") {
        // A backslash before the newline joins the next line to this one (a line continuation).
        if (i === line.length - 1) continued = true;
        i++;
      } else if (quote) {
        if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) break;
    }
    // Substitutions run even inside double quotes, where the tokenizer keeps them as text.
    for (const m of line.matchAll(/`([^`]*)`|\$\(([^()]*)\)/g)) extra.push(m[1] ?? m[2]);
    if (continued) {
      current += line.slice(0, -1);
      continue;
    }
    if (quote) {
      current += line + '\n';
      continue;
    }
    current += line;
    const h = /<<(-?)\s*(['"]?)([A-Za-z_][\w-]*)\2/.exec(line);
    if (h) heredoc = { word: h[3], strip: h[1] === '-' };
    out.push(current);
    current = '';
  }
  if (current) out.push(current);
  return [...out.map((l) => l.replace(/`[^`]*`?/g, ' ')), ...extra].join(' ; ');
}

const keepVar = (name: string) => `$${name}`;

/** The simple commands a script runs, in order. */
export function parseShell(script: string, cwd: string | null = null, depth = 0): SimpleCommand[] {
  let entries: ParseEntry[];
  try {
    entries = parse(normalizeScript(script), keepVar);
  } catch {
    entries = script.split(/\s+/).filter(Boolean);
  }
  const out: SimpleCommand[] = [];
  let words: string[] = [];
  let redirects: Redirect[] = [];
  let pending: string | null = null;
  const outer: Array<{ words: string[]; redirects: Redirect[] }> = [];
  let dir = cwd;
  const flush = () => {
    if (words.length || redirects.length) {
      const cmds = unwrap(words, redirects, dir, depth);
      for (const c of cmds) {
        out.push(c);
        if (c.argv[0] === 'cd' || c.argv[0] === 'pushd') dir = changeDir(dir, c.argv[1]);
      }
    }
    words = [];
    redirects = [];
  };
  for (const e of entries) {
    if (typeof e === 'string') {
      if (pending) {
        redirects.push({ op: pending, target: e });
        pending = null;
      } else words.push(e);
      continue;
    }
    if ('comment' in e) continue;
    if ('pattern' in e && e.op === 'glob') {
      if (pending) {
        redirects.push({ op: pending, target: e.pattern });
        pending = null;
      } else words.push(e.pattern);
      continue;
    }
    const op = (e as { op: string }).op;
    // `$(` … `)`: the substitution is a command of its own, and the command around it goes on after the `)`
    // with a `$` standing for its output (so `$(which git) update-ref …` stays one command).
    if (op === '(' && !pending && words[words.length - 1] === '$') {
      outer.push({ words, redirects });
      words = [];
      redirects = [];
      continue;
    }
    if (op === ')' && outer.length) {
      pending = null;
      flush();
      ({ words, redirects } = outer.pop()!);
      continue;
    }
    if (SEPARATORS.has(op)) {
      pending = null;
      flush();
      continue;
    }
    // A bare file-descriptor number right before a redirect belongs to the redirect.
    if (words.length && /^\d$/.test(words[words.length - 1])) words.pop();
    pending = op;
  }
  flush();
  // An unclosed `$(` still runs what came before it.
  while (outer.length) {
    ({ words, redirects } = outer.pop()!);
    flush();
  }
  return out;
}

function changeDir(dir: string | null, to: string | undefined): string | null {
  if (!to || to === '-' || to.startsWith('$') || to.startsWith('~')) return null;
  if (path.isAbsolute(to)) return to;
  return dir ? path.resolve(dir, to) : null;
}

const takesValue: Record<string, Set<string>> = {
  env: new Set(['-u', '--unset', '-C', '--chdir', '-S', '--split-string']),
  sudo: new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U']),
  nice: new Set(['-n', '--adjustment']),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  xargs: new Set(['-I', '-i', '-n', '-P', '-L', '-l', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--replace']),
  stdbuf: new Set(['-i', '-o', '-e']),
};

/** Strips assignments and wrapper programs; expands `sh -c '<script>'` into its own commands. */
function unwrap(words: string[], redirects: Redirect[], cwd: string | null, depth: number): SimpleCommand[] {
  const assigns: Record<string, string> = {};
  let xargs = false;
  let i = 0;
  let dir = cwd;
  for (;;) {
    while (i < words.length && RESERVED.has(words[i])) i++;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) {
      const eq = words[i].indexOf('=');
      assigns[words[i].slice(0, eq)] = words[i].slice(eq + 1);
      i++;
    }
    const prog = words[i] !== undefined ? path.basename(words[i]) : undefined;
    if (prog && ['env', 'sudo', 'nohup', 'time', 'command', 'exec', 'nice', 'timeout', 'xargs', 'stdbuf', 'builtin', 'doas'].includes(prog)) {
      i++;
      if (prog === 'xargs') xargs = true;
      const valued = takesValue[prog] ?? new Set<string>();
      while (i < words.length && words[i].startsWith('-') && words[i] !== '--') {
        if ((prog === 'env' && (words[i] === '-C' || words[i] === '--chdir')) && words[i + 1]) dir = changeDir(dir, words[i + 1]);
        if (valued.has(words[i])) i++;
        i++;
      }
      if (words[i] === '--') i++;
      if (prog === 'timeout' && /^\d/.test(words[i] ?? '')) i++;
      continue;
    }
    break;
  }
  const argv = words.slice(i);
  const prog = argv[0] !== undefined ? path.basename(argv[0]) : '';
  // `eval word…` runs its words, joined, as a script.
  if (prog === 'eval' && depth < MAX_DEPTH && argv.length > 1) {
    return [...parseShell(argv.slice(1).join(' '), dir, depth + 1), { argv: [], assigns, cwd: dir, redirects, xargs }];
  }
  // A program named by an expansion (`$SHELL -c …`, `$GIT …`) may be a shell or git: it is read as one.
  if ((SHELLS.has(prog) || argv[0]?.startsWith('$')) && depth < MAX_DEPTH) {
    const c = argv.findIndex((a, k) => k > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
    if (c > 0 && argv[c + 1] !== undefined) {
      const inner = parseShell(argv[c + 1], dir, depth + 1);
      return [...inner, { argv: [], assigns, cwd: dir, redirects, xargs }];
    }
  }
  return [{ argv, assigns, cwd: dir, redirects, xargs }];
}

export interface GitInvocation {
  sub: string;
  args: string[];
  /** -C directories applied to the command's cwd */
  cwd: string | null;
  gitDir: string | null;
  /** `-c name=value` settings given for this one command */
  config?: string[];
}

const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix', '--list-cmds']);

/** `git [global options] <sub> <args>` (or `git-<sub>`), null for anything else. */
export function gitInvocation(cmd: SimpleCommand): GitInvocation | null {
  const prog = cmd.argv[0] ? path.basename(cmd.argv[0]) : '';
  if (prog.startsWith('git-') && prog.length > 4) return { sub: prog.slice(4), args: cmd.argv.slice(1), cwd: cmd.cwd, gitDir: null };
  if (prog !== 'git' && !cmd.argv[0]?.startsWith('$')) return null;
  let cwd = cmd.cwd;
  let gitDir: string | null = cmd.assigns.GIT_DIR ?? null;
  const config: string[] = [];
  let i = 1;
  while (i < cmd.argv.length && cmd.argv[i].startsWith('-')) {
    const a = cmd.argv[i];
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const value = eq > 0 ? a.slice(eq + 1) : GIT_VALUED.has(name) ? cmd.argv[i + 1] : undefined;
    if (name === '-C' && value !== undefined) cwd = path.isAbsolute(value) ? value : cwd ? path.resolve(cwd, value) : null;
    if (name === '--git-dir' && value !== undefined) gitDir = value;
    if (name === '-c' && value !== undefined) config.push(value);
    i += GIT_VALUED.has(name) && eq < 0 ? 2 : 1;
  }
  if (i >= cmd.argv.length) return null;
  return { sub: cmd.argv[i], args: cmd.argv.slice(i + 1), cwd, gitDir, config };
}

export type TargetKind = 'write' | 'append' | 'delete';

export interface WriteTarget {
  path: string;
  kind: TargetKind;
  /** the directory the path is relative to, when known */
  cwd: string | null;
  /** a deleted directory: only entries whose name matches one of these globs go (find -name), all when absent */
  names?: string[];
}

const nonOptions = (args: string[]) => {
  const out: string[] = [];
  let opts = true;
  for (const a of args) {
    if (opts && a === '--') opts = false;
    else if (opts && a.startsWith('-') && a !== '-') continue;
    else out.push(a);
  }
  return out;
};

/** Files a simple command writes, appends to or deletes (redirects, tee, sed -i, cp/mv, rm, touch, dd…). */
export function writeTargets(cmd: SimpleCommand): WriteTarget[] {
  const t: WriteTarget[] = [];
  const add = (p: string | undefined, kind: TargetKind) => {
    if (p && !/^&?\d+$/.test(p) && p !== '/dev/null' && !p.startsWith('/dev/std')) t.push({ path: p, kind, cwd: cmd.cwd });
  };
  for (const r of cmd.redirects) if (WRITE_REDIRECTS.has(r.op) || r.op === '>&') add(r.target, r.op.endsWith('>>') ? 'append' : 'write');
  const [p0, ...args] = cmd.argv;
  const prog = p0 ? path.basename(p0) : '';
  switch (prog) {
    case 'tee': {
      const append = args.some((a) => a === '-a' || a === '--append');
      for (const f of nonOptions(args)) add(f, append ? 'append' : 'write');
      break;
    }
    case 'sed':
    case 'perl': {
      if (!args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) break;
      const scripted = args.some((a) => a === '-e' || a === '-f' || a === '--expression' || /^-[a-zA-Z]*[ef]$/.test(a));
      const files = nonOptions(args.filter((a, k) => !(k > 0 && /^(-e|-f|--expression|-[a-zA-Z]*[ef])$/.test(args[k - 1]))));
      for (const f of scripted ? files : files.slice(1)) add(f, 'write');
      break;
    }
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
    case 'rsync': {
      const tIdx = args.findIndex((a) => a === '-t' || a.startsWith('--target-directory'));
      const files = nonOptions(args.filter((a, k) => !(k > 0 && args[k - 1] === '-t')));
      if (tIdx >= 0) {
        const dir = args[tIdx].includes('=') ? args[tIdx].split('=')[1] : args[tIdx + 1];
        for (const f of files) add(path.join(dir ?? '.', path.basename(f)), 'write');
      } else if (files.length >= 2) {
        add(files[files.length - 1], 'write');
        for (const f of files.slice(0, -1)) {
          // Copying into a directory lands on <dir>/<basename>.
          add(path.join(files[files.length - 1], path.basename(f)), 'write');
          if (prog === 'mv') add(f, 'delete');
        }
      }
      break;
    }
    case 'rm':
    case 'unlink':
    case 'shred':
      for (const f of nonOptions(args)) add(f, 'delete');
      break;
    case 'truncate':
    case 'touch':
      for (const f of nonOptions(args.filter((a, k) => !(k > 0 && (args[k - 1] === '-s' || args[k - 1] === '-r'))))) add(f, 'write');
      break;
    case 'dd':
      for (const a of args) if (a.startsWith('of=')) add(a.slice(3), 'write');
      break;
    case 'find': {
      // `find <paths> … -delete` or `-exec …` may remove anything under its starting paths.
      if (!args.some((a) => a === '-delete' || a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir')) break;
      // `-name <glob>` narrows what goes (a negated one narrows nothing).
      const names = args.flatMap((a, k) => (/^-i?name$/.test(a) && args[k + 1] !== undefined && !/^(!|-not)$/.test(args[k - 1] ?? '') ? [args[k + 1]] : []));
      for (const a of args) {
        if (a.startsWith('-') || a === '(' || a === '!') break;
        add(a, 'delete');
        if (names.length) t[t.length - 1].names = names;
      }
      break;
    }
  }
  return t;
}
