// `git handoff status [--all] [--json] [--watch]`: the team at a glance (issue 55): the live sessions of this clone and
// the ones the remote knows of with what each holds, the branch's handoffs, and what needs a person; `--watch` draws it
// again in place when a ref or the local state changes, until Ctrl-C.
import { writeSync } from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import { openRepo, type Repo } from '../../git/repo';
import { short } from '../../handoff/state/session';
import type { Attention, Status, StatusClaim, StatusHandoff, StatusSession } from '../../status/model';
import type { GlobalArgs } from '../context';
import { readerFor } from '../identity';
import { colors, colorSync, jsonLine, relativeTime, table } from '../output';
import { STATUS_SPEC, withSpec } from '../spec';

interface Args extends GlobalArgs {
  all?: boolean;
  branch?: string;
  watch?: boolean;
  session?: string;
  person?: boolean;
  role?: string;
}

/** Rows a screen shows of each list; `--json` has them all. */
const SESSIONS_SHOWN = 12;
const HANDOFFS_SHOWN = 20;
const ATTENTION_SHOWN = 12;

export const statusCommand: CommandModule<GlobalArgs, Args> = {
  command: 'status',
  describe: 'the team at a glance: live sessions here and on the remote with what each holds, the branch\'s handoffs, and what needs a person',
  builder: (y: Argv<GlobalArgs>) =>
    withSpec(y, STATUS_SPEC)
      .example('$0 status', 'who is working on what, on this branch')
      .example('$0 status --json', 'the same as data: the one call an agent makes to orient')
      .example('$0 status --all --watch', 'every branch, kept current in this terminal') as unknown as Argv<Args>,
  handler: async (a) => {
    const repo = openRepo();
    const { readStatus } = require('../../status/model') as typeof import('../../status/model');
    const reader = readerFor(repo, a);
    // opened again at each read of a watch: a branch switched meanwhile is the one shown
    const read = () => readStatus(a.watch ? openRepo() : repo, { all: a.all, branch: a.branch, reader });
    if (!a.watch) {
      const s = read();
      // one line: the call an agent makes to orient, read whole (a third fewer bytes than indented, and as --watch prints it)
      if (a.json) return void process.stdout.write(jsonLine(s) + '\n');
      if (!a.quiet) process.stdout.write(renderStatus(s) + '\n');
      return;
    }
    await watchStatus(repo, read, !!a.json);
  },
};

/** Draws the status, then again at each change, until SIGINT or SIGTERM; resolves when the watch has ended. */
function watchStatus(repo: Repo, read: () => Status, json: boolean): Promise<void> {
  const { watchStore } = require('../../status/watch') as typeof import('../../status/watch');
  const tty = !!process.stdout.isTTY && !json;
  const draw = () => {
    let text: string;
    try {
      const s = read();
      text = json ? jsonLine(s) : renderStatus(s);
    } catch (e) {
      text = `git-handoff: ${(e as Error).message}`;
    }
    if (json) return void process.stdout.write(text + '\n');
    const stamp = colors().dim(`watching: redrawn at ${new Date().toLocaleTimeString()} when refs or state change; Ctrl-C ends it`);
    // in place on a terminal: the cursor home and the screen cleared (written past the output filter: it is ours), then the frame
    if (tty) writeSync(1, '\x1b[H\x1b[2J');
    process.stdout.write(`${text}\n\n${stamp}` + '\n' + (tty ? '' : '\n'));
  };
  return new Promise((resolve) => {
    draw();
    const w = watchStore(repo, () => draw());
    const stop = () => {
      w.close();
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

const dash = (s: string | null | undefined) => (s ? s : '-');
const clock = (iso: string) => new Date(iso).toISOString().slice(11, 16);

function untilText(expires: string, now: number): string {
  const min = Math.round((Date.parse(expires) - now) / 60_000);
  return `until ${clock(expires)} UTC (${min < 60 ? `${Math.max(min, 0)} min` : `${Math.round(min / 60)} h`} left)`;
}

function claimLine(c: StatusClaim, now: number, withBranch: boolean): string {
  const where = c.where === 'local' ? 'here only' : c.where === 'remote' ? 'on the remote' : 'here and on the remote';
  return `${c.paths.join(' ')}${withBranch ? ` on ${c.branch}` : ''}  ${untilText(c.expires, now)}  ${where}${c.note ? `  "${c.note}"` : ''}`;
}

function sessionLines(s: StatusSession, ids: string[], now: number, all: boolean): string[] {
  const c = colors();
  const status = s.status === 'live' || s.status === 'claiming' ? c.green(s.status) : s.status === 'known' ? c.dim(s.status) : c.yellow(s.status);
  const where = s.where === 'here' ? 'this clone' : 'another clone';
  const place = [s.worktree, s.host ? `on ${s.host}` : null].filter(Boolean).join(' ');
  const head = `  ${c.cyan(short(s.session, ids))}  ${dash(s.client)}  ${status}  ${where}  ${place || '-'}  ${s.lastActivity ? `active ${relativeTime(s.lastActivity, now)}` : ''}`.trimEnd();
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
  return `  ${c.red('!')} ${when}${x.message}${x.command ? `\n      ${c.dim('→')} ${x.command}` : ''}`;
}

/** The screen: one header line, then the sessions, the handoffs and what needs a person, each cut to a screen's share. */
function renderStatus(s: Status, now = Date.now()): string {
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
  for (const x of s.sessions.slice(0, SESSIONS_SHOWN)) out.push(...sessionLines(x, ids, now, all));
  if (s.sessions.length > SESSIONS_SHOWN) out.push(`  … and ${s.sessions.length - SESSIONS_SHOWN} more (git handoff status --json lists them all)`);
  out.push('');
  const shown = [...s.handoffs].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, HANDOFFS_SHOWN);
  out.push(c.bold(`Handoffs ${all ? 'on every branch' : `on ${s.branch}`} (${s.handoffs.length})`));
  if (!s.handoffs.length) out.push(`  none${all ? '' : ` on ${s.branch}`} (git handoff write <topic> starts one)`);
  else out.push(handoffTable(shown, ids, now, all, !!s.caller));
  if (s.handoffs.length > HANDOFFS_SHOWN) out.push(`  … and ${s.handoffs.length - HANDOFFS_SHOWN} older (git handoff list${all ? ' --all' : ''})`);
  const far = s.handoffs.filter((h) => h.fetch);
  if (far.length) out.push(`  remote-only: ${[...new Set(far.map((h) => h.fetch))].join(', ')} brings them`);
  out.push('');
  out.push(c.bold(`Needs a person (${s.attention.length})`));
  if (!s.attention.length) out.push('  nothing: no conflict, refusal, takeover or loss in the last day, no claim about to expire, the remote reached');
  for (const x of s.attention.slice(0, ATTENTION_SHOWN)) out.push(attentionLine(x, now));
  if (s.attention.length > ATTENTION_SHOWN) out.push(`  … and ${s.attention.length - ATTENTION_SHOWN} more (git handoff status --json)`);
  return out.join('\n');
}
