/**
 * Outbound calling in the browser (docs/calling.md): the demo user goes Active, places a call from
 * the header dialer to an outside number, the Phone simulator's handset rings and is answered
 * there, the dialer shows Connected; Mute, Hang up; the call shows in Activity. A contact's Call button opens the
 * dialer with its number; its Text button opens the inbox's New message with the recipient filled in, and sending
 * opens the new conversation.
 */
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('dial out, answer on the simulator handset, mute, hang up, see it in activity', async ({ page }) => {
  await signIn(page);
  await page.goto('/simulator');
  await page.getByRole('switch', { name: 'In-app calling' }).check({ force: true });
  await expect(page.getByText('Active', { exact: true })).toBeVisible();

  await page.getByTestId('dialer-open').click();
  await page.getByLabel('Number to call').fill('(646) 555-0123');
  await expect(page.getByTestId('dialer-call')).toBeEnabled();
  await page.getByTestId('dialer-call').click();
  await expect(page.getByTestId('dialer-phase')).toHaveText('Ringing…');

  const handset = page.getByTestId('handset-call').filter({ hasText: '(646) 555-0123' });
  await expect(handset).toContainText('Incoming call');
  await handset.getByRole('button', { name: 'Answer' }).click();
  await expect(page.getByTestId('dialer-phase')).toHaveText('Connected');

  await page.getByRole('button', { name: 'Mute' }).click();
  await expect(page.getByRole('button', { name: 'Unmute' })).toBeVisible();
  await page.getByRole('button', { name: 'Hang up', exact: true }).click();
  await expect(page.getByTestId('dialer-phase')).toHaveText('Call ended');
  await expect(page.getByTestId('handset-call').filter({ hasText: '(646) 555-0123' })).toHaveCount(0);

  await page.goto('/activity');
  await expect(page.getByText('(646) 555-0123').first()).toBeVisible();
});

test("a contact's Text and Call buttons: a new text that opens its conversation, and the dialer with its number", async ({ page }) => {
  await signIn(page);
  await page.goto('/contacts');
  const row = page.locator('[data-testid="contact-row"]:not([data-number=""])').first();
  const number = (await row.getAttribute('data-number'))!;
  await row.click();
  const detail = page.getByTestId('contact-detail');
  await detail.getByRole('link', { name: /^Text / }).click();
  await expect(page).toHaveURL(/\/inbox\?to=/);
  const dialog = page.getByRole('dialog', { name: 'New message' });
  await expect(dialog.getByLabel('To')).toHaveValue(number);
  const text = `Your appointment is confirmed (${Date.now()})`;
  await dialog.getByLabel('Message').fill(text);
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page).toHaveURL(/\/inbox\/\d+$/);
  await expect(page.getByTestId('message-bubble').filter({ hasText: text })).toBeVisible();

  await page.goto('/contacts');
  await page.locator(`[data-testid="contact-row"][data-number="${number}"]`).first().click();
  await page
    .getByTestId('contact-detail')
    .getByRole('button', { name: /^Call / })
    .click();
  await expect(page.getByLabel('Number to call')).toHaveValue(number);
});
