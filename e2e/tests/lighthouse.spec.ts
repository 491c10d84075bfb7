/**
 * Lighthouse (mobile, simulated throttling: 150 ms round trips, 1.6 Mbit/s down, CPU 4× slower) on the first page a
 * stranger sees and on the inbox, signed in through the demo account (issue 22 §3; apps/web/README.md "First page"):
 * performance at least 90 for the sign-in page (opened at `/`) and 70 for the inbox, accessibility 100 for both.
 *
 * Lighthouse drives Debian's Chromium (chrome-launcher with `chromePath`, headless) over its debugging port; the
 * sign-in for the inbox goes through the sign-in form in that same browser (Playwright connected over CDP), so
 * Lighthouse's tab has the session cookie, and the audit keeps the browser's storage (`disableStorageReset`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { DEMO } from './helpers';

/** The least scores (0–100) per page (issue 22 §3). */
const SIGN_IN = { performance: 90, accessibility: 100 };
const INBOX = { performance: 70, accessibility: 100 };

const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

interface Scores {
  performance: number;
  accessibility: number;
  /** Metric values in ms (CLS unitless), for the log. */
  metrics: Record<string, number>;
  /** Failed accessibility audits, for the failure message. */
  failedA11y: string[];
}

/**
 * Runs Lighthouse (mobile preset, performance and accessibility) on `url` in the Chromium at `port`; the full report
 * (JSON) is written to `reportPath` for a closer look (the test's output folder).
 */
async function audit(url: string, port: number, keepStorage: boolean, reportPath: string): Promise<Scores> {
  const result = await lighthouse(url, {
    port,
    logLevel: 'error',
    output: 'json',
    onlyCategories: ['performance', 'accessibility'],
    disableStorageReset: keepStorage,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  fs.writeFileSync(reportPath, JSON.stringify(lhr));
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const metric = (id: string) =>
    Math.round((lhr.audits[id]?.numericValue ?? NaN) * (id === 'cumulative-layout-shift' ? 1000 : 1)) / (id === 'cumulative-layout-shift' ? 1000 : 1);
  const a11yRefs = lhr.categories.accessibility?.auditRefs ?? [];
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    metrics: {
      FCP: metric('first-contentful-paint'),
      LCP: metric('largest-contentful-paint'),
      TBT: metric('total-blocking-time'),
      CLS: metric('cumulative-layout-shift'),
      SI: metric('speed-index'),
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    },
    failedA11y: a11yRefs.filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0).map((ref) => `${ref.id}: ${lhr.audits[ref.id]?.title}`),
  };
}

/**
 * Lighthouse's score varies from run to run on a shared machine (its own guidance: take the median of several runs).
 * Runs `runs` audits and returns the one with the median performance score; a run that Lighthouse itself reports as
 * broken (e.g. NO_NAVSTART, a trace it failed to record) is made again, at most twice in all.
 */
async function medianAudit(url: string, port: number, keepStorage: boolean, reportPath: (run: number) => string, runs: number): Promise<Scores> {
  const results: Scores[] = [];
  let broken = 0;
  while (results.length < runs) {
    try {
      results.push(await audit(url, port, keepStorage, reportPath(results.length + broken)));
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('Lighthouse: ') || ++broken > 2) throw error;
      console.log(`Lighthouse run on ${url} made again: ${error.message}`);
    }
  }
  results.sort((a, b) => a.performance - b.performance);
  if (runs > 1) console.log(`Lighthouse ${url}: performance of ${runs} runs ${results.map((r) => r.performance).join(', ')}`);
  return results[Math.floor(results.length / 2)]!;
}

test('Lighthouse: the sign-in page scores 90+ and the inbox 70+ for performance, both 100 for accessibility', async ({ baseURL }, testInfo) => {
  test.setTimeout(240_000);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-lighthouse-'));
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROMIUM_FLAGS,
    userDataDir,
    logLevel: 'error',
  });
  try {
    // A stranger typing the address: a fresh profile (Lighthouse also clears the origin's storage first).
    const signIn = await medianAudit(`${baseURL}/`, chrome.port, false, (n) => testInfo.outputPath(`lighthouse-sign-in-${n}.json`), 1);
    console.log(`Lighthouse sign-in page (/): performance ${signIn.performance}, accessibility ${signIn.accessibility}`, signIn.metrics);

    // Signed in through the form in the same browser, so Lighthouse's tab has the session.
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    await page.goto(`${baseURL}/login`);
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.close();
    const inbox = await medianAudit(`${baseURL}/inbox`, chrome.port, true, (n) => testInfo.outputPath(`lighthouse-inbox-${n}.json`), 3);
    console.log(`Lighthouse inbox: performance ${inbox.performance}, accessibility ${inbox.accessibility}`, inbox.metrics);
    await browser.close().catch(() => undefined);

    expect(signIn.failedA11y, 'sign-in page accessibility').toEqual([]);
    expect(inbox.failedA11y, 'inbox accessibility').toEqual([]);
    expect(signIn.accessibility).toBeGreaterThanOrEqual(SIGN_IN.accessibility);
    expect(inbox.accessibility).toBeGreaterThanOrEqual(INBOX.accessibility);
    expect(signIn.performance).toBeGreaterThanOrEqual(SIGN_IN.performance);
    expect(inbox.performance).toBeGreaterThanOrEqual(INBOX.performance);
  } finally {
    chrome.kill();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
});
