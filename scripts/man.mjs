// Generates the man page git-handoff(1) from the CLI's own help and the config table, so they cannot drift.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli.cjs');
const help = (...args) =>
  execFileSync(process.execPath, [cli, ...args, '-h'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '70', NO_COLOR: '1' } }).trimEnd();
const esc = (s) => s.replace(/\\/g, '\\e').replace(/^([.'])/gm, '\\&$1').replace(/-/g, '\\-');
const { CONFIG_KEYS } = await import(path.join(root, 'dist', 'config-keys.mjs'));

const top = help();
const { ENVIRONMENT } = await import(path.join(root, 'dist', 'environment.mjs'));
const version = JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], { cwd: root, encoding: 'utf8' })).version;

/** The blocks of a help text, by heading ("Every day:", "Options:", …): each heading's lines up to the next blank line. */
const sections = (text) => {
  const out = [];
  for (const block of text.split(/\n\n+/)) {
    const m = /^([A-Z][^\n]*):\n([\s\S]*)$/.exec(block);
    if (m) out.push({ title: m[1], lines: m[2].split('\n') });
  }
  return out;
};
// yargs's type annotations ([boolean], [string]) say nothing a reader of the manual needs
const untyped = (lines) => lines.map((l) => l.replace(/\s*\[(boolean|string|array|number|count)\]/g, '').trimEnd()).filter((l, i) => l !== '' || lines[i] === '');
/** Option entries (an entry: its first line and the indented lines that continue it). */
const entries = (lines) => {
  const out = [];
  for (const l of lines) {
    if (/^ {2}(-\w, )?-/.test(l) || /^ {6}--/.test(l) || !out.length) out.push([l]);
    else out[out.length - 1].push(l);
  }
  return out;
};
const optionName = (entry) => /--?[\w-]+/.exec(entry[0])?.[0];
const topSections = sections(top);
const globalOptions = topSections.find((x) => x.title === 'Options');
const globalNames = new Set(entries(globalOptions.lines).map(optionName));
const groups = topSections.filter((x) => x !== globalOptions).map((g) => ({ title: g.title, commands: [...g.lines.join('\n').matchAll(/^ {2}git handoff (\S+)/gm)].map((m) => m[1]) }));
const intro = top.slice(0, top.indexOf('\n\n' + groups[0].title + ':'));

/** A command's help without the options every command takes (OPTIONS lists them once) and without yargs's annotations. */
function commandHelp(c) {
  return help(c)
    .split(/\n\n/)
    .map((block) => {
      if (!/^Options:\n/.test(block)) return block;
      const kept = entries(block.split('\n').slice(1)).filter((e) => !globalNames.has(optionName(e)));
      return kept.length ? ['Options:', ...kept.flat()].join('\n') : '';
    })
    .filter(Boolean)
    .map((block) => untyped(block.split('\n')).join('\n'))
    .join('\n\n');
}

let out = `.TH GIT\\-HANDOFF 1 "" "git-handoff ${version}" "Git Manual"
.SH NAME
git\\-handoff \\- handoff notes between AI coding sessions, kept as git refs no session can silently overwrite
.SH SYNOPSIS
.B git handoff
.I command
[\\fIoptions\\fR]
.SH DESCRIPTION
Each handoff is a chain of commits under \\fBrefs/handoffs/<branch>/<topic>\\fR whose trailers name the
session that wrote it. A write is a compare\\-and\\-swap ref update: a session cannot overwrite another
session's handoff without an explicit, recorded takeover, and every version is kept.
\\fBgit push\\fR and \\fBgit fetch\\fR carry handoffs between machines.
.PP
.nf
${esc(intro)}
.fi
.SH OPTIONS
Every command takes these.
.nf
${esc(untyped(globalOptions.lines).join('\n'))}
.fi
.SH COMMANDS
`;
for (const g of groups) {
  out += `.SS ${esc(g.title)}\n`;
  for (const c of g.commands) out += `.PP\n.nf\n${esc(commandHelp(c))}\n.fi\n`;
}
out += `.SH CONFIGURATION
All settings are read with \\fBgit config\\fR.
`;
// the doc lines are Markdown (the README's table): their code spans lose the backquotes here
for (const k of CONFIG_KEYS) out += `.TP\n.B ${esc(k.key)}\n${esc(k.description.replace(/`/g, ''))} (default: ${esc(k.default)}).\n`;
out += `.SH EXIT STATUS
.TP
.B 0
success
.TP
.B 1
internal error
.TP
.B 2
invalid input or usage
.TP
.B 3
the handoff is owned by another session
.TP
.B 4
a concurrent update was still lost after retries, a ref lock is held, or a handoff diverged from its remote copy and fetch, push or sync left it out
.TP
.B 5
no session id
.TP
.B 6
integrity: history rewritten or the ownership invariant broken
.TP
.B 7
environment: not a git repository, git missing, remote unreachable
.SH ENVIRONMENT
`;
for (const v of ENVIRONMENT) out += `.TP\n.B ${esc(v.name)}\n${esc(v.description)}\n`;
out += `.SH FILES
.TP
.I <git-common-dir>/handoff/
the guard's ledger, guard.log and audit.jsonl
.SH SEE ALSO
.BR git (1),
.BR git\\-update\\-ref (1),
.BR githooks (5)
`;
// man/man1 beside bin/: man finds it from PATH alone (man-db and macOS man look in <dir>/../man for each <dir>/bin on
// PATH), so `git handoff --help` works after `export PATH="$PWD/bin:$PATH"`; npm links it into <prefix>/share/man.
mkdirSync(path.join(root, 'man', 'man1'), { recursive: true });
writeFileSync(path.join(root, 'man', 'man1', 'git-handoff.1'), out);
