/**
 * Enhanced caller ID in the browser (docs/caller-id.md): an outside party's provider name shows in
 * the inbox (list row and thread header) once looked up, and the call detail shows the name, caller
 * type and line type of an inbound caller looked up automatically (the company's default).
 */
import { expect, test } from '@playwright/test';
import { signIn, api } from './helpers';

test('the inbox and the call detail show the caller name', async ({ page }) => {
  await signIn(page);
  const me = await api(page, 'get', '/api/user');
  const companyId = (me.body.companies as Array<{ id: number }>)[0]!.id;
  const list = await api(page, 'get', `/api/companies/${companyId}/conversations?perPage=1`);
  const business = list.body.data[0].number.number as string;

  // A text from a number the sandbox directory knows, then a person's manual lookup of it.
  const sms = await api(page, 'post', '/api/simulator/messages', { from: '+12025550143', to: business, body: 'Do you service rooftop units?' });
  expect(sms.status, JSON.stringify(sms.body)).toBeLessThan(300);
  const looked = await api(page, 'post', `/api/company/${companyId}/trestle/lookup`, { number: '(202) 555-0143' });
  expect(looked.body).toMatchObject({ status: 'found', callerName: 'CAPITOL HVAC CO' });

  await page.goto('/inbox');
  // Other tests may have called from this number too (another conversation of the same party): the text's row.
  const row = page.locator('[data-recipient="+12025550143"]').filter({ hasText: 'Do you service rooftop units?' }).first();
  await expect(row.getByTestId('caller-name')).toHaveText('CAPITOL HVAC CO');
  await row.click();
  await expect(page.getByTestId('caller-name').last()).toContainText('CAPITOL HVAC CO');
  await page.screenshot({ path: 'test-results/caller-id-inbox.png', fullPage: true });

  // An inbound call: looked up automatically, shown on the call detail with its caller type and line type.
  const call = await api(page, 'post', '/api/simulator/calls', { from: '+16465550102', to: business, forwards: {} });
  expect(call.status, JSON.stringify(call.body)).toBeLessThan(300);
  let callId: number | undefined;
  await expect
    .poll(async () => {
      const r = await api(page, 'get', `/api/activity?company=${companyId}&per_page=50`);
      callId = r.body.data.find((i: { from: string; call_id?: number }) => i.from === '+16465550102' && i.call_id)?.call_id;
      if (!callId) return 'no call';
      return (await api(page, 'get', `/api/calls/${callId}/enhanced-caller-id`)).body.status;
    })
    .toBe('found');
  await page.goto(`/calls/${callId}`);
  const name = page.getByRole('dialog', { name: 'Call details' }).getByTestId('caller-name');
  await expect(name).toContainText('BROOKLYN DENTAL');
  await expect(name).toContainText('Business');
  await expect(name).toContainText('VoIP');
  await page.screenshot({ path: 'test-results/caller-id-call.png', fullPage: true });
});
