/**
 * Call tracking in the browser (spec 002 "DNI"; docs/tracking.md, docs/tracking-screens.md), against the real
 * product with the sandbox carrier and the demo seed (a pool and the demo website served by the product):
 * - the demo page swaps the company's number in every written format and in content added after load,
 *   keeping each one's format, `tel:` links included;
 * - two browser contexts (two visitors) are shown different pool numbers;
 * - with "wait for consent" the script swaps and stores nothing until the page reports consent; withdrawn,
 *   it puts the page's numbers back, removes its storage and the visitor cookie, and sends nothing more
 *   (heartbeat, navigation and new content included; the page's clock is fast-forwarded);
 * - a call from the Phone simulator to the number a Google Ads visitor was shown is attributed to Google
 *   Ads with its gclid, and appears in the real-time feed without a reload; the caller is a lead with the
 *   call and the visit, and the pool editor shows the number's recent visits with the call;
 * - every tracking screen renders at desktop and phone width (screenshots in the test output).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { signIn, api } from './helpers';

interface Pool {
  id: number;
  company_id: number;
  active: boolean;
  name: string;
  target_numbers: string[];
  numbers: Array<{ number_id: number; number: string; state: string }>;
  fallback_number: string | null;
}

/** The five ways people write a North American number (the list), from E.164 `+1AAABBBCCCC`. */
function formats(e164: string): string[] {
  const d = e164.replace(/\D/g, '').slice(-10);
  const [a, b, c] = [d.slice(0, 3), d.slice(3, 6), d.slice(6)];
  return [`${a}-${b}-${c}`, `(${a}) ${b}-${c}`, `${a}.${b}.${c}`, `+1 ${a} ${b} ${c}`, `1-${a}-${b}-${c}`];
}

/** The pool number now written on the page (the first pool number found in the body text), or null. */
async function shownNumber(page: Page, pool: Pool): Promise<string | null> {
  const text = await page.locator('body').innerText();
  return pool.numbers.map((n) => n.number).find((n) => formats(n).some((f) => text.includes(f))) ?? null;
}

/** Free numbers each test may need (every visitor of these tests holds one for the session length). */
const FREE_NEEDED = 4;

/**
 * Buys numbers into the pool (the pool editor's purchase path, PUT with `purchase`) until FREE_NEEDED are
 * free, and waits for the bulk purchase to finish: the tests never depend on how many sessions earlier
 * tests left holding numbers.
 */
async function topUp(page: Page, companyId: number, pool: Pool & { health?: { free: number } }): Promise<Pool> {
  const free = pool.health?.free ?? 0;
  if (free >= FREE_NEEDED) return pool;
  const found = await api(page, 'get', `/api/numbers/search?type=local&areaCode=415&limit=${FREE_NEEDED - free}`);
  const purchase = (found.body.data as Array<{ number: string; provider_id: number }>).map((n) => ({ number: n.number, provider_id: n.provider_id }));
  // The whole pool goes along (as the pool editor sends it): only `purchase` is new.
  const full = pool as Pool & Record<string, unknown>;
  const put = await api(page, 'put', `/api/companies/${companyId}/dniPools/${pool.id}`, {
    name: full.name,
    active: full.active,
    priority: full.priority,
    source_rules: full.source_rules,
    target_numbers: full.target_numbers,
    session_duration_minutes: full.session_duration_minutes,
    cool_down_minutes: full.cool_down_minutes,
    fallback_number_id: full.fallback_number_id,
    number_ids: pool.numbers.map((n) => n.number_id),
    purchase,
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  let current: Pool & { pending_purchase_batch_id: string | null } = put.body.data;
  await expect
    .poll(
      async () => {
        current = (await api(page, 'get', `/api/companies/${companyId}/dniPools/${pool.id}`)).body.data;
        return current.pending_purchase_batch_id;
      },
      { message: 'the purchase for the pool finishes', timeout: 60_000 },
    )
    .toBeNull();
  return current;
}

interface Setup {
  companyId: number;
  pool: Pool;
  demoUrl: string;
  consentSnippet: string;
}

/** Reads the demo company's id, its seeded pool and the demo website's address through the API. */
async function setup(page: Page): Promise<Setup> {
  const companies = await api(page, 'get', '/api/companies');
  const companyId = (companies.body.data ?? companies.body)[0].id as number;
  const pools = await api(page, 'get', `/api/companies/${companyId}/dniPools`);
  expect(pools.status, JSON.stringify(pools.body)).toBe(200);
  let pool = (pools.body.data as Pool[]).find((p) => p.active && p.target_numbers.length > 0);
  if (!pool) {
    // No seeded pool (a data directory seeded before call tracking): the pool a person would create.
    const created = await api(page, 'post', `/api/companies/${companyId}/dniPools`, {
      name: 'Website visitors',
      target_numbers: ['(415) 555-0100'],
      routing: { type: 'forward', number: '(415) 555-0100' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    pool = created.body.data as Pool;
  }
  pool = await topUp(page, companyId, pool);
  const script = await api(page, 'get', `/api/companies/${companyId}/trackingNumbers/script`);
  expect(script.status, JSON.stringify(script.body)).toBe(200);
  expect(script.body.demo_url, 'the sandbox serves a demo website').toBeTruthy();
  return { companyId, pool: pool!, demoUrl: script.body.demo_url as string, consentSnippet: script.body.consent_snippet as string };
}

/** A new visitor: a fresh browser context (own cookies and storage) on the demo page with `query`. */
async function visit(browser: Browser, demoUrl: string, query = '') {
  const context = await browser.newContext();
  const page = await context.newPage();
  const url = new URL(demoUrl);
  for (const [k, v] of new URLSearchParams(query)) url.searchParams.set(k, v);
  await page.goto(url.toString());
  return { context, page };
}

async function waitForSwap(page: Page, pool: Pool): Promise<string> {
  await expect.poll(() => shownNumber(page, pool), { message: 'a pool number is swapped in' }).not.toBeNull();
  return (await shownNumber(page, pool))!;
}

test.describe.configure({ mode: 'serial' });

test('the demo page swaps the number in every format, in tel: links and in content added after load', async ({ page, browser }) => {
  await signIn(page);
  const { pool, demoUrl } = await setup(page);
  const target = pool.target_numbers[0]!;
  const { context, page: site } = await visit(browser, demoUrl, 'utm_source=google&utm_medium=cpc&gclid=TEST');
  const shown = await waitForSwap(site, pool);
  expect(shown).not.toBe(target);

  const text = await site.locator('body').innerText();
  // Every format of the target was written on the page and is now the pool number in the same format.
  for (const [i, f] of formats(target).entries()) {
    expect(text, `target written as ${f} is gone`).not.toContain(f);
    expect(text, `the pool number is written as ${formats(shown)[i]}`).toContain(formats(shown)[i]);
  }
  const targetDigits = target.replace(/\D/g, '').slice(-10);
  const shownDigits = shown.replace(/\D/g, '').slice(-10);
  const hrefs = await site.locator('a[href^="tel:"]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  expect(hrefs.length).toBeGreaterThan(0);
  for (const href of hrefs) {
    expect(href.replace(/\D/g, '')).toContain(shownDigits);
    expect(href.replace(/\D/g, '')).not.toContain(targetDigits);
  }

  // Content added after load (a single-page app rendering later) is swapped too, in its own format.
  await site.evaluate((written) => {
    const p = document.createElement('p');
    p.id = 'added-later';
    p.textContent = `Call us: ${written}`;
    document.body.appendChild(p);
  }, formats(target)[2]!);
  await expect(site.locator('#added-later')).toHaveText(`Call us: ${formats(shown)[2]}`);
  await context.close();
});

test('two visitors are shown different numbers', async ({ page, browser }) => {
  await signIn(page);
  const { pool, demoUrl } = await setup(page);
  const a = await visit(browser, demoUrl, 'utm_source=google&utm_medium=cpc&gclid=A1');
  const b = await visit(browser, demoUrl, 'utm_source=google&utm_medium=cpc&gclid=B2');
  const numberA = await waitForSwap(a.page, pool);
  const numberB = await waitForSwap(b.page, pool);
  expect(numberA).not.toBe(numberB);
  // A second page of the same visitor keeps their number (the session lasts across pages).
  await a.page.reload();
  expect(await waitForSwap(a.page, pool)).toBe(numberA);
  await a.context.close();
  await b.context.close();
});

test('with wait for consent the script swaps and stores nothing until consent is given, and stops and forgets when it is withdrawn', async ({
  page,
  browser,
}) => {
  await signIn(page);
  const { companyId, pool, demoUrl, consentSnippet } = await setup(page);
  const target = pool.target_numbers[0]!;
  const on = await api(page, 'put', `/api/companies/${companyId}/trackingNumbers/settings`, { wait_for_consent: true });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
  try {
    const context = await browser.newContext();
    // The page's own clock: the heartbeat (every 60 s) is fast-forwarded instead of waited for.
    await context.clock.install();
    const sent: string[] = [];
    context.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/dni/public/') && !path.endsWith('/script.js')) sent.push(path.split('/').pop()!);
    });
    const site = await context.newPage();
    const url = new URL(demoUrl);
    for (const [k, v] of new URLSearchParams('utm_source=google&utm_medium=cpc&gclid=CONSENT')) url.searchParams.set(k, v);
    await site.goto(url.toString());
    await site.waitForLoadState('networkidle');
    // Give the script time to act if it (wrongly) would.
    await site.waitForTimeout(1500);
    expect(await shownNumber(site, pool)).toBeNull();
    expect(await site.locator('body').innerText()).toContain(formats(target)[1]);
    const stored = await site.evaluate(() => ({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length }));
    expect(stored).toEqual({ cookie: '', local: 0, session: 0 });
    expect((await context.cookies()).map((c) => c.name)).toEqual([]);
    expect(sent).toEqual([]);

    // The page reports consent (what a consent platform's callback does): the numbers swap.
    await site.evaluate((code) => new Function(code)(), consentSnippet.replace(/<\/?script[^>]*>/g, ''));
    const shown = await waitForSwap(site, pool);
    expect(shown).not.toBe(target);
    expect(sent).toContain('session');
    // While consent lasts the heartbeat runs, the session is stored, the visitor cookie is set.
    await site.clock.fastForward('01:05');
    await expect.poll(() => sent.filter((x) => x === 'heartbeat').length, { message: 'a heartbeat is sent' }).toBeGreaterThan(0);
    expect(await site.evaluate(() => localStorage.length)).toBe(1);
    expect((await context.cookies()).map((c) => c.name)).toContain('sb_dni_vid');

    // Consent withdrawn: the page's own numbers come back, storage and the visitor cookie go.
    await site.evaluate(() => (window as unknown as { switchboardDni: { consent: (v: boolean) => void } }).switchboardDni.consent(false));
    await expect.poll(() => sent.includes('forget'), { message: 'the server is asked to remove its cookie' }).toBe(true);
    await expect.poll(async () => (await context.cookies()).map((c) => c.name), { message: 'the visitor cookie is gone' }).not.toContain('sb_dni_vid');
    expect(await shownNumber(site, pool)).toBeNull();
    const text = await site.locator('body').innerText();
    for (const f of formats(target)) expect(text, `the page shows ${f} again`).toContain(f);
    expect(await site.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length }))).toEqual({ local: 0, session: 0 });

    // Afterwards nothing is sent and nothing swapped: single-page navigation, new content, time passing.
    const count = sent.length;
    await site.getByTestId('navigate').click();
    await site.getByTestId('add-content').click();
    await expect(site.getByTestId('added-phone')).toHaveText(`Emergency line: ${formats(target)[2]}`);
    await site.clock.fastForward('05:00');
    await site.waitForTimeout(1000);
    expect(sent.slice(count), 'no request after the withdrawal').toEqual([]);
    expect(await site.evaluate(() => localStorage.length)).toBe(0);
    expect((await context.cookies()).map((c) => c.name)).toEqual([]);
    await context.close();
  } finally {
    await api(page, 'put', `/api/companies/${companyId}/trackingNumbers/settings`, { wait_for_consent: false });
  }
});

test('a simulator call to the number a Google Ads visitor saw is attributed and appears in the feed live', async ({ page, browser }) => {
  // Three browsers (the watcher, the visitor, the simulator) and a call: more than the default budget on a busy machine.
  test.setTimeout(180_000);
  await signIn(page);
  const { companyId, pool, demoUrl } = await setup(page);

  // The person watching the real-time feed; a marker on window proves the page is never reloaded.
  await page.goto('/tracking/feed');
  await expect(page.getByRole('heading', { name: 'Real-time feed', level: 1 })).toBeVisible();
  await page.evaluate(() => ((window as unknown as { feedMarker: number }).feedMarker = 42));

  const visitor = await visit(browser, demoUrl, 'utm_source=google&utm_medium=cpc&utm_campaign=spring&gclid=TEST');
  const shown = await waitForSwap(visitor.page, pool);
  // The visitor appears in the feed as they arrive, with their source and the number shown.
  const visitorRow = page.getByTestId('feed-visitor').filter({ hasText: formats(shown)[1]! });
  await expect(visitorRow).toBeVisible();
  await expect(visitorRow.getByTestId('source-badge')).toHaveText('Google Ads');

  // The caller dials the shown number from the Phone simulator (a second signed-in browser).
  const simContext = await browser.newContext();
  const sim = await simContext.newPage();
  await signIn(sim);
  await sim.goto('/simulator');
  const caller = `+1312555${String(1000 + Math.floor(Math.random() * 8999))}`;
  await sim.getByLabel('Your outside phone number').fill(caller);
  await sim
    .getByRole('textbox', { name: 'Company number' })
    .or(sim.getByRole('combobox', { name: 'Company number' }))
    .first()
    .click();
  await sim
    .getByRole('option', { name: new RegExp(formats(shown)[1]!.replace(/[()]/g, '\\$&')) })
    .first()
    .click();
  await sim.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(sim.getByTestId('call-log')).toBeVisible();

  // The call arrives in the feed without a reload, attributed to Google Ads.
  const callRow = page.getByTestId('feed-call').filter({ hasText: formats(caller)[1]! });
  await expect(callRow).toBeVisible();
  await expect(callRow.getByTestId('source-badge')).toHaveText('Google Ads');
  expect(await page.evaluate(() => (window as unknown as { feedMarker?: number }).feedMarker)).toBe(42);

  // The attribution carries the gclid, and the visit's journey shows the call.
  const callId = Number(await callRow.getAttribute('data-call-id'));
  const attribution = await api(page, 'get', `/api/companies/${companyId}/dniCallAttribution/${callId}`);
  expect(attribution.status, JSON.stringify(attribution.body)).toBe(200);
  expect(attribution.body.data.method).toBe('pool');
  expect(attribution.body.data.last_touch.traffic_source).toBe('google_ads');
  expect(attribution.body.data.click_ids.gclid).toBe('TEST');
  expect(attribution.body.data.pool_id).toBe(pool.id);

  await callRow.getByRole('link', { name: 'Journey' }).click();
  await expect(page.getByRole('heading', { name: 'Visit', level: 1 })).toBeVisible();
  await expect(page.getByTestId('click-ids')).toContainText('gclid=TEST');
  await expect(page.getByTestId('session-facts').getByTestId('source-badge').first()).toHaveText('Google Ads');
  await expect(page.getByTestId('journey-event').filter({ hasText: `Call from ${formats(caller)[1]}` })).toBeVisible();

  // The caller is a lead: the call and the visit together, Google Ads where they came from.
  await page.goto('/tracking/leads');
  const leadRow = page.getByTestId('lead-row').filter({ hasText: formats(caller)[1]! });
  await expect(leadRow).toBeVisible();
  await expect(leadRow.getByTestId('source-badge').first()).toHaveText('Google Ads');
  await leadRow.getByRole('link', { name: formats(caller)[1]! }).click();
  await expect(page.getByRole('heading', { name: formats(caller)[1]!, level: 1 })).toBeVisible();
  await expect(page.getByTestId('lead-call')).toHaveCount(1);
  await expect(page.getByTestId('lead-visit').first()).toContainText('spring');

  // The pool editor shows the number's recent visits, with the call.
  await page.goto(`/tracking/pools/${pool.id}`);
  await page.getByRole('link', { name: `Recent visits shown ${formats(shown)[1]}` }).click();
  const dialog = page.getByRole('dialog', { name: `Recent visits shown ${formats(shown)[1]}` });
  await expect(dialog.getByTestId('number-visit').filter({ hasText: `Call from ${formats(caller)[1]}` })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await visitor.context.close();
  await simContext.close();
});

const SCREENS = [
  { path: '/tracking', heading: 'Call tracking' },
  { path: '/tracking/sources', heading: 'Sources' },
  { path: '/tracking/script', heading: 'Tracking script' },
  { path: '/tracking/feed', heading: 'Real-time feed' },
  { path: '/tracking/leads', heading: 'Leads' },
  { path: '/tracking/reports', heading: 'Tracking reports' },
  { path: '/tracking/bulk-update', heading: 'Bulk attribute update' },
  { path: '/tracking/pools/new', heading: 'New tracking pool' },
];

test('every tracking screen renders at desktop and phone width with no serious accessibility violation', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await signIn(page);
  const { pool } = await setup(page);
  const findings: string[] = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    const sessions = (await api(page, 'get', `/api/companies/${(await setup(page)).companyId}/dni/realTimeFeed`)).body.visitors as Array<{
      session_id: string;
    }>;
    const screens = [...SCREENS, { path: `/tracking/pools/${pool.id}`, heading: pool.name }];
    if (sessions[0]) screens.push({ path: `/tracking/sessions/${sessions[0].session_id}`, heading: 'Visit' });
    const leads = (await api(page, 'get', `/api/companies/${pool.company_id}/dni/leads?per_page=1`)).body.data as Array<{ id: number; phone: string }>;
    if (leads[0]?.phone.startsWith('+1')) screens.push({ path: `/tracking/leads/${leads[0].id}`, heading: formats(leads[0].phone)[1]! });
    for (const screen of screens) {
      await page.goto(screen.path);
      await expect(page.getByRole('heading', { name: screen.heading, level: 1 })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Call tracking' })).toBeVisible();
      await expect(page.getByTestId('list-skeleton')).toHaveCount(0);
      await expect(page.locator('.mantine-Skeleton-root[data-visible="true"]')).toHaveCount(0);
      await expect(page.getByText(/^Error loading/)).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath(`${width}-${screen.path.replace(/\W+/g, '_')}.png`) });
      // axe once per screen (at desktop width; the phone layout is the same markup reflowed).
      if (width < 500) continue;
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      for (const v of axe.violations.filter((x) => x.impact === 'critical' || x.impact === 'serious')) {
        findings.push(
          `[${width} ${screen.path}] ${v.id}: ${v.help} — ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(', ')}`,
        );
      }
    }
  }
  expect(findings, findings.join('\n')).toEqual([]);
});
