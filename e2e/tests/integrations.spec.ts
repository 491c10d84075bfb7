/**
 * API keys, webhooks and the audit log in the browser (spec 001 "API keys"; docs/api-and-webhooks.md, docs/audit.md):
 * the owner creates an API key, sees it once, calls the API with it (its last use then shows), deletes it; adds a
 * webhook endpoint (a private address refused first), reveals its secret, sends a test event and finds the attempt in
 * the delivery log; finds those changes in the audit log, filtered, with the CSV export link.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, request, test, type Page } from '@playwright/test';
import { signIn } from './helpers';

/** No critical or serious WCAG 2.1 A/AA violation on the page as it stands (docs/architecture.md "Accessibility"). */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, screen).toEqual([]);
}

test('API key shown once and used; webhook endpoint with secret, test send and delivery log; audit log', async ({ page }) => {
  await signIn(page);

  // ---- API keys ----
  await page.goto('/api-keys');
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Create API key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API key' });
  await create.getByRole('button', { name: 'Create key' }).click();
  await expect(create.getByText('The name field is required.')).toBeVisible();
  await create.getByRole('textbox', { name: 'Name' }).fill('E2E reporting key');
  await create.getByRole('checkbox', { name: 'calls read' }).check();
  await create.getByRole('checkbox', { name: 'account read' }).check();
  await create.getByRole('button', { name: 'Create key' }).click();

  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(shown.getByText('This is the only time the key is shown.')).toBeVisible();
  const token = (await shown.getByTestId('new-api-key').innerText()).trim();
  expect(token).toMatch(/^sbk_/);
  await shown.getByRole('button', { name: 'Done' }).click();
  const row = page.getByTestId('api-key-row').filter({ hasText: 'E2E reporting key' });
  await expect(row).toContainText(token.slice(0, 10));
  await expect(row).toContainText('Never');
  await expect(page.getByText(token)).toHaveCount(0);
  await expectAccessible(page, 'API keys');

  // The key reaches the API within its scopes, with rate-limit headers (a client without the browser's cookies).
  const bearer = await request.newContext({ baseURL: new URL(page.url()).origin });
  const companies = await bearer.get('/api/companies', { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  expect(companies.status()).toBe(200);
  expect(companies.headers()['ratelimit-limit']).toBeTruthy();
  const companyId = (await companies.json()).data[0].id as number;
  expect((await bearer.get(`/api/blocks/${companyId}`, { headers: { authorization: `Bearer ${token}` } })).status()).toBe(200);
  const denied = await bearer.post('/api/blocks', {
    headers: { authorization: `Bearer ${token}` },
    data: { company_id: companyId, target: '7735550123', global: true, action: 'reject' },
  });
  expect(denied.status()).toBe(403);
  // Its last use (time and address) shows once the list is read again.
  await page.reload();
  await expect(page.getByTestId('api-key-row').filter({ hasText: 'E2E reporting key' })).toContainText(/from \S+/);

  // ---- Webhooks ----
  await page.goto('/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add endpoint' }).first().click();
  const form = page.getByRole('dialog', { name: 'Add endpoint' });
  await form.getByRole('textbox', { name: 'Endpoint URL' }).fill('http://10.0.0.5/hook');
  await form.getByRole('checkbox', { name: /Message received/ }).check();
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(form.getByText(/cannot receive webhooks/)).toBeVisible();
  // A public address (a documentation-free literal, so no DNS is needed here).
  await form.getByRole('textbox', { name: 'Endpoint URL' }).fill('https://93.184.215.14/switchboard-e2e');
  await form.getByRole('textbox', { name: 'Description' }).fill('E2E CRM');
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(form).toBeHidden();
  const endpoint = page.getByTestId('webhook-endpoint').filter({ hasText: 'https://93.184.215.14/switchboard-e2e' });
  await expect(endpoint).toContainText('Enabled');
  await expect(endpoint).toContainText('Message received');

  await endpoint.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Signing secret' }).click();
  const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
  await secretDialog.getByRole('button', { name: 'Reveal secret' }).click();
  await expect(secretDialog.getByTestId('webhook-secret')).toContainText('whsec_');
  await secretDialog.getByRole('button', { name: 'Done' }).click();

  await endpoint.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Send test event' }).click();
  await expect(page.getByText('Test event queued')).toBeVisible();
  await endpoint.getByRole('button', { name: /Deliveries of/ }).click();
  const delivery = page.getByTestId('webhook-delivery').filter({ hasText: 'Test event' }).first();
  await expect(delivery).toBeVisible();
  // The address is unreachable from the test machine: the first attempt fails and is logged; a retry is scheduled.
  await expect(delivery).toContainText(/No answer|\d{3}/, { timeout: 40_000 });
  await delivery.getByRole('button', { name: /Details of delivery/ }).click();
  const drawer = page.getByRole('dialog', { name: /Delivery #/ });
  await expect(drawer.getByTestId('webhook-attempts')).toContainText('ms');
  await expect(drawer).toContainText('webhook.test');
  await drawer.getByRole('button', { name: 'Close' }).click();
  // Axe measures contrast as drawn: a drawer fading out is half transparent.
  await expect(drawer).toBeHidden();
  await expectAccessible(page, 'Webhooks with the delivery log');

  // ---- Audit log ----
  await page.goto('/audit-log');
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const created = page.getByTestId('audit-row').filter({ hasText: 'create webhook-endpoints' }).first();
  await expect(created).toBeVisible();
  await created.getByRole('button', { name: /^create webhook-endpoints/ }).click();
  await expect(page.getByTestId('audit-changes')).toContainText('https://93.184.215.14/switchboard-e2e');
  await expectAccessible(page, 'Audit log');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, 'Audit log at phone width');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole('textbox', { name: 'Entity' }).fill('blocks');
  await expect(page.getByTestId('audit-row').first()).toContainText('Refused');
  await expect(page.getByTestId('audit-row').first()).toContainText('API key');
  const exportHref = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
  expect(exportHref).toContain(`company_id=${companyId}`);
  expect(exportHref).toContain('entity_type=blocks');
  const csv = await page.request.get(exportHref!);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain('time_utc,actor,actor_kind');

  // ---- Delete the key, with confirmation ----
  await page.goto('/api-keys');
  await page.getByRole('button', { name: 'Delete API key E2E reporting key' }).click();
  await page.getByRole('dialog', { name: 'Delete API key' }).getByRole('button', { name: 'Delete key' }).click();
  await expect(page.getByText('API key deleted successfully')).toBeVisible();
  await expect(page.getByTestId('api-key-row').filter({ hasText: 'E2E reporting key' })).toHaveCount(0);
  expect((await bearer.get('/api/companies', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
  await bearer.dispose();
});
