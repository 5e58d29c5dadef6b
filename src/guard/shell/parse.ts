// A shell command line as the simple commands it runs, in order: ./lex.ts's tokens split at the separators, each
// command unwrapped, what its values and the scripts written or piped on the line run read, `cd` followed.
import { lex, type Token } from './lex';
import { hereDocument, MAX_DEPTH, type Redirect, type SimpleCommand } from './command';
import { changeDir, dirOperand } from './dirs';
import { runValueCommands, setsForLine } from './values';
import { literalOutput, pathAt, recordWrites, writtenScriptRun } from './written';
import { unwrap } from './wrappers';

const SEPARATORS = new Set([';', '&&', '||', '|', '|&', '&', '(', ')', ';;', '<(', '>(']);
// Producers that hand a shell a script made elsewhere unchanged (`cat s.sh | sh` is `sh s.sh`); any other may make it
// from this line's own text (`base64 -d`, `rev`, …).
const PASSES_ON = new Set(['cat', 'curl', 'wget']);

/** The simple commands a script runs, in order (./lex.ts reads it as the shell does). */
export function parseShell(script: string, cwd: string | null = null, depth = 0): SimpleCommand[] {
  const entries: Token[] = lex(script, process.env.HOME ?? null);
  const out: SimpleCommand[] = [];
  let words: string[] = [];
  let redirects: Redirect[] = [];
  let pending: string | null = null;
  let dir = cwd;
  // the command whose output the next one reads (after `|`)
  let piped: SimpleCommand | null = null;
  let last: SimpleCommand | null = null;
  // variables set earlier on the line (`X=1;`, `export X=1 &&`), for the values that run commands
  const vars: Record<string, string> = {};
  // the directory before each open subshell `( … )`, and pushd's stack
  const subshells: Array<string | null> = [];
  const pushed: Array<string | null> = [];
  // files this line writes, with their text when it is known (`echo '<script>' > s.sh`), for a later step running one
  const written = new Map<string, string | null>();
  // of those whose text is not known, the program that wrote each (`base64 -d … > s.sh`: it made the script)
  const makers = new Map<string, string>();
  const flush = (op: string | null = null) => {
    if (words.length || redirects.length) {
      const cmds = unwrap(words, redirects, dir, depth, vars, parseShell);
      const before = dir;
      for (const c of cmds) {
        // `echo 'rm …' > /tmp/s.sh; . /tmp/s.sh` (source, sh, bash, ./s.sh): the script written on this line is read
        const ran = writtenScriptRun(c, written, makers);
        if (ran !== null) {
          if (ran.text !== null && depth < MAX_DEPTH) out.push(...parseShell(ran.text, c.cwd, depth + 1));
          else {
            c.unread = `\`${ran.shown}\` (a script written on this line by a command whose output the guard cannot read)`;
            if (ran.maker !== undefined && !PASSES_ON.has(ran.maker)) c.builtBy = ran.maker;
          }
        }
        if (ran === null && written.size && c.argv.slice(1).some((a) => written.has(pathAt(a, c.cwd) ?? ''))) c.writtenArg = true;
        recordWrites(c, written, makers);
        // what its configuration values and environment variables run, read as `sh -c '<value>'` (runValueCommands, below)
        out.push(...runValueCommands(c, vars, depth, parseShell));
        Object.assign(vars, setsForLine(c));
        if (piped) c.stdinFrom = piped;
        // `echo '<script>' | sh`: the script is the producer's literal words, read as the shell will
        if (c.unread && piped) {
          // `echo '<script>' > s.sh; cat s.sh | sh`: a file written on this line, read back whole
          const catted = piped.argv[0] === 'cat' && piped.argv.length === 2 && !Object.keys(piped.assigns).length ? written.get(pathAt(piped.argv[1], piped.cwd) ?? '') : undefined;
          const scripts = typeof catted === 'string' ? [catted] : literalOutput(piped);
          if (scripts !== null && depth < MAX_DEPTH) {
            for (const script of scripts) out.push(...parseShell(script, dir, depth + 1).map((n) => ({ ...n, xargs: n.xargs || c.xargs })));
            delete c.unread;
          } else if (!PASSES_ON.has(piped.argv[0] ?? '')) c.builtBy = piped.argv[0] ?? 'a command';
        }
        // `sh -c "$(echo … | base64 -d)"`, `$(rev <<< …) -rf x`: what runs is a command's output made from the line's text
        if (c.unread && !c.builtBy) c.builtBy = makerOf(c.argv[0] ?? '', c.cwd, depth);
        out.push(c);
        if (c.argv.length) last = c;
        if (c.argv[0] === 'cd' || c.argv[0] === 'pushd') {
          if (c.argv[0] === 'pushd') pushed.push(dir);
          dir = changeDir(dir, dirOperand(c.argv));
        } else if (c.argv[0] === 'popd') dir = pushed.length ? pushed.pop()! : null;
      }
      // a step of a pipeline runs in a subshell (bash; zsh runs the last one here): where it ends up is not known
      if (dir !== before && (piped !== null || op === '|' || op === '|&')) dir = null;
      // in the background it runs in a subshell: nothing changes here
      else if (op === '&') dir = before;
    }
    if (op === '(') subshells.push(dir);
    else if (op === ')' && subshells.length) dir = subshells.pop()!;
    if (op !== null) piped = op === '|' || op === '|&' ? last : null;
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
    if (e.op === '<<' && 'body' in e) {
      redirects.push({ op: '<<', target: '', body: e.body });
      continue;
    }
    const op = e.op;
    if (SEPARATORS.has(op)) {
      pending = null;
      flush(op);
      continue;
    }
    pending = op;
  }
  flush();
  return out;
}

/**
 * The program that makes a command substitution's output (`$(…)` or backticks, the whole word) from this line's own
 * text: the last step of a pipeline from literal text (`echo`, `printf`) or from a here-document or here-string, when
 * it does not hand that text on unchanged. Else undefined (`$(which node)`, `$(pyenv init -)`: made elsewhere).
 */
function makerOf(word: string, cwd: string | null, depth: number): string | undefined {
  const inner = /^\$\(([\s\S]*)\)$/.exec(word)?.[1] ?? /^`([\s\S]*)`$/.exec(word)?.[1];
  if (inner === undefined || depth >= MAX_DEPTH) return undefined;
  const last = parseShell(inner, cwd, depth + 1).filter((c) => c.argv.length).at(-1);
  let first = last;
  while (first?.stdinFrom) first = first.stdinFrom;
  if (!last || !first || PASSES_ON.has(last.argv[0])) return undefined;
  return hereDocument(first.redirects) !== undefined || (first !== last && literalOutput(first) !== null) ? last.argv[0] : undefined;
}
