// `git handoff status [--all] [--json] [--watch]`: the team at a glance: the live sessions of this clone and
// the ones the remote knows of with what each holds, the branch's handoffs, and what needs a person; `--watch` draws it
// again in place when a ref or the local state changes, until Ctrl-C.
import { writeSync } from 'node:fs';
import { openRepo, type Repo } from '../../git/repo';
import { short } from '../../handoff/state/session';
import { oneLine } from '../../handoff/store/document';
import { wordCut } from '../../terminal-text';
import { timeLeft, type Attention, type Status, type StatusClaim, type StatusHandoff, type StatusSession } from '../../status/shape';
import { command, untilInterrupted, readerFor } from '../context';
import { colors, colorSync, cutToWidth, jsonLine, relativeTime, table } from '../output';
import { STATUS_SPEC, withSpec } from '../spec';

/** How many of each section a screen shows; a watch on a small terminal shows fewer (fitted below). */
const SHOWN = { sessions: 12, handoffs: 20, attention: 12 };
/** An entry's line on the screen: enough for a refusal's who, note and expiry. */
const ATTENTION_LINE_MAX = 360;

export const statusCommand = command({
  command: 'status',
  describe: 'the team at a glance: live sessions here and on the remote with what each holds, the branch\'s handoffs, and what needs a person',
  builder: (y) =>
    withSpec(y, STATUS_SPEC)
      .example('$0 status', 'who is working on what, on this branch')
      .example('$0 status --json', 'the same as data: the one call an agent makes to orient')
      .example('$0 status --all --watch', 'every branch, kept current in this terminal'),
  handler: async (a) => {
    const repo = openRepo();
    const { readStatus } = require('../../status/model') as typeof import('../../status/model');
    const reader = readerFor(repo, a);
    // opened again at each read of a watch: a branch switched meanwhile is the one shown
    if (a.watch) return watchStatus(repo, () => readStatus(openRepo(), { all: a.all, branch: a.branch, reader }), !!a.json);
    // one read right after the check at this command's start: the storage's fingerprint it took stands
    const s = readStatus(repo, { all: a.all, branch: a.branch, reader, justChecked: true });
    // --json on one line: the call an agent makes to orient, read whole (a third fewer bytes than indented, and as --watch prints it)
    process.stdout.write(`${a.json ? jsonLine(s) : renderStatus(s)}\n`);
  },
});

/**
 * Draws the status, then again at each change, until SIGINT or SIGTERM; resolves when the watch has ended. On a
 * terminal it is drawn as `top` draws: on the alternate screen, fitted to the window (fitted below), again on a resize.
 */
function watchStatus(repo: Repo, read: () => Status, json: boolean): Promise<void> {
  const { watchStore } = require('../../status/watch') as typeof import('../../status/watch');
  const tty = !!process.stdout.isTTY && !json;
  let last: Status | string = '';
  const draw = (reread: boolean) => {
    if (reread) {
      try {
        last = read();
      } catch (e) {
        last = `git-handoff: ${(e as Error).message}`;
      }
    }
    if (json) return void process.stdout.write((typeof last === 'string' ? last : jsonLine(last)) + '\n');
    const stamp = colors().dim(`watching: redrawn at ${new Date().toTimeString().slice(0, 8)} when refs or state change; Ctrl-C ends it`);
    if (!tty) return void process.stdout.write(`${typeof last === 'string' ? last : renderStatus(last)}\n\n${stamp}\n\n`);
    // in place: the terminal's caret home and the screen cleared (written past the output filter: it is ours), then the frame
    writeSync(1, '\x1b[H\x1b[2J');
    process.stdout.write(fitted(last, stamp, process.stdout.columns || 80, process.stdout.rows || 24));
  };
  if (tty) writeSync(1, '\x1b[?1049h');
  draw(true);
  const w = watchStore(repo, () => draw(true));
  const resized = () => draw(false);
  if (tty) process.stdout.on('resize', resized);
  return untilInterrupted(() => {
    w.close();
    process.stdout.off('resize', resized);
    if (tty) writeSync(1, '\x1b[?1049l');
  });
}

/**
 * The frame as it fits `cols` × `rows`, the stamp kept as its last line and no newline after it (one would scroll the
 * window): fewer handoffs are shown first, then fewer sessions, then fewer entries of what needs a person (each section
 * says how many more `status` lists), then the frame is cut; every line is cut to the width.
 */
function fitted(s: Status | string, stamp: string, cols: number, rows: number): string {
  const shown = { ...SHOWN };
  const frame = () => [...(typeof s === 'string' ? s : renderStatus(s, Date.now(), shown)).split('\n'), '', stamp].map((l) => cutToWidth(l, cols));
  let lines = frame();
  for (const [key, least] of [['handoffs', 1], ['sessions', 1], ['attention', 1], ['handoffs', 0]] as const) {
    while (typeof s !== 'string' && lines.length > rows && shown[key] > least) {
      shown[key]--;
      lines = frame();
    }
  }
  if (lines.length > rows) lines = rows < 3 ? lines.slice(0, rows) : [...lines.slice(0, rows - 2), cutToWidth(`… ${lines.length - rows + 1} more lines: a taller window, or git handoff status`, cols), stamp];
  return lines.join('\n');
}

function claimLine(c: StatusClaim, now: number, withBranch: boolean): string {
  const where = c.where === 'local' ? 'here only' : c.where === 'remote' ? 'on the remote' : 'here and on the remote';
  return `${c.paths.join(' ')}${withBranch ? ` on ${c.branch}` : ''}  until ${c.expires.slice(11, 16)} UTC (${timeLeft(c.expires, now)})  ${where}${c.note ? `  "${c.note}"` : ''}`;
}

function sessionLines(s: StatusSession, ids: string[], now: number, all: boolean): string[] {
  const c = colors();
  const status = s.status === 'live' || s.status === 'claiming' ? c.green(s.status) : s.status === 'known' ? c.dim(s.status) : c.yellow(s.status);
  const where = s.where === 'here' ? 'this clone' : 'another clone';
  const place = [s.worktree, s.host ? `on ${s.host}` : null].filter(Boolean).join(' ');
  const head = `  ${c.cyan(short(s.session, ids))}  ${s.client || '-'}  ${status}  ${where}  ${place || '-'}  ${s.lastActivity ? `active ${relativeTime(s.lastActivity, now)}` : ''}`.trimEnd();
  const lines = [head];
  if (s.handoffs.length) lines.push(`      owns    ${s.handoffs.map((h) => (all ? `${h.branch}:${h.topic}` : h.topic)).slice(0, 6).join(', ')}${s.handoffs.length > 6 ? `, … (${s.handoffs.length})` : ''}`);
  for (const cl of s.claims) lines.push(`      claims  ${claimLine(cl, now, all)}`);
  return lines;
}

function handoffTable(hs: StatusHandoff[], ids: string[], now: number, all: boolean, caller: boolean): string {
  const rows = hs.map((h) => [
    ...(all ? [h.branch] : []),
    h.topic,
    colors().cyan(h.session ? short(h.session, ids) : '?'),
    relativeTime(h.updatedAt, now),
    h.to.length ? h.to.join(' ') : 'anyone',
    ...(caller ? [h.unread === null ? '-' : h.unread ? colors().yellow('unread') : 'read'] : []),
    colorSync(h.sync),
  ]);
  return table(rows, [...(all ? ['BRANCH'] : []), 'TOPIC', 'OWNER', 'UPDATED', 'TO', ...(caller ? ['FOR YOU'] : []), 'SYNC']).replace(/^/gm, '  ');
}

function attentionLine(x: Attention, now: number): string {
  const c = colors();
  // an event's time; a time to come (a claim's end) is in the message
  const when = !x.at || Date.parse(x.at) > now ? '' : `${relativeTime(x.at, now)}: `;
  // one line each: a whole refusal is in --json and on the page
  return `  ${c.red('!')} ${when}${wordCut(oneLine(x.message), ATTENTION_LINE_MAX)}${x.command ? `\n      ${c.dim('→')} ${x.command}` : ''}`;
}

/** The screen: one header line, then the sessions, the handoffs and what needs a person, each cut to a screen's share. */
function renderStatus(s: Status, now = Date.now(), shown = SHOWN): string {
  const c = colors();
  const all = s.scope === 'all';
  const ids = [...s.sessions.map((x) => x.session), ...s.handoffs.flatMap((h) => (h.session ? [h.session] : []))];
  const out: string[] = [];
  const caller = s.caller ? `you: ${s.caller.id.startsWith('person:') ? s.caller.id : `session ${short(s.caller.id, ids)}`}` : 'you: no session (unread is not shown)';
  out.push(`${c.bold('git handoff status')}  ${all ? 'every branch' : `branch ${s.branch}`} · ${s.remote ? `remote ${s.remote}` : 'no remote'} · ${caller}`);
  out.push('');
  const live = s.sessions.filter((x) => x.status === 'live' || x.status === 'claiming').length;
  out.push(c.bold(`Sessions (${s.sessions.length}${s.sessions.length ? `, ${live} live or claiming` : ''})`));
  if (!s.sessions.length) out.push('  none live here, and no claim or handoff names one');
  for (const x of s.sessions.slice(0, shown.sessions)) out.push(...sessionLines(x, ids, now, all));
  if (s.sessions.length > shown.sessions) out.push(`  … and ${s.sessions.length - shown.sessions} more (git handoff status --json lists them all)`);
  out.push('');
  const newest = [...s.handoffs].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, shown.handoffs);
  out.push(c.bold(`Handoffs ${all ? 'on every branch' : `on ${s.branch}`} (${s.handoffs.length})`));
  if (!s.handoffs.length) out.push(`  none${all ? '' : ` on ${s.branch}`} (git handoff write <topic> starts one)`);
  else if (newest.length) out.push(handoffTable(newest, ids, now, all, !!s.caller));
  if (s.handoffs.length > shown.handoffs) out.push(`  … and ${s.handoffs.length - shown.handoffs} ${shown.handoffs ? 'older ' : ''}(git handoff list${all ? ' --all' : ''})`);
  const far = s.handoffs.filter((h) => h.fetch);
  if (far.length) out.push(`  remote-only: ${[...new Set(far.map((h) => h.fetch))].join(', ')} brings them`);
  out.push('');
  out.push(c.bold(`Needs a person (${s.attention.length})`));
  if (!s.attention.length) out.push('  nothing: no conflict, refusal, takeover or loss in the last day, no claim about to expire, the remote reached');
  for (const x of s.attention.slice(0, shown.attention)) out.push(attentionLine(x, now));
  if (s.attention.length > shown.attention) out.push(`  … and ${s.attention.length - shown.attention} more (git handoff status --json)`);
  return out.join('\n');
}
