/**
 * Outbound calling in the browser (docs/calling.md): the demo user goes Active, places a call from
 * the header dialer to an outside number, the Phone simulator's handset rings and is answered
 * there, the dialer shows Connected; Mute, Hang up; the call shows in Activity. A contact found by
 * name in the dialer is called; the handset says a line, hears the default hold music, and the
 * call is transferred to a number with the dialer's transfer picker (a bad number is refused with
 * the server's reason first). A contact's Call button opens the dialer with its number; its Text
 * button opens the inbox's New message with the recipient filled in, and sending opens the new conversation.
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

test('find a contact by name in the dialer, talk on the handset, hold, and transfer the call to a number', async ({ page }) => {
  await signIn(page);
  await page.goto('/contacts');
  const row = page.locator('[data-testid="contact-row"]:not([data-number=""])').first();
  const number = (await row.getAttribute('data-number'))!;
  const name = ((await row.getByRole('checkbox').getAttribute('aria-label')) ?? '').replace(/^Select /, '');
  expect(name).toMatch(/\p{L}/u);

  await page.goto('/simulator');
  await page.getByRole('switch', { name: 'In-app calling' }).check({ force: true });
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await page.getByTestId('dialer-open').click();
  await page.getByLabel('Number to call').fill(name);
  // A name alone is not dialed: the Call button waits for a contact to be chosen.
  await expect(page.getByTestId('dialer-call')).toBeDisabled();
  await page.getByTestId('dialer-suggestion').filter({ hasText: name }).first().click();
  await expect(page.getByLabel('Number to call')).toHaveValue(number);
  await expect(page.getByTestId('dialer-picked')).toHaveText(`Calling ${name}`);
  await page.getByTestId('dialer-call').click();
  await expect(page.getByTestId('dialer-name')).toHaveText(name);

  // The handset shows the number as people read it: +13125550100 → (312) 555-0100.
  const shown = number.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3');
  const handset = page.getByTestId('handset-call').filter({ hasText: `Incoming call to ${shown}` });
  await handset.getByRole('button', { name: 'Answer' }).click();
  await expect(page.getByTestId('dialer-phase')).toHaveText('Connected');
  const talking = page.getByTestId('handset-call').filter({ hasText: `Talking on ${shown}` });
  await talking.getByLabel('Say on the call').fill('Hello, who is calling?');
  await talking.getByRole('button', { name: 'Say' }).click();
  await expect(talking.getByTestId('handset-lines')).toContainText('Hello, who is calling?');

  await page.getByRole('button', { name: 'Hold', exact: true }).click();
  await expect(page.getByTestId('dialer-phase')).toHaveText('On hold');
  await expect(talking.getByTestId('handset-hold')).toContainText('On hold');
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('dialer-phase')).toHaveText('Connected');

  await page.getByRole('button', { name: 'Transfer', exact: true }).click();
  const picker = page.getByTestId('dialer-transfer');
  await picker.getByText('A number', { exact: true }).click();
  await picker.getByLabel('Number to transfer to').fill('12ab');
  await picker.getByRole('button', { name: 'Transfer…' }).click();
  await picker.getByRole('button', { name: 'Confirm transfer' }).click();
  await expect(page.getByTestId('dialer-transfer-error')).toHaveText('The number is not a valid phone number.');
  await picker.getByLabel('Number to transfer to').fill('(646) 555-0190');
  await picker.getByRole('button', { name: 'Transfer…' }).click();
  await expect(picker).toContainText('Transfer this call to (646) 555-0190?');
  await picker.getByRole('button', { name: 'Confirm transfer' }).click();
  await expect(page.getByTestId('dialer-phase')).toHaveText('Call transferred to (646) 555-0190');
  await expect(talking).toContainText('Transferred to +16465550190');
  await talking.getByRole('button', { name: 'Hang up the outside phone' }).click();
  await expect(talking).toHaveCount(0);
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
