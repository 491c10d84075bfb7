/**
 * Integrations (issue 24 "Proof", browser test; docs/integrations.md): connect Slack and Google Ads through the
 * sandbox consent page, choose a channel and a customer (and conversion action), place a call from the Phone simulator
 * to a company number, see the Slack message and the Google Ads conversion in the delivery logs (with what was sent),
 * and the call detail's "Sent to". The Integrations page is axe-clean at a desktop and at 390 px wide.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { api, buyNumberWith, choose, signIn } from './helpers';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Critical and serious axe violations of the page as it is now (ids and first targets). */
async function axeFindings(page: Page): Promise<string[]> {
  await expect(page.locator('.mantine-Skeleton-root[data-visible="true"]')).toHaveCount(0);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

/** Clicks Connect on a card, allows access on the sandbox consent page, and waits for the set-up dialog. */
async function connect(page: Page, provider: string, name: string) {
  await page
    .locator(`[data-testid="integration-card"][data-provider="${provider}"]`)
    .getByRole('button', { name: `Connect ${name}` })
    .click();
  await expect(page.getByRole('link', { name: 'Allow' })).toBeVisible();
  await page.getByRole('link', { name: 'Allow' }).click();
  await expect(page.getByRole('dialog', { name: `Set up ${name}` })).toBeVisible();
  return page.getByRole('dialog', { name: `Set up ${name}` });
}

test('connect Slack and Google Ads in the sandbox, a simulator call is sent to both and shows where it went', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const { companyId, number } = await buyNumberWith(page, '415', { routes: [{ round_robin: 'forwards', forwards: [{ number: '6465550101' }] }] });
  // A rerun starts from "not connected".
  for (const p of ['slackbot', 'googleads']) await api(page, 'put', `/api/companies/${companyId}/oauth-integrations/${p}/deactivate`);

  await page.getByRole('link', { name: 'Integrations' }).click();
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  const slackCard = page.locator('[data-testid="integration-card"][data-provider="slackbot"]');
  const googleCard = page.locator('[data-testid="integration-card"][data-provider="googleads"]');
  await expect(slackCard.getByTestId('integration-state')).toHaveText('Not connected');
  expect(await axeFindings(page)).toEqual([]);

  // Slack: consent, then the channel picker.
  const slack = await connect(page, 'slackbot', 'Slack');
  await expect(slack).toContainText('Connected as Sandbox workspace');
  await choose(page, 'Channel', /#sales-calls/);
  // Only this test's call (no backfill of the demo data's calls).
  await slack.getByLabel('Send the calls of the last (days)').fill('0');
  await slack.getByRole('button', { name: 'Activate' }).click();
  await expect(slack).toHaveCount(0);
  await expect(slackCard.getByTestId('integration-state')).toHaveText('Active');
  await expect(slackCard.getByTestId('connected-as')).toContainText('Sandbox workspace');

  // Google Ads: the manager account, the advertiser under it, a conversion action; every call (no minimum length).
  const google = await connect(page, 'googleads', 'Google Ads');
  await choose(page, 'Google Ads account you sign in with', /1112223333/);
  await choose(page, 'Advertiser account', /4445556666/);
  await choose(page, 'Conversion action', /30001/);
  await google.getByLabel('Only calls of at least (seconds)').fill('');
  await google.getByLabel('Send the calls of the last (days)').fill('0');
  expect(await axeFindings(page)).toEqual([]);
  await google.getByRole('button', { name: 'Activate' }).click();
  await expect(google).toHaveCount(0);
  await expect(googleCard.getByTestId('integration-state')).toHaveText('Active');

  // A call from the Phone simulator to the company number.
  await page.getByRole('link', { name: 'Phone simulator' }).click();
  const caller = `+1312555${String(1000 + Math.floor(Math.random() * 8999))}`;
  await page.getByLabel('Your outside phone number').fill(caller);
  const shown = `(${number.slice(2, 5)}) ${number.slice(5, 8)}-${number.slice(8)}`;
  await choose(page, 'Company number', new RegExp(shown.replace(/[()]/g, '\\$&')));
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByTestId('call-log')).toBeVisible();

  // The delivery logs: Slack's new-lead message and Google's conversion, each with what was sent.
  await page.getByRole('link', { name: 'Integrations' }).click();
  await slackCard.getByRole('button', { name: 'Delivery log of Slack' }).click();
  const log = page.getByTestId('delivery-log');
  const slackRow = log.locator('[data-testid="integration-delivery"][data-kind="lead"][data-state="delivered"]');
  await expect(slackRow).toHaveCount(1, { timeout: 30_000 });
  const callLink = slackRow.getByRole('link', { name: /Call #\d+/ });
  const callId = Number((await callLink.innerText()).replace(/\D/g, ''));
  await slackRow.getByRole('button', { name: /What was sent/ }).click();
  const slackSent = page.getByTestId('delivery-exchanges');
  await expect(slackSent).toContainText('chat.postMessage');
  await expect(slackSent).toContainText('C0SALES');
  await page.keyboard.press('Escape');
  await expect(slackSent).toHaveCount(0);

  await googleCard.getByRole('button', { name: 'Delivery log of Google Ads' }).click();
  await expect(log).toContainText('Google Ads');
  const googleRow = log.locator('[data-testid="integration-delivery"][data-kind="call"][data-state="delivered"]');
  await expect(googleRow).toHaveCount(1, { timeout: 30_000 });
  await expect(googleRow.getByRole('link', { name: `Call #${callId}` })).toBeVisible();
  await googleRow.getByRole('button', { name: /What was sent/ }).click();
  const googleSent = page.getByTestId('delivery-exchanges');
  await expect(googleSent).toContainText('events:ingest');
  await expect(googleSent).toContainText('"productDestinationId": "30001"');
  await page.keyboard.press('Escape');
  await expect(googleCard.getByTestId('last-delivery')).toContainText('Last delivery');

  // Replay asks first.
  await log.getByRole('button', { name: 'Replay…' }).click();
  const replay = page.getByRole('dialog', { name: /Replay deliveries/ });
  await expect(replay).toContainText('sent again');
  await replay.getByRole('button', { name: 'Cancel' }).click();
  await expect(replay).toHaveCount(0);

  // The call detail: where this call was sent.
  await googleRow.getByRole('link', { name: `Call #${callId}` }).click();
  const drawer = page.getByRole('dialog', { name: 'Call details' });
  const sentTo = drawer.getByTestId('call-sent-to');
  await expect(sentTo.locator('[data-provider="googleads"]')).toContainText('Sent');
  await expect(sentTo.locator('[data-provider="slackbot"]').first()).toContainText('Sent');

  // Phone size: the cards and the log fit 390 px, axe-clean.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/integrations');
  await expect(slackCard.getByTestId('integration-state')).toHaveText('Active');
  await slackCard.getByRole('button', { name: 'Delivery log of Slack' }).click();
  await expect(log.getByTestId('integration-delivery').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeFindings(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/ad-integrations-390.png', fullPage: true });
});
