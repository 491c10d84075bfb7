/**
 * The first slice end to end (docs/telephony.md): through the UI, sign in, buy a number, set two forwards and a
 * business-hours schedule, place a call from the simulator that rings and is answered, see it in
 * Activity; text the number from the simulator, see the conversation appear without reload,
 * reply, and see the reply arrive at the simulator's handset as delivered.
 */
import { expect, test } from '@playwright/test';
import { buyLocalNumber, choose, chooseHoursOpenNow, signIn } from './helpers';

test('buy a number, route a call to it, and text with it, live', async ({ page, context }) => {
  await signIn(page);

  // Buy a local number in area code 415.
  const { bought, row } = await buyLocalNumber(page, '415');

  // Route it: one extension with two forwards, a Custom business-hours schedule open now.
  await row.getByRole('link', { name: 'Edit routing' }).click();
  await expect(page.getByTestId('route-entry')).toHaveCount(1);
  await page.getByLabel('Number label').fill('E2E line');
  const entry = page.getByTestId('route-entry').first();
  await entry.getByRole('button', { name: 'Add forward' }).click();
  await entry.getByLabel('Forward number 1').fill('+14155550181');
  await entry.getByRole('button', { name: 'Add forward' }).click();
  await entry.getByLabel('Forward number 2').fill('+14155550182');
  await chooseHoursOpenNow(page);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The number has been updated')).toBeVisible();

  // Call it from the simulator: the first forward does not answer, the second does.
  await page.getByRole('link', { name: 'Phone simulator' }).click();
  await choose(page, 'Company number', `${bought} · E2E line`);
  const outcomes = page.getByTestId('forward-outcome');
  await expect(outcomes).toHaveCount(2);
  await outcomes.nth(0).getByText('No answer', { exact: true }).click();
  await outcomes.nth(1).getByText('Answer', { exact: true }).click();
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByTestId('call-log-step').first()).toBeVisible();
  await expect(page.getByTestId('call-result-status')).toContainText(/completed/i);

  // Activity shows the answered call.
  await page.getByRole('link', { name: 'Activity' }).click();
  const callRow = page.getByTestId('activity-row').filter({ hasText: bought }).first();
  await expect(callRow).toContainText(/connected/i);

  // A second tab keeps the inbox open; the text must appear there without a reload.
  await page.getByRole('link', { name: 'Inbox' }).click();
  await expect(page.getByTestId('conversation-list')).toBeVisible();
  const handset = await context.newPage();
  await handset.goto('/simulator');
  await choose(handset, 'Company number', `${bought} · E2E line`);
  const text = `Are you open on Saturday? (${Date.now()})`;
  await handset.getByLabel('Text message').fill(text);
  await handset.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(handset.getByTestId('handset-message').filter({ hasText: text })).toBeVisible();

  const conversation = page.getByTestId('conversation-row').filter({ hasText: 'Are you open on Saturday?' });
  await expect(conversation).toBeVisible();
  await conversation.click();
  await expect(page.getByTestId('conversation-thread')).toContainText(text);
  const reply = 'Yes, 9am to 1pm on Saturdays.';
  await page.getByLabel('Message', { exact: true }).fill(reply);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('message-bubble').filter({ hasText: reply })).toBeVisible();

  // The reply reaches the simulated handset, delivered.
  const arrived = handset.getByTestId('handset-message').filter({ hasText: reply });
  await expect(arrived).toBeVisible();
  await expect(arrived.getByTestId('handset-message-status')).toContainText(/delivered/i);
  await expect(page.getByTestId('message-bubble').filter({ hasText: reply }).getByTestId('delivery-state')).toContainText(/delivered/i);
});
