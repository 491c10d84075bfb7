/**
 * Issue 23 items 2-4 in the browser (docs/calling.md "Who rings for an in-app line", "Recording calls answered in
 * the browser", "Names of people in a call"; docs/transcription.md "Voicemails"; docs/call-intelligence.md "Search"):
 *
 * - an in-app line of the demo company, recorded and transcribed, is assigned to a user invited for it, who goes
 *   Away; a call still rings the owner (Dana Demo, Active in the browser), who answers and hangs up; the call
 *   detail shows the recording, the transcript of both sides and "answered by Dana Demo (app)", never "user 1";
 * - a voicemail left on a transcribing line shows its transcript in the call detail (desktop and phone size) and on
 *   the Voicemail page, and is found by Transcript search.
 */
import crypto from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signIn, api, buyNumberWith } from './helpers';

async function setActive(page: Page, active: boolean) {
  await expect(page.getByTestId('softphone-status')).toBeVisible();
  const toggle = page.getByRole('switch', { name: 'In-app calling' });
  if (active) await toggle.check({ force: true });
  else await toggle.uncheck({ force: true });
  await expect(page.getByText(active ? 'Active' : 'Away', { exact: true })).toBeVisible();
}

/** The id of the newest call from `from` to the company (the Activity API). */
async function callFrom(page: Page, companyId: number, from: string): Promise<number> {
  let callId: number | undefined;
  await expect
    .poll(async () => {
      const r = await api(page, 'get', `/api/activity?company=${companyId}&per_page=50`);
      callId = r.body.data.find((i: { from: string; call_id?: number }) => i.from === from && i.call_id)?.call_id;
      return callId ? 'found' : 'no call';
    })
    .toBe('found');
  return callId!;
}

test('a line assigned to an away invitee rings the active owner; the browser-answered call is recorded, transcribed and names Dana Demo', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await signIn(page);
  await setActive(page, true);
  const {
    companyId,
    id: numberId,
    number,
  } = await buyNumberWith(page, '415', {
    label: 'Plumbing line',
    routes: [{ type: 'in-app-calling', voicemail_enabled: true, timeout: 30 }],
    record: true,
    call_transcription_enabled: true,
  });

  // A user invited with this line as theirs accepts (development outbox link), goes Active once, then Away.
  const email = `line-owner+${crypto.randomBytes(4).toString('hex')}@example.test`;
  const invite = await api(page, 'post', `/api/companies/${companyId}/invitations`, { email, role: 'user', numbers: [numberId] });
  expect(invite.status, JSON.stringify(invite.body)).toBeLessThan(300);
  const token = new URL(invite.body.invitation_url as string).searchParams.get('token')!;
  const guestCtx = await browser.newContext();
  const guest = await guestCtx.newPage();
  await guest.goto('/login');
  await guest.request.get('/api/csrf-cookie');
  const accepted = await api(guest, 'post', `/api/invitations/${encodeURIComponent(token)}/accept`, {
    first_name: 'Ivy',
    last_name: 'Invitee',
    password: 'invitee-password-2026',
    password_confirmation: 'invitee-password-2026',
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  expect(accepted.body.signed_in).toBe(true);
  expect((await api(guest, 'post', `/api/companies/${companyId}/in-app-calling/status`, { status: 'active' })).status).toBe(200);
  expect((await api(guest, 'post', `/api/companies/${companyId}/in-app-calling/status`, { status: 'away' })).status).toBe(200);
  await guestCtx.close();

  // The outside caller; the owner's softphone rings although the line is the invitee's and the invitee is away.
  const from = '+13125550166';
  const caller = `My kitchen sink is leaking ${crypto.randomBytes(2).toString('hex')}.`;
  const call = api(page, 'post', '/api/simulator/calls', {
    from,
    to: number,
    talk_seconds: 20,
    script: [
      { speaker: 'caller', text: caller },
      { speaker: 'agent', text: 'A plumber can come this afternoon.' },
    ],
  });
  const card = page.getByTestId('softphone-card');
  await expect(card).toContainText('Incoming call');
  await expect(card).toContainText('Plumbing line');
  await card.getByRole('button', { name: 'Answer' }).click();
  await expect(card).toContainText('Connected');
  await card.getByRole('button', { name: 'Hang up' }).click();
  const done = await call;
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect((done.body.log as Array<{ step: string }>).some((l) => l.step === 'record')).toBe(true);

  const callId = await callFrom(page, companyId, from);
  await page.goto(`/calls/${callId}`);
  const drawer = page.getByRole('dialog', { name: 'Call details' });
  await expect(drawer.getByTestId('call-status')).toHaveText('Connected');
  await expect(drawer.getByTestId('call-summary')).toContainText('answered by Dana Demo (app)');
  await expect(drawer.getByTestId('call-forward').first()).toContainText('Dana Demo (app)');
  await expect(drawer.getByTestId('call-history')).toContainText('Ringing Dana Demo (app)');
  await expect(drawer.getByTestId('call-history')).toContainText('Answered in the browser by Dana Demo.');
  await expect(drawer).not.toContainText(/\(user \d+\)|user_\d+/);
  const transcript = drawer.getByTestId('call-transcript');
  await expect(transcript.getByLabel('Call recording')).toBeVisible({ timeout: 30_000 });
  await expect(transcript.getByTestId('transcript-segments')).toBeVisible({ timeout: 30_000 });
  await expect(transcript.locator('[data-speaker="Client"]')).toContainText(caller);
  await expect(transcript.locator('[data-speaker="Agent"]')).toContainText('A plumber can come this afternoon.');
  await page.screenshot({ path: 'test-results/calls-fixes-answered.png', fullPage: true });
});

test('a voicemail transcript shows in the call detail (desktop and phone) and is found by Transcript search', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await setActive(page, false);
  const { companyId, number } = await buyNumberWith(page, '212', {
    routes: [{ type: 'in-app-calling', voicemail_enabled: true, timeout: 20 }],
    call_transcription_enabled: true,
  });
  const from = '+13125550167';
  const tag = crypto.randomBytes(3).toString('hex');
  const words = `Please call me back about the boiler warranty ${tag}.`;
  const vm = await api(page, 'post', '/api/simulator/calls', { from, to: number, voicemail_seconds: 4, script: [{ speaker: 'caller', text: words }] });
  expect(vm.status, JSON.stringify(vm.body)).toBe(200);
  const callId = await callFrom(page, companyId, from);

  for (const size of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await page.goto(`/calls/${callId}`);
    const drawer = page.getByRole('dialog', { name: 'Call details' });
    await expect(drawer.getByTestId('call-status')).toHaveText('Voicemail');
    const box = drawer.getByTestId('voicemail-transcript');
    await expect(box).toContainText('Voicemail transcript', { timeout: 30_000 });
    await expect(box.locator('[data-speaker="Client"]')).toContainText(words);
    await page.screenshot({ path: `test-results/calls-fixes-voicemail-${size.width}.png`, fullPage: true });
  }

  // The Voicemail page shows the caller's words under the message.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/voicemail');
  const row = page.getByTestId('voicemail-row').filter({ hasText: '(312) 555-0167' }).first();
  await expect(row.getByTestId('voicemail-transcript')).toContainText(words);

  await page.goto('/calls/search');
  const search = page.getByRole('textbox', { name: 'Search transcripts' });
  const results = page.getByLabel('Search results');
  await expect(async () => {
    await search.fill(`"boiler warranty" ${tag}`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(results.locator('mark').first()).toHaveText('boiler', { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
  await expect(results).toContainText(tag);
  await setActive(page, true);
});
