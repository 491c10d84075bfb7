/**
 * OIDC sign-in in the browser (spec 000 §7 "/oauth", "GET /oauth/consent/context"; docs/auth.md "OIDC sign-in") against
 * a local OpenID provider (`oidc-provider`, the real protocol, started here on the issuer's port). The server offers a
 * provider only when configured, so this spec runs only when the server was started with Google configured on a
 * loopback issuer, e.g.:
 *   OIDC_GOOGLE_ISSUER=http://127.0.0.1:3172 OIDC_GOOGLE_CLIENT_ID=e2e-google OIDC_GOOGLE_CLIENT_SECRET=e2e-secret \
 *   npm run test:e2e -- oidc.spec.ts
 * (Playwright passes the environment to the server it starts.) Otherwise it is skipped.
 */
import { expect, test, type Page } from '@playwright/test';
import { startTestOidcProvider, type TestOidcProvider } from '../../apps/server/src/modules/auth/oidc.test-provider';
import { DEMO } from './helpers';

const issuer = process.env.OIDC_GOOGLE_ISSUER ?? '';
const configured = /^http:\/\/127\.0\.0\.1:\d+$/.test(issuer) && Boolean(process.env.OIDC_GOOGLE_CLIENT_ID);
let op: TestOidcProvider | undefined;

test.skip(!configured, 'needs OIDC_GOOGLE_ISSUER=http://127.0.0.1:<port> and OIDC_GOOGLE_CLIENT_ID/SECRET (see the file comment)');

test.beforeAll(async ({ baseURL }) => {
  op = await startTestOidcProvider(Number(new URL(issuer).port));
  op.registerClients([
    {
      clientId: process.env.OIDC_GOOGLE_CLIENT_ID!,
      clientSecret: process.env.OIDC_GOOGLE_CLIENT_SECRET ?? '',
      redirectUris: [`${baseURL}/api/oauth/google/callback`],
    },
  ]);
  op.accounts.set('demo-at-google', { email: DEMO.email.toUpperCase(), email_verified: true, name: 'Demo at Google' });
  op.accounts.set('unverified-at-google', { email: DEMO.email, email_verified: false });
});
test.afterAll(async () => {
  await op?.close();
});

/** At the provider's development pages: signs in as `login`, confirms the consent page, until back on the app. */
async function atProvider(page: Page, login: string): Promise<void> {
  for (let i = 0; i < 4 && page.url().startsWith(issuer); i++) {
    const loginBox = page.locator('input[name="login"]');
    if (await loginBox.isVisible()) {
      await loginBox.fill(login);
      await page.locator('input[name="password"]').fill('any-password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
    } else {
      await page.getByRole('button', { name: 'Continue' }).click();
    }
    await page.waitForLoadState();
  }
}

test('Continue with Google: consent before linking, then straight in; an unverified e-mail is refused with its reason', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.goto('/login');
  const google = page.getByRole('link', { name: 'Continue with Google' });
  await expect(google).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue with Microsoft' })).toHaveCount(0);
  await google.click();
  await page.waitForURL((url) => url.href.startsWith(issuer));
  await atProvider(page, 'demo-at-google');

  // The consent screen: which app, the provider account, the Switchboard account, what each scope gives.
  await expect(page.getByRole('heading', { name: 'Link your account' })).toBeVisible();
  const consent = page.getByTestId('oidc-consent');
  await expect(consent).toContainText(`Google account ${DEMO.email}`);
  await expect(consent).toContainText(`Switchboard account ${DEMO.email}`);
  await expect(consent).toContainText('Your e-mail address, and whether Google has verified it');
  await page.screenshot({ path: test.info().outputPath('oidc-consent.png') });
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await page.waitForURL('**/inbox');

  // Another browser: the linked account signs in without the consent screen.
  const second = await (await browser.newContext()).newPage();
  await second.goto('/login');
  await second.getByRole('link', { name: 'Continue with Google' }).click();
  await second.waitForURL((url) => url.href.startsWith(issuer));
  await atProvider(second, 'demo-at-google');
  await second.waitForURL('**/inbox');

  // A provider account whose e-mail the provider did not verify is refused, with the reason on the sign-in page.
  const third = await (await browser.newContext()).newPage();
  await third.goto('/login');
  await third.getByRole('link', { name: 'Continue with Google' }).click();
  await third.waitForURL((url) => url.href.startsWith(issuer));
  await atProvider(third, 'unverified-at-google');
  await third.waitForURL('**/login?**');
  await expect(third.getByTestId('oidc-error')).toHaveText(
    'Google has not verified the e-mail address of this account, so it cannot be linked to a Switchboard account. Sign in with your password.',
  );
  await expect(third.getByRole('button', { name: 'Sign in' })).toBeVisible();
});
