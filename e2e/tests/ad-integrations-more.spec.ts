/**
 * Integrations, the other providers (issue 24 "Proof", browser tests; docs/integrations.md "Screens"): GA4, the ADF
 * lead export, Meta Ads, Microsoft Advertising and GoHighLevel set up in the sandbox from the Integrations page (GA4
 * and ADF through their forms, the others through the sandbox consent page and their lookups), a call placed from the
 * Phone simulator to a company number, and the call's delivery in each one's log with what was sent. One test per
 * provider; the Slack and Google Ads flow is ad-integrations.spec.ts.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, buyNumberWith, choose, signIn } from './helpers';

/** The card of a provider on the Integrations page. */
function card(page: Page, provider: string): Locator {
  return page.locator(`[data-testid="integration-card"][data-provider="${provider}"]`);
}

/**
 * Signs in, buys a forwarding number, removes what an earlier run of this provider left (a rerun starts from "not
 * connected") and opens the Integrations page. @returns the company id and the number (E.164).
 */
async function start(page: Page, provider: string): Promise<{ companyId: number; number: string }> {
  await signIn(page);
  const { companyId, number } = await buyNumberWith(page, '415', { routes: [{ round_robin: 'forwards', forwards: [{ number: '6465550101' }] }] });
  if (provider === 'ga4' || provider === 'adf') {
    const base = `/api/companies/${companyId}/${provider === 'ga4' ? 'ga4integrations' : 'adf-integrations'}`;
    const existing = await api(page, 'get', base);
    for (const i of existing.body?.data ?? []) await api(page, 'delete', `${base}/${i.id}`);
  } else await api(page, 'put', `/api/companies/${companyId}/oauth-integrations/${provider}/deactivate`);
  await page.getByRole('link', { name: 'Integrations' }).click();
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  await expect(card(page, provider).getByTestId('integration-state')).toHaveText('Not connected');
  return { companyId, number };
}

/** Clicks Connect on an OAuth card, allows access on the sandbox consent page. @returns the set-up dialog. */
async function consent(page: Page, provider: string, name: string): Promise<Locator> {
  await card(page, provider)
    .getByRole('button', { name: `Connect ${name}` })
    .click();
  await expect(page.getByRole('link', { name: 'Allow' })).toBeVisible();
  await page.getByRole('link', { name: 'Allow' }).click();
  const dialog = page.getByRole('dialog', { name: `Set up ${name}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Every call (no minimum length), no backfill of the demo data's calls, then Activate; the card turns Active. */
async function activate(page: Page, provider: string, dialog: Locator): Promise<void> {
  const minimum = dialog.getByLabel('Only calls of at least (seconds)');
  if (await minimum.count()) await minimum.fill('');
  await dialog.getByLabel('Send the calls of the last (days)').fill('0');
  await dialog.getByRole('button', { name: 'Activate' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card(page, provider).getByTestId('integration-state')).toHaveText('Active');
}

/** Places a call from a new outside number to `number` with the Phone simulator, then goes back to Integrations. */
async function placeCall(page: Page, number: string): Promise<void> {
  await page.getByRole('link', { name: 'Phone simulator' }).click();
  await page.getByLabel('Your outside phone number').fill(`+1312555${String(1000 + Math.floor(Math.random() * 8999))}`);
  const shown = `(${number.slice(2, 5)}) ${number.slice(5, 8)}-${number.slice(8)}`;
  await choose(page, 'Company number', new RegExp(shown.replace(/[()]/g, '\\$&')));
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByTestId('call-log')).toBeVisible();
  await page.getByRole('link', { name: 'Integrations' }).click();
}

/**
 * Opens the delivery log of a card and waits for the call's delivery of `kind` in `state`; opens "What was sent".
 * @returns the exchanges panel (closed again with Escape by the caller).
 */
async function delivered(page: Page, provider: string, name: string, kind: string, state = 'delivered'): Promise<{ row: Locator; sent: Locator }> {
  await card(page, provider)
    .getByRole('button', { name: `Delivery log of ${name}` })
    .click();
  const log = page.getByTestId('delivery-log');
  await expect(log).toContainText(name);
  const row = log.locator(`[data-testid="integration-delivery"][data-kind="${kind}"][data-state="${state}"]`).first();
  await expect(row).toBeVisible({ timeout: 45_000 });
  await expect(row.getByRole('link', { name: /Call #\d+/ })).toBeVisible();
  await row.getByRole('button', { name: /What was sent/ }).click();
  const sent = page.getByTestId('delivery-exchanges');
  await expect(sent).toBeVisible();
  return { row, sent };
}

test('GA4: the measurement id and API secret form, a simulator call sent to the Measurement Protocol', async ({ page }) => {
  test.setTimeout(90_000);
  const { number } = await start(page, 'ga4');
  await card(page, 'ga4').getByRole('button', { name: 'Connect Google Analytics 4' }).click();
  const form = page.getByRole('dialog', { name: 'Connect Google Analytics 4' });
  await form.getByLabel('Measurement id').fill('G-E2ETEST42');
  await form.getByRole('textbox', { name: 'API secret' }).fill('e2e-api-secret');
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(form).toHaveCount(0);
  await expect(card(page, 'ga4').getByTestId('integration-state')).toHaveText('Active');

  await placeCall(page, number);
  const { sent } = await delivered(page, 'ga4', 'Google Analytics 4', 'call');
  await expect(sent).toContainText('/mp/collect');
  await expect(sent).toContainText('G-E2ETEST42');
  await expect(sent).not.toContainText('e2e-api-secret'); // the API secret is redacted in the log
  await page.keyboard.press('Escape');
  await expect(card(page, 'ga4').getByTestId('last-delivery')).toContainText('Last delivery');
});

test('ADF: the lead export form, a new caller sent as an ADF/XML lead to the CRM address', async ({ page }) => {
  test.setTimeout(90_000);
  const { companyId, number } = await start(page, 'adf');
  await card(page, 'adf').getByRole('button', { name: 'Connect ADF lead export' }).click();
  const form = page.getByRole('dialog', { name: 'Set up the ADF lead export' });
  await form.getByLabel('CRM lead e-mail address').fill('leads@dealer-crm.example');
  await form.getByLabel('Dealership name (optional)').fill('E2E Motors');
  await form.getByRole('button', { name: 'Set up' }).click();
  await expect(form).toHaveCount(0);
  await expect(card(page, 'adf').getByTestId('integration-state')).toHaveText('Active');

  await placeCall(page, number);
  const { row } = await delivered(page, 'adf', 'ADF lead export', 'lead');
  const sent = page.getByTestId('delivery-exchanges');
  await expect(sent).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(row).toBeVisible();
  await expect(card(page, 'adf').getByTestId('last-delivery')).toContainText('Last delivery');
  // No lead export is left behind: it mails a lead for every later text of the company (other tests read the outbox).
  const base = `/api/companies/${companyId}/adf-integrations`;
  for (const i of (await api(page, 'get', base)).body?.data ?? []) await api(page, 'delete', `${base}/${i.id}`);
});

test('Meta Ads: consent, business portfolio → ad account → pixel, a simulator call sent to the Conversions API', async ({ page }) => {
  test.setTimeout(90_000);
  const { number } = await start(page, 'metaads');
  const dialog = await consent(page, 'metaads', 'Meta Ads');
  await expect(dialog).toContainText('Connected as');
  await choose(page, 'Business portfolio', /Sandbox Motors Group/);
  await choose(page, 'Ad account', /Sandbox Motors – Search/);
  await choose(page, 'Pixel (dataset)', /Sandbox Motors Dataset/);
  await activate(page, 'metaads', dialog);

  await placeCall(page, number);
  const { sent } = await delivered(page, 'metaads', 'Meta Ads', 'call');
  await expect(sent).toContainText('880011223344/events');
  await expect(sent).toContainText('"action_source": "phone_call"');
  await page.keyboard.press('Escape');
});

test('Microsoft Advertising: consent, customer → account, a simulator call without a click id is logged as skipped', async ({ page }) => {
  test.setTimeout(90_000);
  const { number } = await start(page, 'microsoftads');
  const dialog = await consent(page, 'microsoftads', 'Microsoft Advertising');
  await choose(page, 'Customer (manager account)', /Sandbox Motors \(manager\)/);
  await choose(page, 'Ad account', /Sandbox Motors – Search/);
  await activate(page, 'microsoftads', dialog);

  await placeCall(page, number);
  // Offline conversions need the Microsoft click id (msclkid); a call nobody clicked to is logged, not sent.
  await card(page, 'microsoftads').getByRole('button', { name: 'Delivery log of Microsoft Advertising' }).click();
  const row = page.getByTestId('delivery-log').locator('[data-testid="integration-delivery"][data-kind="call"][data-state="skipped"]').first();
  await expect(row).toBeVisible({ timeout: 45_000 });
  await expect(row).toContainText('msclkid');
  await expect(row.getByRole('link', { name: /Call #\d+/ })).toBeVisible();
});

test('GoHighLevel: consent, the location, a simulator call logged in the contact’s conversation', async ({ page }) => {
  test.setTimeout(90_000);
  const { number } = await start(page, 'gohighlevel');
  const dialog = await consent(page, 'gohighlevel', 'HighLevel');
  await choose(page, 'Location (sub-account)', /Sandbox Motors/);
  await activate(page, 'gohighlevel', dialog);

  await placeCall(page, number);
  const { sent } = await delivered(page, 'gohighlevel', 'HighLevel', 'call');
  await expect(sent).toContainText('/contacts/upsert');
  await expect(sent).toContainText('/conversations/messages');
  await page.keyboard.press('Escape');
});
