#!/usr/bin/env node
// docs/web.png, the README's picture of `git handoff web`: a team of two clones of one bare remote and three sessions
// (Claude Code and Gemini CLI on one clone, Claude Code on the other), with handoffs, claims, a takeover and a second
// version, served by the built CLI and taken by Debian's headless Chromium through puppeteer-core.
//   node scripts/screenshot.mjs [out.png]     (needs `npm run build` and /usr/bin/chromium or CHROMIUM_PATH)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(ROOT, 'docs', 'web.png'));
const root = mkdtempSync(path.join(tmpdir(), 'gh-shot-'));
const home = path.join(root, 'home');
mkdirSync(home);
writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Dana Lee\n\temail = dana@example.com\n');
const env = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', XDG_STATE_HOME: path.join(home, 'state'), XDG_CACHE_HOME: path.join(home, 'cache'), PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };
for (const k of Object.keys(env)) if (/^(CLAUDE|GEMINI|CODEX|GIT_HANDOFF_SESSION)/.test(k)) delete env[k];
const run = (cwd, args, extra = {}, input) => execFileSync(args[0], args.slice(1), { cwd, env: { ...env, ...extra }, input, encoding: 'utf8' });
const git = (cwd, ...args) => run(cwd, ['git', ...args]);
const gh = (cwd, extra, ...args) => run(cwd, ['git', 'handoff', ...args], extra);

const bare = path.join(root, 'team.git');
git(root, 'init', '-q', '--bare', bare);
const clone = (name) => {
  const dir = path.join(root, name);
  git(root, 'init', '-q', '--initial-branch=main', dir);
  writeFileSync(path.join(dir, 'README.md'), 'shop\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  git(dir, 'remote', 'add', 'origin', `file://${bare}`);
  return dir;
};
const laptop = clone('laptop');
const desktop = clone('desktop');
const docs = path.join(root, 'laptop-docs');
git(laptop, 'worktree', 'add', '-q', '-b', 'docs-work', docs);
const S = { a: '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90', b: 'c1d2e3f4-0000-4000-8000-000000000001', c: '9b1e77d0-2222-4333-8444-555566667777' };
const as = { a: { CLAUDE_CODE_SESSION_ID: S.a }, b: { GEMINI_SESSION_ID: S.b }, c: { CLAUDE_CODE_SESSION_ID: S.c } };
const start = (cwd, session, gemini) =>
  run(cwd, ['git', 'handoff', 'guard'], {}, JSON.stringify(gemini ? { session_id: session, hook_event_name: 'SessionStart', timestamp: new Date().toISOString(), cwd, source: 'startup', transcript_path: '/tmp/x.json' } : { session_id: session, hook_event_name: 'SessionStart', cwd, source: 'startup', transcript_path: `/tmp/${session}.jsonl` }));
start(laptop, S.a, false);
start(docs, S.b, true);
start(desktop, S.c, false);
gh(laptop, as.a, 'write', 'auth-refactor', '-m', 'Goal: log in with OAuth instead of passwords.', '-m', 'State: the callback route works; session refresh does not.', '-m', 'Next action: fix the refresh in src/auth/session.ts.');
gh(laptop, as.a, 'claim', 'src/auth/', '--note', 'moving login to OAuth', '--ttl', '2h');
gh(docs, as.b, 'write', 'docs-search-index', '--branch', 'main', '-m', 'Goal: a search index for the docs site.', '-m', 'Next action: rebuild the index after the API pages.');
gh(docs, as.b, 'claim', 'docs/search/', '--branch', 'main', '--note', 'rebuilding the index', '--ttl', '90m');
gh(desktop, as.c, 'write', 'billing-webhooks', '-m', 'Goal: retry failed payment webhooks.', '-m', 'Next action: keep going');
gh(desktop, as.c, 'claim', 'src/billing/', '--note', 'webhook retries', '--ttl', '12m');
gh(desktop, {}, 'sync');
gh(laptop, {}, 'sync');
gh(desktop, as.c, 'write', 'billing-webhooks', '-m', 'Goal: retry failed payment webhooks.', '-m', 'Next action: retry with backoff, then alert on the third failure.');
gh(desktop, {}, 'sync');
gh(laptop, {}, 'sync');

const web = spawn('git', ['handoff', 'web', '--no-open'], { cwd: laptop, env: { ...env, ...as.a }, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve) => {
  let text = '';
  web.stdout.on('data', (d) => {
    text += d;
    const m = /http:\/\/127\.0\.0\.1:\d+\/\?t=\S+/.exec(text);
    if (m) resolve(m[0]);
  });
});
const profile = mkdtempSync(path.join(root, 'chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--user-data-dir=${profile}`],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 1000, deviceScaleFactor: 1 });
  await page.goto(url);
  await page.waitForSelector('[data-session]');
  const newest = git(laptop, 'rev-parse', 'refs/handoffs/main/billing-webhooks').trim();
  await page.click(`button[data-oid="${newest}"]`);
  await page.waitForSelector('#version pre.diff');
  await page.screenshot({ path: out, fullPage: true });
} finally {
  await browser.close();
  web.kill('SIGINT');
  await new Promise((r) => web.once('exit', r));
  rmSync(root, { recursive: true, force: true });
}
process.stdout.write(`${out}\n`);
