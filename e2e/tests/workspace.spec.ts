/**
 * Workspace screens in the browser (docs/workspace.md): white-label branding of a verified custom domain shows on
 * the sign-in page served on that host name; a support ticket with an attachment and a call back is sent; a tag is
 * created on the tags screen and put on a call from the call drawer, where it keeps its name after a rename.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn } from './helpers';

const BRAND_HOST = 'portal.acme-phones-e2e.com';
const port = Number(process.env.E2E_PORT ?? 3107);

// The custom domain's host name resolves to this machine in the browser (as its CNAME would in real DNS).
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      `--host-resolver-rules=MAP ${BRAND_HOST} 127.0.0.1`,
    ],
  },
});

async function api(page: Page, method: 'get' | 'post' | 'put', url: string, data?: unknown) {
  const r: APIRequestContext = page.request;
  const xsrf = (await page.context().cookies()).find((x) => x.name === 'XSRF-TOKEN');
  const res = await r[method](url, { data, headers: { accept: 'application/json', ...(xsrf ? { 'X-XSRF-TOKEN': decodeURIComponent(xsrf.value) } : {}) } });
  return { status: res.status(), body: await res.json().catch(() => null) };
}

test('a verified custom domain brands the sign-in page served on it', async ({ page, browser }) => {
  await signIn(page);
  await page.goto('/tenant');
  await expect(page.getByRole('heading', { name: 'Tenant settings', level: 1 })).toBeVisible();

  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Acme Phones');
  await page.getByRole('textbox', { name: 'Primary colour' }).fill('#c2255c');
  await page.getByRole('textbox', { name: 'Support e-mail' }).fill('help@acme-phones-e2e.com');
  await page.getByRole('button', { name: 'Save information' }).click();
  await expect(page.getByText('Information updated successfully')).toBeVisible();

  await page.getByRole('textbox', { name: 'Domain', exact: true }).fill('acme-phones-e2e.com');
  await expect(page.getByText('The domain can be used. (.com)')).toBeVisible();
  await page.getByRole('textbox', { name: 'App sub-domain' }).fill('portal');
  await page.getByRole('button', { name: 'Save domain' }).click();
  await expect(page.getByText('Custom domain was successfully saved')).toBeVisible();
  const records = page.getByRole('table', { name: 'DNS records of the custom domain' });
  await expect(records).toContainText(BRAND_HOST);
  await expect(records).toContainText('_switchboard.acme-phones-e2e.com');
  await page.getByRole('button', { name: 'Check DNS records' }).first().click();
  await expect(records.getByText('Missing').first()).toBeVisible();
  await page.getByRole('button', { name: 'Create these records (sandbox DNS)' }).first().click();
  await page.getByRole('button', { name: 'Check DNS records' }).first().click();
  await expect(page.getByText('The domain is verified.')).toBeVisible();
  await expect(page.getByText('Verified', { exact: true }).first()).toBeVisible();

  // A visitor of the custom domain, not signed in, sees the brand before signing in.
  const visitor = await browser.newContext();
  const signInPage = await visitor.newPage();
  await signInPage.goto(`http://${BRAND_HOST}:${port}/login`);
  await expect(signInPage.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(signInPage).toHaveTitle('Acme Phones');
  await expect(signInPage.getByRole('button', { name: 'Sign in' })).toHaveCSS('background-color', 'rgb(194, 37, 92)');
  await signInPage.screenshot({ path: test.info().outputPath('branded-sign-in.png') });
  await visitor.close();

  // The platform's own address keeps the default brand.
  const plain = await browser.newContext();
  const plainPage = await plain.newPage();
  await plainPage.goto('/login');
  await expect(plainPage.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(plainPage.getByRole('button', { name: 'Sign in' })).not.toHaveCSS('background-color', 'rgb(194, 37, 92)');
  await plain.close();
});

test('a support ticket with an attachment and a call back is sent', async ({ page }) => {
  await signIn(page);
  await page.goto('/support?page=/numbers');
  await expect(page.getByRole('heading', { name: 'Contact support', level: 1 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Page' })).toHaveValue('/numbers');
  await page.getByRole('textbox', { name: 'How can we help?' }).fill('Our main number stopped forwarding after 6 pm.');
  await page.locator('input[type="file"]').setInputFiles({ name: 'forwarding.txt', mimeType: 'text/plain', buffer: Buffer.from('forward log') });
  await page.getByRole('checkbox', { name: 'Call me back' }).check();
  await page.getByRole('textbox', { name: 'Callback number' }).fill('12');
  await page.getByRole('button', { name: 'Send to support' }).click();
  await expect(page.getByText('The callback number must be a valid phone number.').first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Callback number' }).fill('(415) 555-0142');
  await page.getByRole('button', { name: 'Send to support' }).click();
  await expect(page.getByRole('status')).toContainText('Your support request was sent.');
  await expect(page.getByText(/Request #\d+/).first()).toBeVisible();
  await expect(page.getByText('Call back at +14155550142').first()).toBeVisible();
  await expect(page.getByText('forwarding.txt').first()).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'How can we help?' })).toHaveValue('');
});

test('a tag created on the tags screen is put on a call and follows its rename', async ({ page }) => {
  await signIn(page);
  await page.goto('/tags');
  await expect(page.getByRole('heading', { name: 'Tags', level: 1 })).toBeVisible();
  const name = `Hot lead ${Date.now() % 100000}`;
  await page.getByRole('textbox', { name: 'Tag name' }).fill(name);
  await page.getByRole('button', { name: 'Add tag' }).click();
  await expect(page.getByText('Tag was successfully created')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Tags' })).toContainText(name);

  // A call to a fresh number of the demo company, from the phone simulator.
  const me = (await api(page, 'get', '/api/user')).body as { companies: Array<{ id: number }> };
  const companyId = me.companies[0]!.id;
  const found = await api(page, 'get', '/api/numbers/search?type=local&areaCode=415&limit=20');
  const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
  const bought = await api(page, 'post', '/api/numbers', { company_id: companyId, provider_id: pick.provider_id, number: pick.number });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const call = await api(page, 'post', '/api/simulator/calls', { from: '+13125550177', to: bought.body.number, forwards: {} });
  expect(call.status, JSON.stringify(call.body)).toBe(200);
  let callId: string | undefined;
  await expect
    .poll(
      async () => {
        const activity = await api(page, 'get', `/api/activity?company=${companyId}&page=1&per_page=20`);
        const item = (activity.body.data as Array<{ id: string; kind: string; to: string }>).find(
          (i) => i.kind === 'call' && i.to.replace(/\D/g, '').endsWith(String(bought.body.number).replace(/\D/g, '').slice(-7)),
        );
        callId = item?.id.replace(/^\D+-/, '');
        return callId;
      },
      { timeout: 30_000 },
    )
    .toBeTruthy();

  await page.goto(`/calls/${callId}`);
  const drawer = page.getByRole('dialog', { name: 'Call details' });
  const tags = drawer.getByRole('combobox', { name: 'Tags' });
  await tags.fill(name.toLowerCase());
  await tags.press('Enter');
  // Case-insensitive match: the call carries the company's existing tag, not a second one.
  await expect.poll(async () => (await api(page, 'get', `/api/calls/${callId}`)).body.tags.map((t: { name: string }) => t.name)).toEqual([name]);
  const sameName = (await api(page, 'get', `/api/tags?companyId=${companyId}&search=${encodeURIComponent(name)}`)).body.data;
  expect(sameName).toHaveLength(1);
  await drawer.getByRole('button', { name: 'Close' }).click();

  await page.goto('/tags');
  await page.getByRole('button', { name: `Edit tag ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit tag' });
  await dialog.getByRole('textbox', { name: 'Tag name' }).fill(`${name} (VIP)`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Tag was successfully updated')).toBeVisible();
  await page.goto(`/calls/${callId}`);
  await expect(page.getByRole('dialog', { name: 'Call details' })).toContainText(`${name} (VIP)`);
});
