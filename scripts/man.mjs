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
const commands = [...top.matchAll(/^ {2}git handoff (\S+)/gm)].map((m) => m[1]).filter((c) => c !== 'completion' || true);
const version = JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], { cwd: root, encoding: 'utf8' })).version;

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
.SH OPTIONS
.nf
${esc(top)}
.fi
.SH COMMANDS
`;
for (const c of commands) {
  out += `.SS git handoff ${esc(c)}\n.nf\n${esc(help(c))}\n.fi\n`;
}
out += `.SH CONFIGURATION
All settings are read with \\fBgit config\\fR.
`;
for (const k of CONFIG_KEYS) out += `.TP\n.B ${esc(k.key)}\n${esc(k.description)} (default: ${esc(k.default)}).\n`;
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
a concurrent update was still lost after retries, or a ref lock is held
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
.TP
.B GIT_HANDOFF_SESSION
this session's id (after \\fB\\-\\-session\\fR; before CLAUDE_CODE_SESSION_ID, GEMINI_SESSION_ID, CODEX_THREAD_ID)
.TP
.B GIT_HANDOFF_BYPASS
set to 1 to let a person through the hooks and the guard; every bypass is logged
.SH FILES
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
