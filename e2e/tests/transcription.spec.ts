/**
 * Recording and transcription in the browser (docs/transcription.md): a recording, transcribing
 * number; the Phone simulator's Conversation panel takes what the caller and the agent say; the
 * simulated call's recording is transcribed by the sandbox transcriber and the call detail shows the
 * transcript with both speakers, their lines and the talk shares.
 */
import crypto from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn, api } from './helpers';

test('a recorded, transcribed simulator call shows its transcript with both speakers', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const companies = await api(page, 'get', '/api/companies');
  const companyId = (companies.body.data ?? companies.body)[0].id as number;
  const found = await api(page, 'get', '/api/numbers/search?type=local&areaCode=415&limit=20');
  const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
  const bought = await api(page, 'post', '/api/numbers', { company_id: companyId, provider_id: pick.provider_id, number: pick.number });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const put = await api(page, 'put', `/api/numbers/${bought.body.id}`, {
    routes: [{ forwards: [{ number: '6465550101' }] }],
    record: true,
    call_transcription_enabled: true,
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);

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
    to: bought.body.number,
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
