// The page of `git handoff web` as a person reads it, in a real headless Chromium: a handoff opens from its row or
// its owner's card at an address of its own (a fresh page at that address shows it), the filter narrows the rows and
// the timeline and is kept in the address, times read "… ago" with the exact time in their tooltip, and one month-old
// version does not crush today's, minutes apart, into one spot.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/repo';
import { launchBrowser, startWeb } from './helpers';

const MIN = 60_000;

describe('web: finding a handoff on the page', () => {
  it('opens a handoff from its row and its owner, at an address that reopens it; filters; reads times as ago; spreads today\'s versions', async () => {
    const repo = makeRepo({ commit: true });
    const now = Date.now();
    // committed at a given time: the page reads the committer time
    const write = async (topic: string, session: string, ago: number, text: string) => {
      const at = new Date(now - ago).toISOString();
      const w = await repo.cli(['write', topic, '--session', session, '-m', text], { env: { GIT_COMMITTER_DATE: at, GIT_AUTHOR_DATE: at } });
      expect(w.exitCode, String(w.stderr)).toBe(0);
    };
    await write('old-notes', 'alice', 30 * 24 * 60 * MIN, 'Goal: the old notes');
    await write('auth-refactor', 'alice', 12 * MIN, 'Goal: OAuth login\nNext action: tokens');
    await write('billing-webhooks', 'bob', 8 * MIN, 'Goal: webhook retries by bob');
    await write('auth-refactor', 'alice', 3 * MIN, 'Goal: OAuth login\nNext action: refresh tokens');
    const branch = repo.git(['branch', '--show-current']).stdout.trim();
    const web = await startWeb(repo, { open: true });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(web.url);
      await page.waitForSelector('tr[data-topic]');
      const rows = () => page.$$eval('tr[data-topic]', (els) => els.map((e) => e.getAttribute('data-topic')).sort());

      // times as `git log --date=relative` says them, the exact time (24 h, the date when not today) in the tooltip
      const updated = await page.$$eval('tr[data-topic] time', (els) => els.map((e) => [e.closest('tr')!.getAttribute('data-topic'), e.textContent, e.getAttribute('title')]));
      expect(updated).toContainEqual(['billing-webhooks', expect.stringMatching(/^\d+ minutes ago$/), expect.stringMatching(/^(\d{4}-\d\d-\d\d )?\d\d:\d\d$/)]);
      expect(updated).toContainEqual(['old-notes', '1 month ago', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/)]);

      // the two versions of today, 9 minutes apart, are far apart on screen though one version is a month old
      const [late, early] = repo.git(['rev-list', `refs/handoffs/${branch}/auth-refactor`]).stdout.trim().split('\n');
      const xOf = (oid: string) => page.$eval(`button[data-oid="${oid}"]`, (e) => e.getBoundingClientRect().x);
      expect((await xOf(late)) - (await xOf(early))).toBeGreaterThan(100);
      // and the month without a version is marked
      expect(await page.$$eval('.gap-label', (els) => els.map((e) => e.textContent))).toEqual(['1 month']);

      // a click on a row opens that handoff: its text, its versions, and an address of its own
      await page.click('tr[data-topic="billing-webhooks"] td:nth-child(2)');
      await page.waitForSelector('#version pre.body');
      expect(await page.$eval('#version pre.body', (e) => e.textContent)).toContain('webhook retries by bob');
      const hash = await page.evaluate(() => location.hash);
      expect(hash).toBe(`#/h/${branch}/billing-webhooks`);
      // a handoff with two versions lists both, the newest open
      await page.click('tr[data-topic="auth-refactor"]');
      await page.waitForFunction(() => document.querySelector('#version pre.body')?.textContent?.includes('refresh tokens'));
      expect(await page.$$eval('#version [data-history]', (els) => els.map((e) => e.getAttribute('data-history')))).toEqual([late, early]);
      await page.click(`#version [data-history="${early}"]`);
      await page.waitForSelector(`#version[data-oid="${early}"]`);
      expect(await page.$eval('#version pre.body', (e) => e.textContent)).toContain('Next action: tokens');

      // a fresh page at a handoff's address shows that handoff; a click on an owner's chip opens its own
      const fresh = await browser.newPage();
      await fresh.goto(`${web.url}${hash}`);
      await fresh.waitForSelector('#version pre.body');
      expect(await fresh.$eval('#version pre.body', (e) => e.textContent)).toContain('webhook retries by bob');
      await fresh.click('a[data-owned="old-notes"]');
      await fresh.waitForFunction(() => document.querySelector('#version pre.body')?.textContent?.includes('the old notes'));
      expect(await fresh.evaluate(() => location.hash)).toBe(`#/h/${branch}/old-notes`);

      // the browser started with a one-time code lands on the handoff the code's address names
      const byCode = await browser.newPage();
      await byCode.goto(`${web.opened}${hash}`);
      await byCode.waitForSelector('#version pre.body');
      expect(await byCode.$eval('#version pre.body', (e) => e.textContent)).toContain('webhook retries by bob');
      expect(await byCode.evaluate(() => `${location.pathname}${location.search}${location.hash}`)).toBe(`/${hash}`);

      // the filter narrows the handoffs and the timeline, and is kept in the address
      await page.type('#filter-topic', 'auth');
      await page.waitForFunction(() => document.querySelectorAll('tr[data-topic]').length === 1);
      expect(await rows()).toEqual(['auth-refactor']);
      expect(await page.$eval('#handoffs h2', (e) => e.textContent)).toBe('Handoffs (1 of 3)');
      expect(await page.$$eval('button[data-oid]', (els) => els.map((e) => e.getAttribute('data-oid')).sort())).toEqual([late, early].sort());
      expect(await page.evaluate(() => location.hash)).toContain('topic=auth');
      const byBob = await browser.newPage();
      await byBob.goto(`${web.url}#/?session=bob`);
      await byBob.waitForSelector('tr[data-topic]');
      expect(await byBob.$$eval('tr[data-topic]', (els) => els.map((e) => e.getAttribute('data-topic')))).toEqual(['billing-webhooks']);
      expect(await byBob.$eval('#filter-session', (e) => (e as HTMLSelectElement).value)).toBe('bob');
      expect(await byBob.$$eval('[data-lane]', (els) => els.map((e) => e.getAttribute('data-lane')))).toEqual(['bob']);
      await byBob.select('#filter-session', '');
      await byBob.waitForFunction(() => document.querySelectorAll('tr[data-topic]').length === 3);
      expect(await byBob.$eval('#handoffs h2', (e) => e.textContent)).toBe('Handoffs (3)');

      // the page at a laptop's width and a phone's: nothing runs off its right edge
      // PAGE_SHOTS: a folder to keep the screenshots in, for a person to look at
      const shots = process.env.PAGE_SHOTS ?? path.join(tempDir('gh-shots-'), 'shots');
      mkdirSync(shots, { recursive: true });
      for (const width of [1280, 600]) {
        await fresh.setViewport({ width, height: 900 });
        expect(await fresh.evaluate(() => document.documentElement.scrollWidth), `at ${width} px`).toBeLessThanOrEqual(width);
        await fresh.screenshot({ path: path.join(shots, `page-${width}.png`), fullPage: true });
      }
      console.log(`screenshots: ${shots}`);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      web.kill();
    }
  });
});
