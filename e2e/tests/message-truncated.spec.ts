/**
 * A text longer than the carrier's limit (issue 22 §1; docs/messaging.md "Long messages"): a signed
 * inbound SMS of 64 KB (posted as Twilio would, signed with the sandbox auth token) shows in the
 * thread cut to 1,600 characters with "message truncated: N characters received" under it, on a
 * desktop and on a 390 px wide screen, with no accessibility violation.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import twilio from 'twilio';
import { api, signIn } from './helpers';

/** The e2e server's TWILIO_AUTH_TOKEN (the default: the sandbox value). */
const AUTH_TOKEN = 'sandbox-auth-token';

async function postLongText(page: Page): Promise<{ from: string; received: number }> {
  const me = await api(page, 'get', '/api/user');
  const companyId = (me.body.companies as Array<{ id: number }>)[0]!.id;
  const list = await api(page, 'get', `/api/companies/${companyId}/conversations?perPage=1`);
  const to = list.body.data[0].number.number as string;
  const from = `+1646555${String(1000 + Math.floor(Math.random() * 8999))}`;
  const body = 'Long story short: '.padEnd(64 * 1024, 'and then some more. ');
  const baseURL = test.info().project.use.baseURL!;
  const params = { MessageSid: `SM${Date.now().toString(16).padStart(32, '0')}`, AccountSid: 'ACsandbox', From: from, To: to, Body: body, NumMedia: '0' };
  const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${baseURL}/webhooks/twilio/messaging`, params);
  const res = await page.request.post('/webhooks/twilio/messaging', { form: params, headers: { 'x-twilio-signature': signature } });
  expect(res.status(), await res.text()).toBe(200);
  return { from, received: body.length };
}

async function openThread(page: Page, received: number): Promise<void> {
  await page.goto('/inbox');
  await page.getByTestId('conversation-row').filter({ hasText: 'Long story short' }).first().click();
  await page.waitForURL(/\/inbox\/\d+$/);
  const note = page.getByTestId('message-truncated');
  await expect(note).toHaveText(`message truncated: ${received.toLocaleString('en-US')} characters received`);
  await expect(note).toBeInViewport();
  const bubble = page.getByTestId('message-bubble').filter({ has: note });
  await expect(bubble).toContainText('Long story short: and then some more.');
  const results = await new AxeBuilder({ page }).include('[data-testid="message-bubble"]').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

test('a 64 KB text shows cut to the carrier limit with how many characters were received', async ({ page }) => {
  await signIn(page);
  const { received } = await postLongText(page);
  await openThread(page, received);
  // The bubble holds the kept 1,600 characters, not the 64 KB.
  const text = await page
    .getByTestId('message-bubble')
    .filter({ has: page.getByTestId('message-truncated') })
    .locator('p')
    .first()
    .textContent();
  expect([...(text ?? '')].length).toBe(1600);
});

test.describe('390 px wide screen', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the truncation note is on screen and the page does not scroll sideways', async ({ page }) => {
    await signIn(page);
    const { received } = await postLongText(page);
    await openThread(page, received);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
