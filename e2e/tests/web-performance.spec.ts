/**
 * The first page a stranger sees (apps/web/README.md "First page"; docs/operations.md "Web delivery"): `/` and any
 * deep link show a signed-out visitor the sign-in form with at most 150 KB of JavaScript gzipped and nothing of the
 * signed-in app (its router, shell and pages are their own chunks), usable within 3 s on DevTools' "Slow 4G" profile
 * (562.5 ms request latency, 1.44 Mbit/s down, 675 kbit/s up); hashed assets cached for a year, the app's pages
 * loaded as their own chunks after sign-in, and the chart library (@mantine/charts over recharts) kept out of the
 * sign-in page and the first screen: only the screens that draw charts load it (docs/reports-screens.md
 * "Chart library"). Lighthouse scores are in lighthouse.spec.ts.
 */
import http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, signIn } from './helpers';

const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1.6e6 / 8) * 0.9, uploadThroughput: (750e3 / 8) * 0.9 };

/** Bytes of `url` as the server sends it gzipped (Content-Length of the precompressed copy, else the body). */
function gzippedSize(url: string): Promise<{ bytes: number; encoding: string | undefined; cacheControl: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
        });
        res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'], cacheControl: res.headers['cache-control'] }));
      })
      .on('error', reject);
  });
}

/** The most JavaScript, gzipped, a signed-out visitor may download to see the sign-in form (issue 22 §3). */
const SIGN_IN_BUDGET = 150 * 1024;

/** Chunks of the signed-in app (app/router.tsx, the layout, its pages) that a signed-out visitor must not download. */
const SIGNED_IN_CHUNKS = /\/(router|AppLayout|HomeRoute|InboxRoute|ContactsRoute|Softphone|BillingPage|PastDueBanner|socket\.io[\w.-]*)-[\w-]+\.js$/;

test('a stranger at / gets the sign-in form with at most 150 KB of gzipped JavaScript, cached as immutable', async ({ page, baseURL }) => {
  const scripts = new Set<string>();
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.add(r.url());
  });
  await page.goto('/');
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await page.waitForLoadState('networkidle');
  expect(scripts.size).toBeGreaterThan(0);
  let total = 0;
  for (const url of scripts) {
    const { bytes, encoding, cacheControl } = await gzippedSize(url);
    expect(encoding, url).toBe('gzip');
    expect(cacheControl, url).toBe('public, max-age=31536000, immutable');
    total += bytes;
  }
  console.log(`sign-in page from /: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzipped`);
  expect(total).toBeLessThanOrEqual(SIGN_IN_BUDGET);
  expect([...scripts].filter((u) => SIGNED_IN_CHUNKS.test(u))).toEqual([]);
  // The page itself is revalidated, so a new release is picked up at once.
  const index = await gzippedSize(`${baseURL}/login`);
  expect(index.cacheControl).toBe('no-cache');
});

test('a deep link shows a signed-out visitor the sign-in form, fetches nothing of the signed-in app, and comes back after sign-in', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto('/contacts');
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((u) => SIGNED_IN_CHUNKS.test(u))).toEqual([]);
  // Signing in goes on to the page the link asked for, with the signed-in app's chunks.
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(scripts.some((u) => /\/router-[\w-]+\.js$/.test(u))).toBe(true);
  // A signed-in person opening the app again gets it at once (the loader while the session probe is out, no sign-in
  // form on the way), and after signing out the sign-in form again.
  await page.addInitScript(() => {
    const w = window as unknown as { __paths: string[] };
    w.__paths = [];
    for (const name of ['pushState', 'replaceState'] as const) {
      const original = history[name].bind(history);
      history[name] = (data: unknown, unused: string, url?: string | URL | null) => {
        if (url) w.__paths.push(new URL(url, location.href).pathname);
        original(data, unused, url);
      };
    }
  });
  await page.goto('/numbers');
  await expect(page).toHaveURL(/\/numbers$/);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __paths: string[] }).__paths)).not.toContain('/login');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('Email')).toBeVisible();
});

test('a session that ends while in use goes back to the sign-in form with "Link expired. Please log in."', async ({ page }) => {
  await signIn(page);
  // The server no longer knows this browser: the next request answers 401 (foundation §8 forced logout).
  await page.context().clearCookies();
  // Opening another page makes such a request, unless a live refresh already did (then the link is gone).
  await page
    .getByRole('link', { name: 'Contacts' })
    .first()
    .click({ timeout: 5_000 })
    .catch((error: unknown) => {
      if (!(error instanceof Error) || !/Timeout|detached/i.test(error.message)) throw error;
    });
  await expect(page).toHaveURL(/\/login\?expired=1$/);
  await expect(page.getByTestId('session-expired')).toHaveText('Link expired. Please log in.');
  await expect(page.getByLabel('Email')).toBeVisible();
});

test('the sign-in page is usable within 3 s on a slow 4G network', async ({ page }) => {
  // When the e-mail field first appears in the document, in ms since navigation start.
  await page.addInitScript(() => {
    const w = window as unknown as { __usableAt?: number };
    new MutationObserver((_, observer) => {
      if (document.querySelector('input[type="email"], input[name="email"]')) {
        w.__usableAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await page.goto('/');
  await expect(page.getByLabel('Email')).toBeEditable({ timeout: 30_000 });
  const usableAt = await page.evaluate(() => (window as unknown as { __usableAt?: number }).__usableAt ?? Infinity);
  console.log(`sign-in page usable after ${Math.round(usableAt)} ms on slow 4G`);
  expect(usableAt).toBeLessThan(3000);
});

test('pages after sign-in come as their own chunks', async ({ page }) => {
  await signIn(page);
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.getByRole('link', { name: 'Contacts' }).first().click();
  await expect(page).toHaveURL(/\/contacts/);
  await expect.poll(() => scripts.some((u) => /ContactsRoute-[\w-]+\.js$/.test(u))).toBe(true);
});

/**
 * Strings only the chart library's code carries: recharts' wrapper class and @mantine/charts' component display
 * names (`@mantine/charts/BarChart`, …). Both are string literals, so they survive minification.
 */
const CHART_MARKERS = ['recharts-wrapper', '@mantine/charts/'];

/** The scripts among `urls` whose code holds a chart-library marker. */
async function scriptsWithCharts(page: Page, urls: Iterable<string>): Promise<string[]> {
  const out: string[] = [];
  for (const url of urls) {
    const text = await (await page.request.get(url)).text();
    if (CHART_MARKERS.some((m) => text.includes(m))) out.push(url);
  }
  return out;
}

test('the chart library stays out of the sign-in page and the first screen; the dashboard loads it', async ({ page }) => {
  // Every script the browser fetches (entry, static imports and their modulepreloads, lazy route chunks).
  const scripts = new Set<string>();
  page.on('response', (r) => {
    if (/\.m?js(\?|$)/.test(new URL(r.url()).pathname)) scripts.add(r.url());
  });
  await page.goto('/');
  await expect(page.getByLabel('Email')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.size).toBeGreaterThan(0);
  expect(await scriptsWithCharts(page, scripts), 'sign-in page').toEqual([]);

  // Signed in, the first screen (the inbox for the demo owner) and the app's layout: still no chart code.
  await signIn(page);
  // The first screen's lazy chunks (the live channel keeps a connection open: no network idle to wait for).
  await page.waitForTimeout(2000);
  expect(page.url()).not.toMatch(/\/(dashboard|reports|billing|tracking)/);
  expect(await scriptsWithCharts(page, scripts), 'first screen after sign-in').toEqual([]);

  // The markers are real: opening the dashboard (a screen that draws charts) fetches chunks that carry them.
  const before = new Set(scripts);
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect
    .poll(
      async () =>
        (
          await scriptsWithCharts(
            page,
            [...scripts].filter((u) => !before.has(u)),
          )
        ).length,
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
});
