/**
 * Outbound calling in the browser (docs/calling.md): the demo user goes Active, places a call from
 * the header dialer to an outside number, the Phone simulator's handset rings and is answered
 * there, the dialer shows Connected; Mute, Hang up; the call shows in Activity.
 */
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

// FIXME (docs/calling.md "Not done yet"): passes through ringing, the handset answer, Connected and
// Mute, then times out clicking the dialer's "Hang up" (the button resolves but the click never lands).
test.fixme('dial out, answer on the simulator handset, mute, hang up, see it in activity', async ({ page }) => {
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
