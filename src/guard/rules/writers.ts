// Writes shell/writes.ts does not list: an unknown program on every argument that names a file, archives unpacked, and
// a hard link's source (a second name for a protected file).
import path from 'node:path';
import { own } from '../../clients/event';
import { READ_ONLY } from '../allow';
import { SHELLS, type SimpleCommand } from '../shell/command';
import { given, isLong, optionValue } from '../shell/options';
import { copyOperands, type WriteTarget } from '../shell/writes';
import { sedScripts } from '../shell/runners';

/** Programs whose writes writeTargets reads from their arguments, and git (its verbs have rules of their own). */
const MODELLED = new Set(['tee', 'sed', 'perl', 'cp', 'mv', 'install', 'ln', 'rsync', 'rm', 'unlink', 'shred', 'truncate', 'touch', 'dd', 'sort', 'curl', 'wget', 'uniq', 'find', 'git', 'patch', 'awk', 'gawk', 'mawk', 'nawk', 'eval', 'export', 'declare', 'typeset', 'readonly', 'local', 'xargs']);

/** Programs that change a file's mode, owner or attributes: a directory they are given locks or opens every file under it. */
const METADATA = new Set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'chcon']);

/** An argument that may be a file name: not code (no line break, bracket, semicolon or quote), not empty. */
const fileLike = (a: string) => a !== '' && a !== '-' && !/[\n();'"<>|&]/.test(a) && a.length < 4096;

/** The files an unknown program's arguments name (and option values: --out=FILE), each a possible write. */
export function unknownWriterTargets(cmd: SimpleCommand): WriteTarget[] {
  const p0 = cmd.argv[0];
  if (p0 === undefined) return [];
  const prog = path.basename(p0);
  if (prog === 'sed') return sedWrites(cmd);
  if (MODELLED.has(prog) || own(READ_ONLY, prog) || SHELLS.has(prog) || prog.startsWith('git-')) return [];
  const out: WriteTarget[] = [];
  const tree = METADATA.has(prog) ? { tree: true } : {};
  let opts = true;
  for (const a of cmd.argv.slice(1)) {
    if (opts && a === '--') opts = false;
    else if (opts && a.startsWith('-')) {
      const eq = a.indexOf('=');
      if (eq > 0 && fileLike(a.slice(eq + 1))) out.push({ path: a.slice(eq + 1), kind: 'write', cwd: cmd.cwd, children: true });
    } else if (fileLike(a)) out.push({ path: a, kind: 'write', cwd: cmd.cwd, children: true, ...tree });
  }
  return out;
}

/** An archive unpacked (tar -x, unzip, cpio -i, 7z x): the directory it unpacks into, written as a tree. */
export function extractTargets(cmd: SimpleCommand): WriteTarget[] {
  const [p0, ...args] = cmd.argv;
  const prog = p0 ? path.basename(p0) : '';
  let into: string | undefined;
  const valueOf = (short: string, long: string) => optionValue(args, [short, long]);
  if (prog === 'tar' || prog === 'bsdtar' || prog === 'gtar') {
    // `-x`, `--extract`, `--get`, or the old style's first word (`tar xzf a.tgz`)
    const extracts = args.some((a, i) => /^-[a-zA-Z]*x/.test(a) || isLong(a, '--extract') || isLong(a, '--get') || (i === 0 && /^[a-zA-Z]*x[a-zA-Z]*$/.test(a)));
    if (!extracts) return [];
    into = valueOf('-C', '--directory');
  } else if (prog === 'unzip') {
    if (args.some((a) => /^-[a-zA-Z]*[lvtpz]/.test(a) && !a.startsWith('--'))) return [];
    into = valueOf('-d', '--directory');
  } else if (prog === 'cpio') {
    if (!args.some((a) => /^-[a-zA-Z]*i/.test(a) || isLong(a, '--extract'))) return [];
    into = valueOf('-D', '--directory');
  } else if (prog === '7z' || prog === '7za' || prog === '7zz') {
    if (args[0] !== 'x' && args[0] !== 'e') return [];
    into = args.find((a) => a.startsWith('-o'))?.slice(2);
  } else return [];
  return [{ path: into ?? '.', kind: 'write', cwd: cmd.cwd, tree: true }];
}

/** `ln SRC… DST` without -s, `cp -l`/`--link`: the sources get a second name, judged as written. */
export function linkSources(cmd: SimpleCommand): WriteTarget[] {
  const [p0, ...args] = cmd.argv;
  const prog = p0 ? path.basename(p0) : '';
  if (prog !== 'ln' && prog !== 'cp') return [];
  const { o, sources } = copyOperands(prog, args);
  if (prog === 'ln' ? given(o, 's', '--symbolic') : !given(o, 'l', '--link')) return [];
  // `cp -al dir elsewhere`: every file under a directory it copies gets a second name
  const tree = prog === 'cp' && given(o, 'rRa', '--recursive', '--archive');
  return sources.map((f) => ({ path: f, kind: 'write', cwd: cmd.cwd, ...(tree ? { tree: true } : {}) }));
}

/** `sed 's/a/b/w FILE'`, `sed -e 'w FILE'`, `W FILE`: the files a sed script writes (sed -i is writeTargets's). */
function sedWrites(cmd: SimpleCommand): WriteTarget[] {
  const out: WriteTarget[] = [];
  for (const script of sedScripts(cmd.argv.slice(1))) {
    for (const m of script.matchAll(/(?:^|[;\n{}]|\/[a-zA-Z0-9]*)\s*[wW]\s+([^;\n}]+)/g)) out.push({ path: m[1].trim(), kind: 'write', cwd: cmd.cwd });
  }
  return out;
}
