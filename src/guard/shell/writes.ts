// The files a simple command writes, appends to or deletes: its redirections, and per program the operands and option
// values that name files (tee, sed -i, cp/mv/install/ln, rsync, rm, touch, dd, sort -o, curl, wget, gawk -i inplace,
// uniq, git --output, find -delete/-exec/-fprint).
import path from 'node:path';
import { WRITE_REDIRECTS, type SimpleCommand } from './command';
import { findParts, getopt, given, isLong, operands, optionValue } from './options';

export type TargetKind = 'write' | 'append' | 'delete';

// Long options that take a value (so the next word is not an operand) of rsync, curl and wget.
const RSYNC_VALUED = ['--exclude', '--include', '--filter', '--files-from', '--exclude-from', '--include-from', '--rsh', '--rsync-path', '--temp-dir', '--compare-dest', '--copy-dest', '--link-dest', '--backup-dir', '--suffix', '--chmod', '--chown', '--usermap', '--groupmap', '--log-file', '--log-file-format', '--partial-dir', '--password-file', '--out-format', '--timeout', '--contimeout', '--bwlimit', '--max-size', '--min-size', '--max-delete', '--block-size', '--modify-window', '--info', '--debug', '--port', '--sockopts', '--outbuf', '--iconv', '--checksum-choice', '--compress-choice', '--compress-level', '--skip-compress', '--stop-after', '--stop-at', '--write-batch', '--only-write-batch', '--read-batch', '--protocol', '--remote-option', '--address', '--early-input', '--mkpath-mode'];
const CURL_VALUED = ['--output', '--output-dir', '--dump-header', '--cookie-jar', '--trace', '--trace-ascii', '--libcurl', '--stderr', '--etag-save', '--hsts', '--alt-svc', '--config', '--cookie', '--data', '--data-binary', '--data-raw', '--data-urlencode', '--data-ascii', '--header', '--user', '--user-agent', '--referer', '--request', '--proxy', '--form', '--form-string', '--upload-file', '--max-time', '--connect-timeout', '--range', '--write-out', '--cacert', '--capath', '--cert', '--key', '--url', '--etag-compare', '--time-cond', '--retry', '--retry-delay', '--retry-max-time', '--resolve', '--connect-to', '--interface', '--limit-rate', '--max-filesize', '--proxy-user', '--quote', '--continue-at', '--json', '--oauth2-bearer', '--variable', '--expand-url', '--telnet-option', '--speed-limit', '--speed-time'];
const WGET_VALUED = ['--output-document', '--output-file', '--append-output', '--directory-prefix', '--execute', '--input-file', '--base', '--tries', '--timeout', '--wait', '--quota', '--user', '--password', '--header', '--user-agent', '--referer', '--post-data', '--post-file', '--body-data', '--body-file', '--method', '--load-cookies', '--save-cookies', '--level', '--accept', '--reject', '--domains', '--exclude-domains', '--include-directories', '--exclude-directories', '--cut-dirs', '--default-page', '--adjust-extension', '--backups', '--ca-certificate', '--certificate', '--private-key', '--limit-rate', '--bind-address', '--dns-timeout', '--connect-timeout', '--read-timeout', '--waitretry', '--restrict-file-names', '--local-encoding', '--remote-encoding', '--config', '--rejected-log', '--start-pos'];

export interface WriteTarget {
  path: string;
  kind: TargetKind;
  cwd: string | null; // the directory the path is relative to, when known
  names?: string[]; // a deleted directory: only entries matching one of these globs go (find -name)
  tree?: boolean; // a directory written as a tree: the handoff files under it are written too
  from?: string; // a tree copied from here: only the files under it at the same relative path are written
  children?: boolean; // a directory named to an unknown program: the handoff files directly in it may be written
  why?: string; // why a tree is reached as a whole, said beside each file it reaches
}

/**
 * The operands of `cp`, `mv`, `install` or `ln`: the sources, where they go (`into`: a -t/--target-directory, else
 * `dest` is the last operand; undefined for a lone operand), and getopt's reading of the rest.
 */
export function copyOperands(prog: string, args: string[]) {
  const o = getopt(args, prog === 'install' ? 'gmoSt' : 'St', ['--target-directory', '--suffix', ...(prog === 'install' ? ['--group', '--mode', '--owner', '--strip-program'] : [])]);
  const into = o.all('-t', '--target-directory').pop();
  const files = o.operands;
  return { o, into, sources: into !== undefined ? files : files.slice(0, -1), dest: into ?? (files.length >= 2 ? files[files.length - 1] : undefined) };
}

/** Files a simple command writes, appends to or deletes (redirects, tee, sed -i, cp/mv, rm, touch, dd…). */
export function writeTargets(cmd: SimpleCommand): WriteTarget[] {
  const t: WriteTarget[] = [];
  const add = (p: string | undefined, kind: TargetKind): WriteTarget | undefined => {
    if (!p || /^&?\d+$/.test(p) || p === '/dev/null' || p.startsWith('/dev/std')) return undefined;
    t.push({ path: p, kind, cwd: cmd.cwd });
    return t[t.length - 1];
  };
  // a directory copied from `from` lands with everything under it (`tree`: cp -r, -a, mv, rsync)
  const addCopy = (p: string, kind: TargetKind, from: string, tree: boolean) => {
    const w = add(p, kind);
    if (w && tree) Object.assign(w, { tree: true, from });
  };
  for (const r of cmd.redirects) if (WRITE_REDIRECTS.has(r.op) || r.op === '>&') add(r.target, r.op.endsWith('>>') ? 'append' : 'write');
  const [p0, ...args] = cmd.argv;
  const prog = p0 ? path.basename(p0) : '';
  switch (prog) {
    case 'tee': {
      const append = args.some((a) => a === '-a' || isLong(a, '--append'));
      for (const f of operands(args)) add(f, append ? 'append' : 'write');
      break;
    }
    case 'sed':
    case 'perl': {
      // perl's switches cluster with digits (-0777pi, -l0pi); sed's --in-place abbreviates (--i, --in-pl)
      const inPlace = (a: string) => (prog === 'perl' ? /^-[0-9a-zA-Z]*i/.test(a) && !/^-[0-9a-zA-Z]*[eEMmIxdDCF]/.test(a.slice(0, a.indexOf('i'))) : /^-[a-zA-Z]*i/.test(a) || isLong(a, '--in-place'));
      if (!args.some(inPlace)) break;
      const scripted = args.some((a) => a === '-e' || a === '-f' || isLong(a, '--expression') || isLong(a, '--file') || /^-[a-zA-Z0-9]*[ef]$/.test(a));
      const files = operands(args.filter((_, k) => !(k > 0 && /^(-e|-f|--expression|--file|-[a-zA-Z0-9]*[ef])$/.test(args[k - 1]))));
      for (const f of scripted ? files : files.slice(1)) add(f, 'write');
      break;
    }
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln': {
      const { o, into, sources, dest } = copyOperands(prog, args);
      const tree = prog === 'mv' || (prog === 'cp' && given(o, 'rRa', '--recursive', '--archive'));
      if (dest === undefined) break;
      if (into === undefined) addCopy(dest, 'write', sources.length === 1 ? sources[0] : '', tree);
      // copying into a directory lands on <dir>/<basename>
      for (const f of sources) {
        addCopy(path.join(dest, path.basename(f)), 'write', f, tree);
        if (prog === 'mv') add(f, 'delete');
      }
      break;
    }
    case 'rsync': {
      const o = getopt(args, 'eBTfM', RSYNC_VALUED);
      if (o.operands.length < 2) break;
      const sources = o.operands.slice(0, -1);
      const dest = o.operands[o.operands.length - 1];
      const deletes = o.flags.some((f) => /^--del/.test(f));
      // `rsync -a src/ dest/` fills dest, `rsync -a src dest/` makes dest/src; --delete… removes what src lacks
      addCopy(dest, deletes ? 'delete' : 'write', sources.length === 1 ? sources[0] : '', !deletes);
      for (const f of sources) addCopy(path.join(dest, path.basename(f)), deletes ? 'delete' : 'write', f, !deletes);
      if (given(o, '', '--remove-source-files')) for (const f of sources) add(f, 'delete');
      break;
    }
    case 'rm':
    case 'unlink':
    case 'shred':
      for (const f of operands(args)) add(f, 'delete');
      break;
    case 'truncate':
    case 'touch':
      for (const f of getopt(args, prog === 'truncate' ? 'sr' : 'dtr', prog === 'truncate' ? ['--size', '--reference'] : ['--date', '--reference']).operands) add(f, 'write');
      break;
    case 'dd':
      for (const a of args) if (a.startsWith('of=')) add(a.slice(3), 'write');
      break;
    case 'sort':
      add(optionValue(args, ['-o', '--output']), 'write');
      break;
    case 'curl': {
      // curl's options that take a value (most of its letters), those that write a file, and where -O puts a download
      const o = getopt(args, 'AbcCdDeEFHKmoPQrtTuUwxXyYz', CURL_VALUED);
      const dir = o.all('--output-dir').pop();
      for (const f of o.all('-o', '--output')) add(dir && !path.isAbsolute(f) ? path.join(dir, f) : f, 'write');
      for (const f of o.all('-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--libcurl', '--stderr', '--etag-save', '--hsts', '--alt-svc')) add(f, 'write');
      if (given(o, 'OJ', '--remote-name', '--remote-name-all', '--remote-header-name')) {
        for (const u of o.operands) add(path.join(dir ?? '.', path.basename(u.replace(/[?#].*$/, '')) || 'index.html'), 'write');
      }
      break;
    }
    case 'wget': {
      const o = getopt(args, 'OoaPeiBtTwQUYDIXlAR', WGET_VALUED);
      const named = o.all('-O', '--output-document');
      for (const f of [...named, ...o.all('-o', '--output-file', '-a', '--append-output')]) add(f, 'write');
      const prefix = o.all('-P', '--directory-prefix').pop() ?? '.';
      if (!named.length) for (const u of o.operands) add(path.join(prefix, path.basename(u.replace(/[?#].*$/, '')) || 'index.html'), 'write');
      break;
    }
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk': {
      // gawk -i inplace edits its input files; what the program itself writes is read as code (rules/interpreter-writes.ts)
      const o = getopt(args, 'fvFiEWe', ['--file', '--assign', '--field-separator', '--include', '--load', '--exec', '--source']);
      if (!o.all('-i', '--include').some((v) => /^inplace(\.awk)?$/.test(v))) break;
      const code = o.all('-f', '--file', '-e', '--source', '-E', '--exec').length > 0;
      for (const f of (code ? o.operands : o.operands.slice(1)).filter((f) => !/^[A-Za-z_]\w*=/.test(f))) add(f, 'write');
      break;
    }
    case 'uniq': {
      const files = getopt(args, 'fsw', ['--skip-fields', '--skip-chars', '--check-chars']).operands;
      if (files.length >= 2) add(files[1], 'write');
      break;
    }
    case 'git':
      // diff, log, show, format-patch … --output=<file> write where they are told
      add(optionValue(args, ['--output']), 'write');
      break;
    case 'find': {
      // `find <paths> … -delete` or `-exec …` may remove anything under its starting paths; -fprint… write a file
      const f = findParts(args);
      for (const w of f.writes) add(w, 'write');
      if (!f.acts) break;
      for (const a of f.roots) {
        const w = add(a, 'delete');
        if (w && f.names) w.names = f.names;
      }
      break;
    }
  }
  return t;
}
