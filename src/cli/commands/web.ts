// `git handoff web [--port N] [--no-open] [--json]`: a local, read-only page over what `status` reads, live while
// it runs, until Ctrl-C. The server and the page are a bundle of their own (dist/web.cjs), loaded here only.
import { spawn } from '../../process';
import path from 'node:path';
import { HandoffError } from '../../errors';
import { onRefsRead } from '../../git/refs-read';
import { openRepo } from '../../git/repo';
import { command, untilInterrupted, readerFor } from '../context';
import { jsonLine } from '../output';
import { READER, withOptions } from '../spec';
import { loadBundle } from '../version';

/** Opens `url` in the user's browser where there is one to open (never a text browser in this terminal). */
function openBrowser(url: string): boolean {
  const cmd = process.env.BROWSER || (process.platform === 'darwin' ? 'open' : process.platform === 'linux' && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY) ? 'xdg-open' : null);
  if (!cmd) return false;
  try {
    const child = spawn(cmd, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

export const webCommand = command({
  command: 'web',
  describe: 'a local, read-only page of the team: sessions, a timeline of handoff versions with their diffs, claims as a tree of paths; live until Ctrl-C',
  builder: (y) =>
    withOptions(y, READER)
      .option('port', { type: 'number', describe: 'the port on 127.0.0.1 (default: any free one)' })
      .option('host', { type: 'string', describe: 'the address to listen on: 127.0.0.1 only (anything else is refused: the page shows the whole repository)' })
      .option('open', { type: 'boolean', default: true, describe: 'open the page in your browser (--no-open: only print its address)' })
      .example('$0 web', 'serve the page and open it')
      .example('$0 web --port 7465 --no-open', 'a fixed port; the address (with its token) is printed')
      .example('$0 web --no-open --json', 'the address, port and pid as one JSON line'),
  handler: async (a) => {
    const host = a.host === undefined || a.host === 'localhost' ? '127.0.0.1' : a.host;
    if (host !== '127.0.0.1') {
      throw new HandoffError('usage', 'non-loopback', `--host ${a.host}: the page is served on 127.0.0.1 only; it shows every session, claim and handoff of this repository to whoever reaches it`, { host: a.host });
    }
    const port = a.port ?? 0;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new HandoffError('usage', 'invalid-port', `--port ${a.port}: a port is a whole number from 1 to 65535 (0: any free one)`);
    const repo = openRepo();
    const reader = readerFor(repo, a);
    // a page's reads take nothing into the loss record (its check ran at this command's start; the page says what the
    // comparison finds, read only): no ref moves while it serves
    onRefsRead(null);
    const { startWeb } = loadBundle<typeof import('../../web/server')>('web.cjs');
    const { readStatus } = require('../../status/model') as typeof import('../../status/model');
    const { readTimeline, readVersion } = require('../../status/timeline') as typeof import('../../status/timeline');
    const { watchStore } = require('../../status/watch') as typeof import('../../status/watch');
    const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
    const server = await startWeb({
      host,
      port,
      token: randomBytes(24).toString('base64url'),
      title: `git handoff · ${path.basename(repo.worktree ?? repo.commonDir)}`,
      source: {
        // the repository opened again for each read: a branch switched meanwhile is the one shown
        status: (all) => readStatus(openRepo(), { all, reader }),
        timeline: (all) => readTimeline(openRepo(), all),
        version: (oid) => readVersion(openRepo(), oid),
        watch: (changed) => watchStore(repo, changed),
      },
    }).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EADDRINUSE') throw e;
      throw new HandoffError('environment', 'port-in-use', `port ${port} on 127.0.0.1 is in use: pick another with --port, or leave it out for any free one`, { port });
    });
    // the browser gets a one-time code, never the token: any local user can read a process's arguments
    const opened = a.open !== false && openBrowser(server.oneTimeUrl());
    if (a.json) process.stdout.write(jsonLine({ url: server.url, port: server.port, pid: process.pid, opened }) + '\n');
    else process.stdout.write(`git-handoff web: ${server.url}\n(read-only; ${opened ? 'opened in your browser; ' : ''}the address carries this run's token; Ctrl-C stops it)\n`);
    await untilInterrupted(() => server.close());
  },
});
