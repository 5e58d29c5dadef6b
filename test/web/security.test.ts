// `git handoff web`'s guarantees, by plain HTTP requests to the running command: the token, the Host header (DNS
// rebinding), another Origin, no method but GET and HEAD, 127.0.0.1 only; stopped by SIGINT or SIGTERM with exit 0
// and no process left.
import { request } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handoffProcessesIn } from '../helpers/procs';
import { makeRepo, ROOT } from '../helpers/repo';
import { startWeb } from './helpers';

function get(port: number, pathAndQuery: string, o: { method?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathAndQuery, method: o.method ?? 'GET', headers: o.headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(o.method === 'POST' || o.method === 'PUT' ? '{}' : undefined);
  });
}

const refsOf = (dir: string, git: (a: string[]) => { stdout: string }) => git(['for-each-ref', '--format=%(refname) %(objectname)']).stdout + dir;

describe('web: security', () => {
  it('answers only with the token, for the loopback Host, same-origin GETs; stops on SIGINT and SIGTERM leaving nothing', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'auth-refactor', '--session', 'alice', '-m', 'Goal: one'])).exitCode).toBe(0);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const web = await startWeb(repo);
      try {
        const t = encodeURIComponent(web.token);
        const host = { Host: `127.0.0.1:${web.port}` };
        // with the token: the page and its data
        const ok = await get(web.port, `/api/status?t=${t}`, { headers: host });
        expect(ok.status).toBe(200);
        expect(JSON.parse(ok.body).handoffs.map((h: any) => h.topic)).toContain('auth-refactor');
        expect(ok.headers['content-security-policy']).toContain("default-src 'none'");
        expect((await get(web.port, `/?t=${t}`, { headers: { Host: `localhost:${web.port}` } })).status).toBe(200);
        // no token, a wrong one, one of another length: refused, and nothing of the data said
        for (const q of ['', '?t=', `?t=${t}x`, `?t=${'A'.repeat(web.token.length)}`]) {
          for (const p of ['/', '/app.js', '/api/status', '/api/events', '/api/timeline']) {
            const r = await get(web.port, `${p}${q}`, { headers: host });
            expect(r.status, `${p}${q}`).toBe(403);
            expect(r.body).not.toContain('auth-refactor');
          }
        }
        // DNS rebinding: the right token under another name is still refused
        for (const h of [`evil.example:${web.port}`, 'evil.example', `127.0.0.1.nip.io:${web.port}`, `127.0.0.1:${web.port + 1}`]) {
          const r = await get(web.port, `/api/status?t=${t}`, { headers: { Host: h } });
          expect(r.status, h).toBe(421);
          expect(r.body).not.toContain('auth-refactor');
        }
        // no Host at all (HTTP/1.0): refused too
        const bare = await new Promise<string>((resolve) => {
          let got = '';
          const s = connect({ host: '127.0.0.1', port: web.port }, () => s.write(`GET /api/status?t=${t} HTTP/1.0\r\n\r\n`));
          s.on('data', (d) => (got += d));
          s.on('end', () => resolve(got));
        });
        expect(bare).toMatch(/^HTTP\/1\.[01] 421/);
        // a request another site's page makes (its Origin) is refused
        expect((await get(web.port, `/api/status?t=${t}`, { headers: { ...host, Origin: 'http://evil.example' } })).status).toBe(403);
        expect((await get(web.port, `/api/status?t=${t}`, { headers: { ...host, Origin: `http://127.0.0.1:${web.port}` } })).status).toBe(200);
        // nothing writes: every other method is refused, the refs are as they were
        const before = refsOf(repo.dir, repo.git);
        for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
          for (const p of ['/', '/api/status', '/api/version']) expect((await get(web.port, `${p}?t=${t}`, { method, headers: host })).status, `${method} ${p}`).toBe(405);
        }
        expect(refsOf(repo.dir, repo.git)).toBe(before);
        // reading moves nothing either: a handoff ref made with raw git (one the loss record has not taken in, as every
        // command's start would) is shown, and the record stays where it was
        const tip = repo.git(['rev-parse', 'refs/handoffs/main/auth-refactor']).stdout.trim();
        repo.git(['update-ref', `refs/handoffs/main/raw-${signal.toLowerCase()}-topic`, tip]);
        const moved = refsOf(repo.dir, repo.git);
        const status = JSON.parse((await get(web.port, `/api/status?t=${t}`, { headers: host })).body);
        expect(status.handoffs.map((h: any) => h.topic)).toContain(`raw-${signal.toLowerCase()}-topic`);
        for (const p of [`/api/status?all=1&t=${t}`, `/api/timeline?t=${t}`, `/api/version?oid=${tip}&t=${t}`, `/?t=${t}`]) expect((await get(web.port, p, { headers: host })).status, p).toBe(200);
        expect(refsOf(repo.dir, repo.git)).toBe(moved);
        // listening on 127.0.0.1 alone: this machine's other addresses refuse the connection
        const others = Object.values(networkInterfaces()).flat().filter((i) => i && i.family === 'IPv4' && !i.internal).map((i) => i!.address);
        for (const address of others) {
          const refused = await new Promise<boolean>((resolve) => {
            const s = connect({ host: address, port: web.port });
            s.on('connect', () => (s.destroy(), resolve(false)));
            s.on('error', () => resolve(true));
          });
          expect(refused, address).toBe(true);
        }
        expect(handoffProcessesIn(repo.dir).length).toBeGreaterThan(0);
        expect(await web.stop(signal)).toBe(0);
        expect(handoffProcessesIn(repo.dir), signal).toEqual([]);
      } finally {
        web.kill();
      }
    }
  });

  it('starts the browser with a one-time code, never the token: the code is good once, for an HttpOnly SameSite=Strict cookie', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['write', 'auth-refactor', '--session', 'alice', '-m', 'Goal: one'])).exitCode).toBe(0);
    const web = await startWeb(repo, { open: true, args: ['--json'] });
    try {
      const out = web.stdout();
      // --json: the address (with the token, for the person's own terminal), the port and the pid, as one line
      const said = JSON.parse(out.split('\n')[0]);
      expect(said).toMatchObject({ port: expect.any(Number), pid: expect.any(Number), opened: true });
      const token = new URL(said.url).searchParams.get('t')!;
      expect(token.length).toBeGreaterThan(20);
      const argv = web.opened!.split('\n');
      expect(argv).toHaveLength(1);
      expect(argv[0]).not.toContain(token);
      expect(argv[0]).not.toContain(encodeURIComponent(token));
      const open = new URL(argv[0]);
      expect(`${open.origin}${open.pathname}`).toBe(`http://127.0.0.1:${said.port}/open`);
      const host = { Host: `127.0.0.1:${said.port}` };
      const first = await get(said.port, `${open.pathname}${open.search}`, { headers: host });
      expect(first.status).toBe(303);
      expect(first.headers.location).toBe('/');
      const cookie = String((first.headers['set-cookie'] as string[])[0]);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      const pair = cookie.split(';')[0];
      // the code is worthless after its first use; the cookie opens the page and the data
      const again = await get(said.port, `${open.pathname}${open.search}`, { headers: host });
      expect(again.status).toBe(403);
      expect(again.headers['set-cookie']).toBeUndefined();
      const pageWithCookie = await get(said.port, '/', { headers: { ...host, Cookie: pair } });
      expect(pageWithCookie.status).toBe(200);
      expect(pageWithCookie.body).not.toContain(token);
      const status = await get(said.port, '/api/status', { headers: { ...host, Cookie: pair } });
      expect(status.status).toBe(200);
      expect(JSON.parse(status.body).handoffs.map((h: any) => h.topic)).toContain('auth-refactor');
      // without the cookie or the token, or with another value in it: refused
      for (const headers of [host, { ...host, Cookie: `${pair.split('=')[0]}=${'A'.repeat(token.length)}` }, { ...host, Cookie: `other=${token}` }]) {
        const r = await get(said.port, '/api/status', { headers });
        expect(r.status).toBe(403);
        expect(r.body).not.toContain('auth-refactor');
      }
      // a made-up code is refused too
      expect((await get(said.port, `/open?code=${token}`, { headers: host })).status).toBe(403);
      expect(await web.stop('SIGINT')).toBe(0);
    } finally {
      web.kill();
    }
  });

  it('refuses to listen anywhere but 127.0.0.1', async () => {
    const repo = makeRepo({ commit: true });
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      const r = await repo.cli(['web', '--no-open', '--host', host]);
      expect(r.exitCode, host).toBe(2);
      expect(String(r.stderr)).toContain('127.0.0.1 only');
    }
    // a port another program holds: exit 7 and the way on; one that is no port: exit 2
    const held = createServer();
    await new Promise<void>((r) => held.listen(0, '127.0.0.1', () => r()));
    const port = (held.address() as AddressInfo).port;
    const busy = await repo.cli(['web', '--no-open', '--port', String(port)]);
    held.close();
    expect(busy.exitCode).toBe(7);
    expect(String(busy.stderr)).toContain(`port ${port} on 127.0.0.1 is in use`);
    expect((await repo.cli(['web', '--no-open', '--port', '70000'])).exitCode).toBe(2);
    expect(handoffProcessesIn(repo.dir)).toEqual([]);
    // the server itself refuses a non-loopback address before it listens
    const { startWeb: serve } = require(path.join(ROOT, 'dist', 'web.cjs'));
    const noop = { status: () => ({}), timeline: () => ({}), version: () => null, watch: () => ({ close: () => {} }) };
    await expect(serve({ host: '0.0.0.0', port: 0, token: 'x', title: 't', source: noop, assets: { js: '', css: '' } })).rejects.toThrow(/127\.0\.0\.1 only/);
    // a one-time code is short-lived: past its time it opens nothing
    const web = await serve({ host: '127.0.0.1', port: 0, token: 'x'.repeat(32), title: 't', source: noop, assets: { js: '', css: '' }, codeTtlMs: 20 });
    try {
      const late = new URL(web.oneTimeUrl());
      const fresh = new URL(web.oneTimeUrl());
      await new Promise((r) => setTimeout(r, 60));
      expect((await get(web.port, `${late.pathname}${late.search}`, { headers: { Host: `127.0.0.1:${web.port}` } })).status).toBe(403);
      expect(fresh.search).not.toBe(late.search);
    } finally {
      await web.close();
    }
  });
});
