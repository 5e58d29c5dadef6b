// The page of `git handoff web` in a real headless Chromium (Debian's chromium, driven by puppeteer-core), over the
// team of test/status/world.ts: it shows every session, claim and handoff with its owner; it updates by itself when
// the other clone writes and this one syncs; a version opens to its text and its diff against the one before.
import { describe, expect, it } from 'vitest';
import { handoffProcessesIn } from '../helpers/procs';
import { CLAIMED, makeTeam, S1, S2, S3, TOPICS } from '../status/world';
import { launchBrowser, startWeb } from './helpers';

describe('web: the page in Chromium', () => {
  it('shows the team, updates live after the other clone writes and this one syncs, and renders a version\'s diff', async () => {
    const t = await makeTeam();
    const web = await startWeb(t.a, { env: t.as[S1] });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      // nothing may be fetched from anywhere but the server
      const foreign: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(`http://127.0.0.1:${web.port}/`) && !r.url().startsWith('data:')) foreign.push(r.url());
      });
      await page.goto(web.url);
      await page.waitForSelector('[data-session]');
      await page.waitForSelector('#live.on');

      // every session with its client, each handoff with its owner, each claim in the tree with its holder
      const sessions = await page.$$eval('[data-session]', (els) => els.map((e) => ({ id: e.getAttribute('data-session'), text: e.textContent ?? '' })));
      expect(sessions.map((s) => s.id).sort()).toEqual([S1, S2, S3].sort());
      for (const s of sessions) {
        expect(s.text).toContain(TOPICS[s.id!]);
        expect(s.text).toContain(CLAIMED[s.id!].path);
        expect(s.text).toContain(CLAIMED[s.id!].note);
      }
      expect(sessions.find((s) => s.id === S2)!.text).toContain('gemini-cli');
      expect(sessions.find((s) => s.id === S3)!.text).toContain('another clone');
      const owners = await page.$$eval('tr[data-topic]', (els) => els.map((e) => [e.getAttribute('data-topic'), e.getAttribute('data-owner')] as const));
      expect(new Map(owners)).toEqual(new Map([S1, S2, S3].map((s) => [TOPICS[s], s])));
      const tree = await page.$$eval('[data-claim-path]', (els) => els.map((e) => [e.getAttribute('data-claim-path'), [...e.querySelectorAll(':scope > .holder')].map((h) => h.getAttribute('data-holder'))]));
      for (const s of [S1, S2, S3]) expect(tree, s).toContainEqual([CLAIMED[s].path, [s]]);
      expect(tree.map(([p]) => p)).toContain('src/');
      // the timeline: a lane per session, a version of each handoff
      const lanes = await page.$$eval('[data-lane]', (els) => els.map((e) => e.getAttribute('data-lane')));
      expect(lanes.sort()).toEqual([S1, S2, S3].sort());

      // B's session writes a new version and syncs; A syncs: the page redraws by itself
      const updates = Number(await page.$eval('main', (e) => e.getAttribute('data-updates')));
      const w = await t.b.cli(['write', TOPICS[S3], '-m', 'Goal: billing-webhooks by 9b1e77d0', '-m', 'Next action: retry with backoff, then alert'], { env: t.as[S3] });
      expect(w.exitCode, String(w.stderr)).toBe(0);
      expect((await t.b.cli(['sync'])).exitCode).toBe(0);
      expect((await t.a.cli(['sync'])).exitCode).toBe(0);
      const oid = t.a.git(['rev-parse', `refs/handoffs/main/${TOPICS[S3]}`]).stdout.trim();
      await page.waitForFunction((n: number) => Number(document.querySelector('main')?.getAttribute('data-updates')) > n, { timeout: 60_000 }, updates);
      await page.waitForSelector(`button[data-oid="${oid}"]`, { timeout: 60_000 });

      // the new version opens to its text and its diff against the one before
      await page.click(`button[data-oid="${oid}"]`);
      await page.waitForSelector(`#version[data-oid="${oid}"] pre.diff`);
      const panel = await page.$eval('#version', (e) => ({
        body: e.querySelector('pre.body')?.textContent ?? '',
        added: [...e.querySelectorAll('.diff .add')].map((x) => x.textContent),
        removed: [...e.querySelectorAll('.diff .del')].map((x) => x.textContent),
      }));
      expect(panel.body).toContain('retry with backoff, then alert');
      expect(panel.added).toContainEqual('+ Next action: retry with backoff, then alert');
      expect(panel.removed).toContainEqual('- Next action: keep going');
      expect(errors).toEqual([]);
      expect(foreign).toEqual([]);
      await browser.close();
      expect(await web.stop('SIGINT')).toBe(0);
      expect(handoffProcessesIn(t.a.dir)).toEqual([]);
    } finally {
      await browser.close();
      web.kill();
    }
  });
});
