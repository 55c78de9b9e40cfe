// Loads a page written by `active-status view` in headless Chromium and
// prints what the DOM shows, as one JSON object on stdout; the Rust test
// (tests/it/view.rs) asserts on it. With --screenshot FILE it also saves a
// full-page PNG (scripts/view-screenshot.sh).
//
// Usage: node check-view.mjs PAGE.html [--screenshot FILE] [--filter-project P]
//
// Chromium: $CHROMIUM, else /usr/bin/chromium. The flags keep it off the
// network (this machine has none); Playwright gives it a fresh profile.

import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const page_path = resolve(args[0]);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const url = pathToFileURL(page_path).href;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url, { waitUntil: 'load' });

  const shot = opt('--screenshot');
  if (shot) await page.screenshot({ path: shot, fullPage: false });

  const visible = () => page.$$eval('#items tbody tr', (rs) => rs.filter((r) => !r.hidden).length);
  const result = {};
  result.audit_open = Number(await page.getAttribute('#audit', 'data-open'));
  result.rows = await page.$$eval('#items tbody tr', (rs) => rs.length);
  result.filters_shown = await page.$eval('#filters', (f) => !f.hidden);
  result.charts = await page.$$eval('svg.chart', (cs) =>
    cs.map((c) => ({ id: c.id, points: c.querySelectorAll('.pt').length })));
  result.scripts = await page.$$eval('script', (s) => s.length);
  result.text = await page.evaluate(() => document.body.innerText);
  result.html = await page.content();

  // Filters: a project, then the status "overflow", then free text.
  const project = opt('--filter-project');
  if (project !== undefined) {
    await page.selectOption('#f-project', project);
    result.after_project = await visible();
    result.expected_project = await page.$$eval('#items tbody tr',
      (rs, p) => rs.filter((r) => r.dataset.project === p).length, project);
    await page.selectOption('#f-project', '*');
  }
  await page.selectOption('#f-status', 'overflow');
  result.after_status = await visible();
  await page.selectOption('#f-status', '*');
  await page.fill('#f-text', 'zzzz-no-such-text');
  result.after_text = await visible();
  result.count_label = await page.textContent('#shown-count');
  await page.fill('#f-text', '');
  result.after_clear = await visible();

  // Sorting by age, descending after two clicks: ages never increase.
  await page.click('th[data-key=age]');
  await page.click('th[data-key=age]');
  result.ages_descending = await page.$$eval('#items tbody tr', (rs) => {
    const a = rs.map((r) => (r.dataset.age === '' ? -1 : Number(r.dataset.age)));
    return a.every((v, i) => i === 0 || a[i - 1] >= v);
  });

  result.requests = requests;
  result.errors = errors;
  process.stdout.write(JSON.stringify(result));
} finally {
  await browser.close();
}
