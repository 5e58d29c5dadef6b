// `git handoff web`'s server (dist/web.cjs, loaded by that command alone): a read-only page over what `status` reads,
// on 127.0.0.1 only. Every request must carry the run's token (in the address printed, or in the cookie a one-time
// code was exchanged for: the browser is started with the code, never the token, as any local user can read a
// process's arguments) and name the loopback address as its Host (a page of another site that rebinds its name to
// 127.0.0.1 sends its own name); only GET and HEAD exist, and nothing here writes. Live updates are server-sent
// events, sent when the watch of the refs and the local state says something changed.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the page reads; each call reads the repository afresh. */
interface WebSource {
  status(all: boolean): unknown;
  timeline(all: boolean): unknown;
  /** null: no such handoff version */
  version(oid: string): unknown | null;
  /** calls `changed` whenever the refs or the local state change, until closed */
  watch(changed: (why: string) => void): { close(): void };
}

// the page's files, put into this bundle by scripts/build.mjs (absent when this file is run from the sources): nothing
// is loaded from the network
declare const WEB_PAGE: { js: string; css: string } | undefined;
const PAGE = typeof WEB_PAGE === 'undefined' ? { js: '', css: '' } : WEB_PAGE;

interface WebOptions {
  host: string;
  port: number;
  token: string;
  title: string;
  source: WebSource;
  /** how long a one-time code may wait for the browser to open it (default a minute) */
  codeTtlMs?: number;
}

const LOOPBACK = '127.0.0.1';
/** How often an idle event stream gets a comment line (keeps proxies and the browser from dropping it). */
const KEEPALIVE_MS = 15_000;

const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page; its files' addresses carry the token only where the page's own address did (else the cookie does). */
function page(o: WebOptions, withToken: boolean): string {
  const q = withToken ? `?t=${encodeURIComponent(o.token)}` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>${escapeHtml(o.title)}</title>
<link rel="stylesheet" href="/app.css${q}"></head>
<body><div id="app"><p class="loading">loading…</p></div><script src="/app.js${q}"></script></body></html>
`;
}

/** Whether `given` is the run's token, compared in constant time. */
function tokenMatches(given: string | undefined | null, token: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Starts the server. A host other than 127.0.0.1 is refused before anything listens: the page shows every session,
 * claim and handoff of the repository, for this machine's user alone.
 */
export function startWeb(o: WebOptions) {
  if (o.host !== LOOPBACK) return Promise.reject(Object.assign(new Error(`the page is served on ${LOOPBACK} only (asked for ${o.host})`), { code: 'non-loopback' }));
  const streams = new Set<ServerResponse>();
  let port = o.port;
  // one-time codes not yet used, with when each stops being good
  const codes = new Map<string, number>();
  // cookies are not told apart by port: each run's has its own name
  const cookieName = () => `git_handoff_web_${port}`;
  const hosts = () => [`${LOOPBACK}:${port}`, `localhost:${port}`];

  const send = (res: ServerResponse, status: number, type: string, body: string, head = false) => {
    res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': `${type}; charset=utf-8`, 'Content-Length': Buffer.byteLength(body) });
    res.end(head ? undefined : body);
  };
  const refuse = (res: ServerResponse, status: number, text: string) => send(res, status, 'text/plain', `${text}\n`);

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    // DNS rebinding: a foreign page that made its own name resolve here still sends that name
    if (!hosts().includes(String(req.headers.host ?? '').toLowerCase())) return refuse(res, 421, 'refused: this server answers only requests addressed to 127.0.0.1');
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts().some((h) => `http://${h}` === origin.toLowerCase())) return refuse(res, 403, 'refused: a request from another origin');
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}:${port}`);
    if (url.pathname === '/open' && req.method === 'GET') {
      // a one-time code: good once, for a minute, then the cookie holds the token
      const code = url.searchParams.get('code') ?? '';
      const until = codes.get(code);
      codes.delete(code);
      if (until === undefined || Date.now() > until) return refuse(res, 403, 'refused: this address was good once; open the address `git handoff web` printed');
      res.writeHead(303, { ...SECURITY_HEADERS, Location: '/', 'Set-Cookie': `${cookieName()}=${o.token}; HttpOnly; SameSite=Strict; Path=/` });
      return res.end();
    }
    const byAddress = tokenMatches(url.searchParams.get('t'), o.token);
    const cookie = new RegExp(`(?:^|;)\\s*${cookieName()}=([^;]*)`).exec(String(req.headers.cookie ?? ''))?.[1].trim();
    if (!byAddress && !tokenMatches(cookie, o.token)) return refuse(res, 403, 'refused: open the address `git handoff web` printed (it carries this run\'s token)');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return refuse(res, 405, 'refused: the page is read-only (GET and HEAD only)');
    }
    const head = req.method === 'HEAD';
    const all = url.searchParams.get('all') === '1';
    const json = (value: unknown) => send(res, 200, 'application/json', JSON.stringify(value), head);
    const routes: Record<string, () => void> = {
      '/': () => send(res, 200, 'text/html', page(o, byAddress), head),
      '/app.js': () => send(res, 200, 'text/javascript', PAGE.js, head),
      '/app.css': () => send(res, 200, 'text/css', PAGE.css, head),
      '/api/status': () => json(o.source.status(all)),
      '/api/timeline': () => json(o.source.timeline(all)),
      '/api/version': () => {
        const v = o.source.version(url.searchParams.get('oid') ?? '');
        return v === null ? refuse(res, 404, 'no such handoff version') : json(v);
      },
      '/api/events': () => {
        res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
        if (head) return res.end();
        res.write(': connected\n\n');
        streams.add(res);
        req.on('close', () => streams.delete(res));
      },
    };
    try {
      (routes[url.pathname] ?? (() => refuse(res, 404, 'not found')))();
    } catch (e) {
      refuse(res, 500, `git-handoff could not read the repository: ${(e as Error).message}`);
    }
  };

  const server = createServer(handle);
  let watching: { close(): void } | null = null;
  const keepalive = setInterval(() => {
    for (const r of streams) r.write(': keep-alive\n\n');
  }, KEEPALIVE_MS);
  keepalive.unref();

  return new Promise<{ url: string; port: number; oneTimeUrl(): string; close(): Promise<void> }>((resolve, reject) => {
    server.once('error', (e) => {
      clearInterval(keepalive);
      reject(e);
    });
    server.listen(o.port, LOOPBACK, () => {
      port = (server.address() as AddressInfo).port;
      watching = o.source.watch((why) => {
        const line = `event: change\ndata: ${JSON.stringify({ why, at: new Date().toISOString() })}\n\n`;
        for (const r of streams) r.write(line);
      });
      resolve({
        // the address with the run's token, for the person's own terminal; oneTimeUrl's, with a new one-time code in its place, for the browser's arguments
        url: `http://${LOOPBACK}:${port}/?t=${encodeURIComponent(o.token)}`,
        port,
        oneTimeUrl: () => {
          const code = randomBytes(24).toString('base64url');
          codes.set(code, Date.now() + (o.codeTtlMs ?? 60_000));
          return `http://${LOOPBACK}:${port}/open?code=${code}`;
        },
        close: () =>
          new Promise<void>((done) => {
            watching?.close();
            clearInterval(keepalive);
            server.close(() => done());
            // the event streams and kept-alive connections too: close waits for none of them
            server.closeAllConnections();
          }),
      });
    });
  });
}
