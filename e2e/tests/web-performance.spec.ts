/**
 * The sign-in page on a slow phone network (docs/operations.md "Web delivery"): its JavaScript
 * under 200 KB gzipped, usable within 3 s on DevTools' "Slow 4G" profile (562.5 ms request
 * latency, 1.44 Mbit/s down, 675 kbit/s up), hashed assets cached for a year, and the app's pages
 * loaded as their own chunks after sign-in.
 */
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

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

test('the sign-in page ships under 200 KB of gzipped JavaScript, cached as immutable', async ({ page, baseURL }) => {
  const scripts = new Set<string>();
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.add(r.url());
  });
  await page.goto('/login');
  await expect(page.getByLabel('Email')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.size).toBeGreaterThan(0);
  let total = 0;
  for (const url of scripts) {
    const { bytes, encoding, cacheControl } = await gzippedSize(url);
    expect(encoding, url).toBe('gzip');
    expect(cacheControl, url).toBe('public, max-age=31536000, immutable');
    total += bytes;
  }
  console.log(`sign-in page: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzipped`);
  expect(total).toBeLessThan(200 * 1024);
  // The page itself is revalidated, so a new release is picked up at once.
  const index = await gzippedSize(`${baseURL}/login`);
  expect(index.cacheControl).toBe('no-cache');
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
  await page.goto('/login');
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
