/**
 * Recording and transcription in the browser (docs/transcription.md): a recording, transcribing
 * number; the Phone simulator's Conversation panel takes what the caller and the agent say; the
 * simulated call's recording is transcribed by the sandbox transcriber and the call detail shows the
 * transcript with both speakers, their lines and the talk shares.
 */
import crypto from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn, api, buyNumberWith } from './helpers';

test('a recorded, transcribed simulator call shows its transcript with both speakers', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const { companyId, number } = await buyNumberWith(page, '415', {
    routes: [{ forwards: [{ number: '6465550101' }] }],
    record: true,
    call_transcription_enabled: true,
  });

  // The Conversation panel: what the caller and the agent say.
  await page.goto('/simulator');
  const panel = page.getByTestId('script-panel');
  await expect(panel).toBeVisible();
  const caller = `Do you install heat pumps ${crypto.randomBytes(2).toString('hex')}?`;
  await panel.getByRole('textbox', { name: 'Line' }).fill(caller);
  await panel.getByRole('button', { name: 'Add line' }).click();
  await panel.getByRole('textbox', { name: 'Line' }).fill('Yes, we install them every week.');
  await panel.getByRole('button', { name: 'Add line' }).click();
  await expect(panel).toContainText(caller);

  // The call itself through the simulator's API with the same script (the panel's lines travel with the call panel's calls).
  const from = '+13125550188';
  const call = await api(page, 'post', '/api/simulator/calls', {
    from,
    to: number,
    script: [
      { speaker: 'caller', text: caller },
      { speaker: 'agent', text: 'Yes, we install them every week.' },
    ],
  });
  expect(call.status, JSON.stringify(call.body)).toBe(200);
  let callId: number | undefined;
  await expect
    .poll(async () => {
      const r = await api(page, 'get', `/api/activity?company=${companyId}&per_page=50`);
      callId = r.body.data.find((i: { from: string; call_id?: number }) => i.from === from && i.call_id)?.call_id;
      return callId ? 'found' : 'no call';
    })
    .toBe('found');

  await page.goto(`/calls/${callId}`);
  const transcript = page.getByTestId('call-transcript');
  await expect(transcript.getByTestId('transcript-segments')).toBeVisible({ timeout: 30_000 });
  await expect(transcript.locator('[data-speaker="Client"]')).toContainText(caller);
  await expect(transcript.locator('[data-speaker="Agent"]')).toContainText('Yes, we install them every week.');
  await expect(transcript.getByTestId('transcript-talk')).toContainText('Agent');
  await expect(transcript.getByLabel('Call recording')).toBeVisible();
  await page.screenshot({ path: 'test-results/transcription-call.png', fullPage: true });
});
