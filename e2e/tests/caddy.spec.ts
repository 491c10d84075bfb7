/**
 * The consumer area at phone size (issue 25 "Proof"; docs/consumer-area.md): a person signs up at 390×844 with a
 * code read from the development outbox, picks a number from the catalogue, receives a text from the Phone simulator
 * and sees the usage move live (the `caddy` channel over Socket.IO, no reload) and the text under the number's calls and
 * texts, places a call from the number in the browser (answered by the simulator's handset) and answers one the
 * simulator places to it, both then listed under the number, and invites a friend. axe (WCAG 2.1 A and AA, critical and serious) checks the main screens on the way.
 *
 * The demo user plays the outside world: made an operator the documented way (docs/auth.md "Operators": an UPDATE on
 * the install's database), it reads every mail of the development outbox and may text any sandbox number from the
 * simulator. The flag is put back as it was at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import pg from 'pg';
import { expect, test, type Page } from '@playwright/test';
import { api, DEMO, signIn } from './helpers';

const PHONE = { width: 390, height: 844 };
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['critical', 'serious']);

/** Runs `fn` with a client of the install's embedded PostgreSQL (playwright.config.ts: DATA_DIR beside the runner). */
async function withDb<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `switchboard-e2e-${process.ppid}`);
  const port = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'postgres', database: 'switchboard' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** axe over the page once its heading is shown and nothing is loading; returns the blocking violations as text. */
async function axe(page: Page, screen: string): Promise<string[]> {
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('[data-testid="caddy-loading"], .mantine-Loader-root:visible')).toHaveCount(0);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations
    .filter((v) => v.impact && BLOCKING.has(v.impact))
    .map(
      (v) =>
        `[${screen}] ${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 4)
          .join(', ')}`,
    );
}

test('a person signs up at phone size, picks a number, gets a text from the simulator, sees usage move live and invites a friend', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const findings: string[] = [];
  const stamp = Date.now().toString(36);
  const email = `caddy-${stamp}@example.test`;
  const wasOperator = await withDb(
    async (c) => (await c.query('select is_operator from users where lower(email) = lower($1)', [DEMO.email])).rows[0]?.is_operator === true,
  );
  await withDb((c) => c.query('update users set is_operator = true where lower(email) = lower($1)', [DEMO.email]));
  try {
    // The outside world: the demo user, signed in to the business app in its own browser context.
    await signIn(page);

    // The person, in a fresh phone-sized browser.
    const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
    await phone.goto('/caddy/signup');
    await expect(phone.getByRole('heading', { level: 1, name: 'Get your second number' })).toBeVisible();
    findings.push(...(await axe(phone, 'sign-up')));
    await phone.getByLabel('Your name').fill('Sam Rivera');
    await phone.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await phone.getByLabel('Password').fill('correct horse 42');
    await phone.getByRole('button', { name: 'Send me a code' }).click();
    await expect(phone.getByTestId('caddy-code-sent')).toContainText(email);

    // The code, read from the development outbox.
    let code = '';
    await expect
      .poll(async () => {
        const mails = await api(page, 'get', '/api/dev/outbox');
        const mail = (mails.body?.data ?? []).find((m: { to: string; text: string }) => m.to.toLowerCase() === email);
        code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
        return code;
      })
      .toMatch(/^\d{6}$/);
    await phone.getByLabel('Code').fill(code);
    await phone.getByRole('button', { name: 'Create account' }).click();

    // The catalogue: search an area code, take a number (confirmed first).
    await expect(phone).toHaveURL(/\/caddy\/catalog$/);
    await expect(phone.getByTestId('caddy-welcome')).toBeVisible();
    await phone.getByLabel('Area code').fill('312');
    await phone.getByRole('button', { name: 'Search' }).click();
    const offer = phone.getByTestId('caddy-offer').first();
    await expect(offer).toBeVisible();
    findings.push(...(await axe(phone, 'catalogue')));
    await phone.screenshot({ path: 'test-results/caddy-catalogue-390.png', fullPage: true });
    await offer.getByRole('button', { name: /^Choose / }).click();
    const dialog = phone.getByRole('dialog', { name: 'Take this number?' });
    await dialog.getByRole('button', { name: 'Take this number' }).click();
    await expect(phone).toHaveURL(/\/caddy\/numbers$/);
    const card = phone.getByTestId('caddy-number');
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('caddy-number-state')).toHaveText('Active');
    findings.push(...(await axe(phone, 'my numbers')));

    // Its E.164, as the person's own session reads it.
    const token = await phone.evaluate(() => (JSON.parse(localStorage.getItem('caddy.session') ?? '{}') as { token?: string }).token);
    const mine = await phone.request.get('/api/caddy/numbers', { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    const number = ((await mine.json()) as { data: Array<{ number: string }> }).data[0]!.number;

    // Usage, live: a text from the Phone simulator moves the texts bar without a reload.
    await phone.getByRole('link', { name: 'Usage', exact: true }).click();
    await expect(phone.getByRole('heading', { level: 1, name: 'Usage and plan' })).toBeVisible();
    await expect(phone.getByTestId('caddy-stream')).toHaveText('Live');
    const texts = phone.getByTestId('caddy-usage-texts').getByTestId('caddy-usage-value');
    await expect(texts).toHaveText('0 of 100');
    findings.push(...(await axe(phone, 'usage')));
    const navigations: string[] = [];
    phone.on('framenavigated', (f) => f === phone.mainFrame() && navigations.push(f.url()));
    const sms = await api(page, 'post', '/api/simulator/messages', { from: '+13125550188', to: number, body: 'Hi Sam, it is Alex from the simulator' });
    expect(sms.status, JSON.stringify(sms.body)).toBe(200);
    await expect(texts).toHaveText('1 of 100');
    await expect(phone.getByTestId('caddy-usage-texts')).toContainText('1 received, 0 sent');
    expect(navigations, 'usage moved without a reload').toEqual([]);
    await phone.screenshot({ path: 'test-results/caddy-usage-390.png', fullPage: true });

    // The text under the number's calls and texts.
    await phone.getByRole('link', { name: 'Numbers', exact: true }).click();
    await phone.getByRole('link', { name: 'Calls and texts' }).click();
    await expect(phone.getByTestId('caddy-activity')).toContainText('Hi Sam, it is Alex from the simulator');
    findings.push(...(await axe(phone, 'calls and texts')));
    await phone.screenshot({ path: 'test-results/caddy-number-390.png', fullPage: true });

    // A call placed from the number in the browser (in-app calling, the sandbox softphone): the outside handset rings
    // in the Phone simulator showing the person's number, answers and hangs up; the call bar says so and the call
    // shows under the number's calls and texts.
    const callee = '+13125550177';
    await phone.getByLabel('Number to call').fill(callee);
    await phone.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(phone.getByTestId('caddy-call-title')).toHaveText('Calling (312) 555-0177');
    let handset: { sid: string; state: string } | undefined;
    await expect
      .poll(async () => {
        const legs = (await api(page, 'get', '/api/simulator/handset-calls')).body?.data ?? [];
        handset = legs.find((l: { from: string; to: string; state: string }) => l.from === number && l.to === callee && l.state === 'ringing');
        return Boolean(handset);
      })
      .toBe(true);
    findings.push(...(await axe(phone, 'calling')));
    await phone.screenshot({ path: 'test-results/caddy-calling-390.png', fullPage: true });
    expect((await api(page, 'post', `/api/simulator/handset-calls/${handset!.sid}/answer`)).status).toBe(200);
    await phone.waitForTimeout(1500);
    expect((await api(page, 'post', `/api/simulator/handset-calls/${handset!.sid}/hangup`)).status).toBe(200);
    await expect(phone.getByTestId('caddy-call-title')).toHaveText(/^Call ended · 0:0\d$/);
    await expect(phone.getByTestId('caddy-activity')).toContainText('Call to (312) 555-0177');

    // A call to the number rings the screen (the Phone simulator as the caller); answered, then hung up here.
    const inbound = api(page, 'post', '/api/simulator/calls', { from: '+13125550166', to: number, talk_seconds: 30 });
    await expect(phone.getByTestId('caddy-call-title')).toHaveText('Incoming call from (312) 555-0166', { timeout: 15_000 });
    findings.push(...(await axe(phone, 'incoming call')));
    await phone.getByRole('button', { name: 'Answer' }).click();
    await expect(phone.getByTestId('caddy-call-title')).toHaveText('On a call with (312) 555-0166');
    await phone.getByRole('button', { name: 'Hang up' }).click();
    await expect(phone.getByTestId('caddy-call-title')).toHaveText('Call ended');
    expect((await inbound).status).toBe(200);
    await expect(phone.getByTestId('caddy-activity')).toContainText('Call from (312) 555-0166');

    // Invite a friend.
    const friend = `+1415555${String(1000 + Math.floor(Math.random() * 9000))}`;
    await phone.getByRole('link', { name: 'Invite', exact: true }).click();
    await phone.getByLabel('Their phone number').fill(friend);
    await phone.getByRole('button', { name: 'Send invitation' }).click();
    await expect(phone.getByTestId('caddy-invitation')).toHaveCount(1);
    await expect(phone.getByTestId('caddy-invitation')).toContainText('Sent');
    findings.push(...(await axe(phone, 'invitations')));

    // The other main screens, through the menu.
    for (const [link, heading] of [
      ['Review', 'Review'],
      ['Help and support', 'Help and support'],
      ['Profile', 'Profile'],
    ] as const) {
      await phone.getByRole('button', { name: 'Menu' }).click();
      await phone.getByRole('link', { name: link, exact: true }).click();
      await expect(phone.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      findings.push(...(await axe(phone, heading)));
    }
    await phone.screenshot({ path: 'test-results/caddy-profile-390.png', fullPage: true });
    await phone.setViewportSize({ width: 1280, height: 900 });
    await phone.getByRole('link', { name: 'Usage and plan', exact: true }).click();
    await expect(texts).toHaveText('1 of 100');
    // The offline test store (the default sandbox): a Premium subscription changes the plan and its limits.
    await phone.getByTestId('caddy-test-store').getByRole('button', { name: 'Subscribe' }).click();
    await expect(phone.getByTestId('caddy-subscription-status')).toHaveText('Active');
    await expect(phone.getByTestId('caddy-plan')).toContainText('Premium, monthly');
    await expect(phone.getByTestId('caddy-usage-active-numbers').getByTestId('caddy-usage-value')).toHaveText('1 of 3');
    findings.push(...(await axe(phone, 'usage at 1280')));
    await phone.screenshot({ path: 'test-results/caddy-usage-1280.png', fullPage: true });

    // Beside a business session (its cookie brings the anti-forgery rule to the consumer calls): the same person signs
    // in to the consumer area in the demo user's browser and leaves a review; the business session is untouched.
    await page.goto('/caddy/signin');
    await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await page.getByLabel('Password').fill('correct horse 42');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('caddy-code-sent')).toBeVisible();
    await expect
      .poll(async () => {
        const mails = ((await api(page, 'get', '/api/dev/outbox')).body?.data ?? []).filter((m: { to: string }) => m.to.toLowerCase() === email);
        code = mails.length >= 2 ? (/\b(\d{6})\b/.exec(mails[0].text)?.[1] ?? '') : '';
        return code;
      })
      .toMatch(/^\d{6}$/);
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'My numbers' })).toBeVisible();
    await page.getByRole('link', { name: 'Review', exact: true }).click();
    // The stars are labels of visually hidden radios: click the fifth star as a person would.
    const fifth = await page.getByRole('radio', { name: '5 stars' }).getAttribute('id');
    await page.locator(`label[for="${fifth}"]`).click();
    await expect(page.getByRole('radio', { name: '5 stars' })).toBeChecked();
    await page.getByLabel('Comment (optional)').fill('Clear calls, easy to set up.');
    await page.getByRole('button', { name: 'Send review' }).click();
    await expect(page.getByTestId('caddy-review-saved')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Update review' })).toBeVisible();
    await page.goto('/inbox');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

    expect(findings, findings.join('\n')).toEqual([]);
  } finally {
    await withDb((c) => c.query('update users set is_operator = $2 where lower(email) = lower($1)', [DEMO.email, wasOperator]));
  }
});
