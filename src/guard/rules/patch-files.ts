// Programs that write the files a patch names (patch, git apply, git am, apply_patch), judged on those files: each
// name taken with every leading directory stripped; a patch the guard cannot read may name any file of the worktree.
import path from 'node:path';
import { hereDocument, programName, type SimpleCommand } from '../shell/command';
import type { GitInvocation } from '../shell/git';
import { getopt, given } from '../shell/options';
import { gitOptions } from './git-options';
import { parsePatch } from './files';
import { PATCH_PROGRAMS } from '../../clients/records';
import type { WriteTarget } from '../shell/writes';
import { readTextOr, statOr } from '../../read-file';

const MAX_PATCH = 4 * 1024 * 1024;

/** The paths a unified or git diff names (---, +++, diff --git, rename/copy to), each with its prefixes stripped. */
function patchPaths(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    let m: RegExpExecArray | null;
    const named: string[] = [];
    if ((m = /^(?:---|\+\+\+) ("?)(.+?)\1(?:\t.*)?$/.exec(line))) named.push(m[2]);
    else if ((m = /^diff --git (\S+) (\S+)$/.exec(line))) named.push(m[1], m[2]);
    else if ((m = /^(?:rename|copy) (?:from|to) (.+)$/.exec(line))) named.push(m[1]);
    else if ((m = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line))) named.push(m[1]);
    for (const n of named) {
      if (n === '/dev/null') continue;
      const parts = n.split('/').filter(Boolean);
      for (let k = 0; k < parts.length; k++) out.add(parts.slice(k).join('/'));
    }
  }
  return [...out].slice(0, 4096);
}

const readPatch = (file: string): string | null => ((statOr(file)?.size ?? 0) > MAX_PATCH ? null : readTextOr(file));

/** Said beside each file an unreadable patch reaches: the refusal is about the patch, not about that file's name. */
const UNREAD = `reached because the patch cannot be read before it runs — missing, over ${MAX_PATCH / 1024 / 1024} MiB or a program's output — and may change any file of the worktree`;
const wholeTree = (top: string): WriteTarget => ({ path: top, kind: 'write', cwd: null, tree: true, why: UNREAD });

/** The files `patch`, `git apply` or `git am` would write, or, when the patch cannot be read, the whole worktree. */
export function patchTargets(cmd: SimpleCommand, inv: GitInvocation | null, abs: (p: string, cwd: string | null) => string, top: string | null): WriteTarget[] {
  const prog = programName(cmd.argv);
  let cwd = inv?.cwd ?? cmd.cwd;
  const texts: Array<string | null> = [];
  const out: WriteTarget[] = [];
  const doc = hereDocument(cmd.redirects);
  const input = cmd.redirects.find((r) => r.op === '<')?.target;
  // what it reads on stdin: a here-document, a file redirected in, or what `cat <files>`/`echo` pipe into it
  const piped = (): string | null => {
    const p = cmd.stdinFrom;
    if (!p || p.argv[0] !== 'cat' || p.argv.length < 2 || p.argv.slice(1).some((a) => a.startsWith('-') || /[$`*?[]/.test(a))) return null;
    const parts = p.argv.slice(1).map((f) => readPatch(abs(f, p.cwd)));
    return parts.includes(null) ? null : parts.join('\n');
  };
  const stdin = () => texts.push(doc ?? (input !== undefined ? readPatch(abs(input, cmd.cwd)) : piped()));
  if (inv && (inv.sub === 'apply' || inv.sub === 'am')) {
    const o = gitOptions(inv);
    // only a look, or the index alone
    if (inv.sub === 'apply' && o.flags.some((f) => /^--(check|stat|numstat|summary|cached)$/.test(f)) && !o.flags.includes('--index') && !o.flags.includes('--apply')) return [];
    if (inv.sub === 'am' && o.flags.some((f) => /^--(abort|quit|show-current-patch|skip)/.test(f))) return [];
    const dir = o.all('--directory').pop();
    if (dir !== undefined) cwd = top ? path.resolve(top, dir) : null;
    else if (inv.sub === 'apply' && top) cwd = top; // git apply's paths are the worktree's top's
    const files = o.operands.filter((f) => f !== '-');
    for (const f of files) texts.push(readPatch(abs(f, inv.cwd ?? cmd.cwd)));
    if (!files.length || o.operands.includes('-')) stdin();
  } else if (prog === 'patch') {
    const o = getopt(cmd.argv.slice(1), 'pidDBFgoYzrVM', ['--strip', '--input', '--directory', '--output', '--reject-file', '--backup', '--prefix', '--basename-prefix', '--suffix', '--fuzz', '--get', '--version-control', '--quoting-style', '--read-only', '--merge']);
    if (given(o, '', '--dry-run')) return [];
    const dir = o.all('-d', '--directory').pop();
    if (dir !== undefined) cwd = cwd ? path.resolve(cwd, dir) : path.isAbsolute(dir) ? dir : null;
    for (const f of o.all('-o', '--output')) out.push({ path: f, kind: 'write', cwd: cmd.cwd });
    // `patch <file> [<patchfile>]`: the first operand is the file patched
    if (o.operands[0] !== undefined) out.push({ path: o.operands[0], kind: 'write', cwd: cmd.cwd });
    const from = [...o.all('-i', '--input'), ...o.operands.slice(1)];
    if (from.length) for (const f of from) texts.push(readPatch(abs(f, cmd.cwd)));
    else stdin();
  } else if (PATCH_PROGRAMS.includes(prog)) {
    // Codex's apply_patch in its shell (`apply_patch <<'EOF'`, `apply_patch '<envelope>'`): the envelope's files, as its tool reads them
    const text = cmd.argv[1] ?? (stdin(), texts.pop() ?? null);
    if (text === null) return top ? [wholeTree(top)] : [];
    for (const f of parsePatch(text)) {
      out.push({ path: f.path, kind: f.op === 'delete' || f.moveTo ? 'delete' : 'write', cwd });
      if (f.moveTo) out.push({ path: f.moveTo, kind: 'write', cwd });
    }
    return out;
  } else return [];
  for (const text of texts) {
    // unreadable (a pipe from a program, a file too large or missing): it may name any file of the worktree
    if (text === null) {
      if (top) out.push(wholeTree(top));
      continue;
    }
    for (const p of patchPaths(text)) out.push({ path: p, kind: 'write', cwd });
  }
  return out;
}
