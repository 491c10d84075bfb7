/**
 * Transcript search and questions in the browser (docs/call-intelligence.md): a recorded, transcribed simulator
 * call is found on /calls/search by a phrase the caller said (highlighted), and the "Ask about this call" panel of
 * its detail answers with the right passage.
 */
import { expect, test } from '@playwright/test';
import { signIn, api } from './helpers';

const SCRIPT = [
  { speaker: 'caller', text: 'Hello, I need a quote to replace the water heater in my basement.' },
  { speaker: 'agent', text: 'Sure, installation comes to eighteen hundred dollars.' },
  { speaker: 'caller', text: 'Okay, please book me for Friday morning.' },
];

test('a transcribed call is found by a phrase and answers a question about it', async ({ page }) => {
  await signIn(page);
  const me = await api(page, 'get', '/api/user');
  const companyId = (me.body.companies as Array<{ id: number }>)[0]!.id;
  const found = await api(page, 'get', '/api/numbers/search?type=local&areaCode=415&limit=20');
  const pick = found.body.data[0];
  const n = await api(page, 'post', '/api/numbers', { company_id: companyId, provider_id: pick.provider_id, number: pick.number });
  expect(n.status, JSON.stringify(n.body)).toBe(201);
  const put = await api(page, 'put', `/api/numbers/${n.body.id}`, {
    routes: [{ forwards: [{ number: '6465550101' }] }],
    record: true,
    call_transcription_enabled: true,
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const call = await api(page, 'post', '/api/simulator/calls', { from: '3125550177', to: n.body.number, script: SCRIPT });
  expect(call.status, JSON.stringify(call.body)).toBe(200);

  await page.goto('/calls/search');
  const box = page.getByRole('textbox', { name: 'Search transcripts' });
  const results = page.getByLabel('Search results');
  await expect(async () => {
    await box.fill('"water heater"');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(results.locator('mark').first()).toHaveText('water', { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
  await expect(results.getByText('heater in my basement', { exact: false })).toBeVisible();
  await page.screenshot({ path: 'test-results/call-search.png', fullPage: true });

  await results.getByRole('link').first().click();
  const ask = page.getByLabel('Ask about this call');
  await ask.getByRole('textbox', { name: 'Question about this call' }).fill('What price did we quote?');
  await ask.getByRole('button', { name: 'Ask' }).click();
  const answer = ask.getByLabel('Answer');
  await expect(answer).toContainText('eighteen hundred dollars');
  await expect(answer).toContainText('Agent');
  await page.screenshot({ path: 'test-results/call-ask.png', fullPage: true });
});
