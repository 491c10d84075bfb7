/**
 * The operators' "Event delivery" screen (issue 21 item 4; docs/operations.md "Domain-event outbox"): a person who
 * is not an operator has no menu entry and the address says "Not available"; an operator (flag set in the
 * database the documented way, docs/auth.md "Operators") opens it from the account menu, sees every consumer with
 * its counts and lag refreshed every 5 s, retries a dead letter (made in the database: a failing dependency cannot
 * be produced from the browser), and replays analytics.facts from yesterday through the dialog and its
 * confirmation; axe-clean, at 1280 px and 390 px.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import pg from 'pg';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, signIn } from './helpers';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Runs `fn` with a client of the install's embedded PostgreSQL (the server's DATA_DIR). */
async function withDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `switchboard-e2e-${process.ppid}`);
  const port = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'postgres', database: 'switchboard' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Grants or revokes the operator flag the documented way: an UPDATE of `users.is_operator` (docs/auth.md "Operators"). */
async function setOperator(email: string, on: boolean): Promise<void> {
  await withDb((c) => c.query('update users set is_operator = $2 where lower(email) = lower($1)', [email, on]));
}

/** No critical or serious WCAG 2.1 A/AA violation on the page as it is. */
async function expectAxeClean(page: Page, screen: string): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(blocking.map((v) => `${screen}: ${v.id} ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.describe.configure({ mode: 'serial' });

test('a person who is not an operator has no "Event delivery" entry, and the address says it is not available', async ({ page }) => {
  await setOperator(DEMO.email, false);
  let asked = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/ops/outbox') asked++;
  });
  await signIn(page);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Event delivery' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await page.goto('/ops/outbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Event delivery' })).toBeVisible();
  await expect(page.getByText('Not available', { exact: true })).toBeVisible();
  await expect(page.getByText('Event delivery is for the platform’s operators only.')).toBeVisible();
  await expect(page.getByTestId('outbox-consumers')).toHaveCount(0);
  expect(asked).toBe(0); // the screen does not even ask
  await expectAxeClean(page, 'not available');
});

test('an operator sees every consumer refreshed every 5 s, retries a dead letter and replays analytics.facts from yesterday', async ({ page }) => {
  test.setTimeout(180_000);
  await setOperator(DEMO.email, true);
  await page.setViewportSize(DESKTOP);
  await signIn(page);

  // From the account menu.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Event delivery' }).click();
  await expect(page).toHaveURL(/\/ops\/outbox$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Event delivery' })).toBeVisible();

  // The consumers, with their counts; the demo's calls of today went through analytics.facts.
  const table = page.getByTestId('outbox-consumers');
  await expect(table).toBeVisible();
  for (const header of ['Consumer', 'Events', 'Pending', 'Retrying', 'Dead', 'Done last hour', 'Lag', 'Last error'])
    await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  const facts = table.getByRole('row').filter({ hasText: 'analytics.facts' });
  await expect(facts).toHaveCount(1);
  await expect(facts).toContainText('call.changed');
  await expect(table.getByRole('row').filter({ hasText: 'webhooks.deliveries' })).toHaveCount(1);
  const consumerCount = await table.getByTestId('outbox-consumer').count();
  expect(consumerCount).toBeGreaterThanOrEqual(10);

  // Refreshed every 5 s, saying how old the figures are.
  const updated = page.getByTestId('outbox-updated');
  await expect(updated).toHaveText(/^updated (just now|\d+ s ago)$/);
  await page.waitForRequest((r) => new URL(r.url()).pathname === '/api/ops/outbox', { timeout: 8_000 });
  await expect(updated).toHaveText(/^updated (just now|[1-5] s ago)$/);

  // A fresh install has no dead letters.
  const deadLetters = page.getByRole('region', { name: 'Dead letters' });
  await expect(deadLetters.getByText('No dead letters')).toBeVisible();
  await expectAxeClean(page, 'desktop');
  await page.screenshot({ path: 'test-results/ops-outbox-1280.png', fullPage: true });

  // A dead letter (a delivery that used up its attempts; made in the database) is marked and retried alone.
  const eventId = await withDb(async (c) => {
    const r = await c.query<{ event_id: string }>(
      `update event_deliveries set status = 'dead', attempts = 8, last_error = 'e2e: the warehouse was down', done_at = null
       where consumer = 'analytics.facts' and event_id = (select max(event_id) from event_deliveries where consumer = 'analytics.facts' and status = 'done')
       returning event_id`,
    );
    return Number(r.rows[0]!.event_id);
  });
  const group = page.getByRole('region', { name: 'Dead letters of analytics.facts' });
  await expect(group).toBeVisible({ timeout: 10_000 });
  await expect(group.getByTestId('outbox-dead-letter')).toHaveCount(1);
  await expect(group).toContainText(`event #${eventId}`);
  await expect(group).toContainText('8 attempts');
  await expect(group).toContainText('e2e: the warehouse was down');
  await expect(facts).toHaveAttribute('data-health', 'dead');
  await expect(facts.getByText('1 dead letter', { exact: true })).toBeVisible();
  await expect(page.getByText('1 consumer needs attention')).toBeVisible();
  await page.screenshot({ path: 'test-results/ops-outbox-dead-letter-1280.png', fullPage: true });
  await group.getByRole('button', { name: `Retry event ${eventId} for analytics.facts` }).click();
  await expect(page.locator('[data-notice-type="success"]').filter({ hasText: '1 dead letter will be retried.' })).toBeVisible();
  // The consumer takes it again (its handler is idempotent) and the list is empty again.
  await expect(deadLetters.getByText('No dead letters')).toBeVisible({ timeout: 20_000 });
  await expect(facts).toHaveAttribute('data-health', 'ok');
  await expect
    .poll(
      () =>
        withDb(
          async (c) => (await c.query(`select status from event_deliveries where consumer = 'analytics.facts' and event_id = $1`, [eventId])).rows[0].status,
        ),
      {
        timeout: 20_000,
      },
    )
    .toBe('done');

  // Replay from yesterday: the dialog, its confirmation saying what will happen, the answer's count.
  await facts.getByRole('button', { name: 'Replay from… (analytics.facts)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replay analytics.facts' });
  const from = dialog.getByLabel('From');
  const since = await from.inputValue();
  expect(since).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
  expect(Math.abs(Date.now() - 24 * 3600_000 - new Date(since).getTime())).toBeLessThan(5 * 60_000); // yesterday, this time
  await dialog.getByLabel('Company id (optional)').fill('acme');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('The company id must be a number.')).toBeVisible();
  await dialog.getByLabel('Company id (optional)').fill('');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const confirmation = dialog.getByTestId('replay-confirmation');
  await expect(confirmation).toContainText(/Every event since \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M .+ will be delivered to analytics\.facts again\./);
  await expectAxeClean(page, 'replay confirmation');
  await page.screenshot({ path: 'test-results/ops-outbox-replay-1280.png' });
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/ops/outbox/consumers/analytics.facts/replay'));
  await dialog.getByRole('button', { name: 'Replay', exact: true }).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  expect(JSON.parse(response.request().postData() ?? '{}')).toEqual({ since: new Date(since).toISOString() });
  const { count, message } = (await response.json()) as { count: number; message: string };
  // Every event analytics.facts takes (the names the status lists for it), written since then: today's demo calls at least.
  const takes = ((await (await page.request.get('/api/ops/outbox')).json()) as { consumers: { consumer: string; events: string[] }[] }).consumers.find(
    (c) => c.consumer === 'analytics.facts',
  )!.events;
  expect(takes).toContain('call.changed');
  const expected = await withDb(
    async (c) =>
      (await c.query(`select count(*)::int as n from domain_events where created_at >= $1 and name = any($2::text[])`, [new Date(since).toISOString(), takes]))
        .rows[0].n as number,
  );
  expect(count).toBe(expected);
  expect(count).toBeGreaterThan(0);
  expect(message).toBe(`${count} event${count === 1 ? '' : 's'} will be delivered to analytics.facts again.`);
  await expect(page.locator('[data-notice-type="success"]').filter({ hasText: message })).toBeVisible();
  await expect(dialog).toBeHidden();

  // At phone width: one card per consumer, the same actions.
  await page.setViewportSize(PHONE);
  await expect(table).toBeHidden();
  const card = page.getByTestId('outbox-consumer-card').filter({ hasText: 'analytics.facts' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Done last hour');
  await expect(card.getByRole('button', { name: 'Replay from… (analytics.facts)' })).toBeVisible();
  // Nothing wider than the phone, also while a 5 s read is out (its loader has a slot of its own).
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.waitForRequest((r) => new URL(r.url()).pathname === '/api/ops/outbox', { timeout: 8_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expectAxeClean(page, 'phone');
  await page.screenshot({ path: 'test-results/ops-outbox-390.png', fullPage: true });
  await card.getByRole('button', { name: 'Replay from… (analytics.facts)' }).click();
  await expect(page.getByRole('dialog', { name: 'Replay analytics.facts' })).toBeVisible();
  await page.screenshot({ path: 'test-results/ops-outbox-replay-390.png' });
  await page.keyboard.press('Escape');
  await setOperator(DEMO.email, false);
});
