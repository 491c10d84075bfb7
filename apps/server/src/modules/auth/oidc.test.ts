/**
 * OIDC sign-in through the real HTTP API against a local OpenID provider (`oidc-provider`: discovery, code flow with
 * PKCE, signed ID tokens, UserInfo; docs/auth.md "OIDC sign-in"; spec 000 §7 "/oauth", "GET /oauth/consent/context"):
 * start → provider login and consent pages → callback → consent (first time) → session; a linked identity signs in
 * again without consent; unverified and unknown e-mails, a wrong or replayed `state`, another browser, a cancel at the
 * provider and deactivated people are refused with their reason on the sign-in page; MFA still applies; 422s on bad
 * input; only configured providers are offered.
 */
import { createHash, randomBytes } from 'node:crypto';
import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, uniqueEmail, type Account } from '../../../test/fixtures.js';
import { ApiClient, startTestServer, type TestServer } from '../../../test/harness.js';
import { loadConfig } from '../../platform/config.js';
import { signInAtProvider, startTestOidcProvider, type TestOidcProvider } from './oidc.test-provider.js';

let op: TestOidcProvider;
let s: TestServer;

beforeAll(async () => {
  op = await startTestOidcProvider();
  s = await startTestServer({
    oidc: {
      google: { issuer: op.issuer, clientId: 'sb-google', clientSecret: 'sb-google-secret' },
      microsoft: { issuer: op.issuer, clientId: 'sb-microsoft', clientSecret: 'sb-microsoft-secret' },
    },
  });
  const base = s.ctx.config.publicUrl;
  op.registerClients([
    { clientId: 'sb-google', clientSecret: 'sb-google-secret', redirectUris: [`${base}/api/oauth/google/callback`] },
    { clientId: 'sb-microsoft', clientSecret: 'sb-microsoft-secret', redirectUris: [`${base}/api/oauth/microsoft/callback`] },
  ]);
});
afterAll(async () => {
  await s?.close();
  await op?.close();
});

/** A fresh browser on the app's sign-in page (XSRF cookie, no session). */
async function browser(): Promise<ApiClient> {
  const c = new ApiClient(s.url);
  await c.get('/api/csrf-cookie');
  return c;
}

/** Starts a sign-in in `c` and answers the provider's authorization URL. */
async function start(c: ApiClient, provider = 'google', query = ''): Promise<URL> {
  const r = await c.get(`/api/oauth/${provider}/redirect${query}`);
  expect(r.status).toBe(302);
  return new URL(r.headers.get('location')!);
}

/** The cookies the last callback set (`signInWith`). */
let lastCallbackCookies: string[] = [];

/** Start → provider (as `subject`) → callback in `c`; answers where the callback sends the browser. */
async function signInWith(c: ApiClient, subject: string, provider = 'google', query = ''): Promise<string> {
  const auth = await start(c, provider, query);
  const callback = await signInAtProvider(auth.href, subject, `${s.ctx.config.publicUrl}/api/oauth/${provider}/callback`);
  const r = await c.get(callback.pathname + callback.search);
  expect(r.status).toBe(302);
  lastCallbackCookies = r.headers.getSetCookie();
  return r.headers.get('location')!;
}

function consentNonce(location: string): string {
  const url = new URL(location, 'http://app');
  expect(url.pathname).toBe('/login');
  const nonce = url.searchParams.get('oauth_consent');
  expect(nonce).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  return nonce!;
}

async function identitiesOf(userId: number) {
  return s.ctx.db.selectFrom('oidc_identities').selectAll().where('user_id', '=', userId).execute();
}

describe('providers', () => {
  it('lists the configured providers and builds a code-flow request with PKCE, state and nonce', async () => {
    const c = await browser();
    expect((await c.get('/api/oauth/providers')).body).toEqual({
      data: [
        { id: 'google', name: 'Google' },
        { id: 'microsoft', name: 'Microsoft' },
      ],
    });
    const auth = await start(c);
    expect(auth.origin).toBe(op.issuer);
    expect(auth.searchParams.get('client_id')).toBe('sb-google');
    expect(auth.searchParams.get('redirect_uri')).toBe(`${s.ctx.config.publicUrl}/api/oauth/google/callback`);
    expect(auth.searchParams.get('response_type')).toBe('code');
    expect(auth.searchParams.get('scope')).toBe('openid email profile');
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.searchParams.get('state')).toBeTruthy();
    expect(auth.searchParams.get('nonce')).toBeTruthy();
    expect(c.cookie('switchboard_oidc')).toBeTruthy();
    // The verifier stays on the server: only its challenge travels.
    const flow = await s.ctx.db.selectFrom('oidc_flows').selectAll().where('state', '=', auth.searchParams.get('state')!).executeTakeFirstOrThrow();
    expect(auth.href).not.toContain(flow.code_verifier);
  });

  it('offers only configured providers (the sandbox invents none) and reports an unreachable one', async () => {
    // Microsoft configured on a closed port; Google not configured at all.
    const other = await startTestServer({ oidc: { microsoft: { issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: '' } } });
    try {
      const c = new ApiClient(other.url);
      expect((await c.get('/api/oauth/providers')).body).toEqual({ data: [{ id: 'microsoft', name: 'Microsoft' }] });
      expect((await c.get('/api/oauth/google/redirect')).status).toBe(404);
      expect((await c.get('/api/oauth/google/callback?code=x&state=y')).status).toBe(404);
      const down = await c.get('/api/oauth/microsoft/redirect');
      expect(down.status).toBe(302);
      expect(down.headers.get('location')).toBe('/login?oauth_error=unavailable&provider=microsoft');
    } finally {
      await other.close();
    }
    expect(loadConfig({}).oidc).toEqual({});
    expect(loadConfig({ OIDC_GOOGLE_CLIENT_ID: 'g', OIDC_GOOGLE_CLIENT_SECRET: 's' }).oidc).toEqual({
      google: { issuer: 'https://accounts.google.com', clientId: 'g', clientSecret: 's' },
    });
    expect(loadConfig({ OIDC_MICROSOFT_CLIENT_ID: 'm' }).oidc.microsoft?.issuer).toBe('https://login.microsoftonline.com/common/v2.0');
  });

  it('answers 404 for an unknown provider and 422 for bad start parameters', async () => {
    const c = await browser();
    const unknown = await c.get('/api/oauth/github/redirect');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Sign-in provider not found.');
    const offsite = await c.get('/api/oauth/google/redirect?return_to=//evil.example/x');
    expect(offsite.status).toBe(422);
    expect(offsite.body.errors.return_to).toEqual(['The return_to field must be a path of this site.']);
    expect((await c.get('/api/oauth/google/redirect?return_to=https://evil.example/')).status).toBe(422);
    // Browsers drop tabs and newlines: `/\t/evil.example` would reach another site.
    expect((await c.get('/api/oauth/google/redirect?return_to=%2F%09%2Fevil.example')).status).toBe(422);
    expect((await c.get('/api/oauth/google/redirect?return_to=%2F%5Cevil.example')).status).toBe(422);
    expect((await c.get('/api/oauth/google/redirect?return_to=%2Fnumbers%3Fq%3D1')).status).toBe(302);
    const remember = await c.get('/api/oauth/google/redirect?remember=yes');
    expect(remember.status).toBe(422);
    expect(remember.body.errors.remember).toBeTruthy();
  });
});

describe('linking by verified e-mail, with consent', () => {
  let acc: Account;
  beforeAll(async () => {
    acc = await createAccount(s, { firstName: 'Gina', lastName: 'Google' });
    op.accounts.set('google-gina', { email: acc.email.toUpperCase(), email_verified: true, name: 'Gina G.' });
  });

  it('first sign-in: consent context, approval links the identity and signs in; the nonce is single use', async () => {
    const c = await browser();
    const location = await signInWith(c, 'google-gina', 'google', '?remember=1&return_to=/numbers');
    const nonce = consentNonce(location);
    expect(new URL(location, 'http://app').searchParams.get('from')).toBe('/numbers');
    // Nothing is linked and nobody is signed in before the consent.
    expect(await identitiesOf(acc.userId)).toHaveLength(0);
    expect((await c.get('/api/user')).status).toBe(401);

    const ctxRes = await c.get(`/api/oauth/consent/context?nonce=${nonce}`);
    expect(ctxRes.status).toBe(200);
    expect(ctxRes.body).toMatchObject({
      nonce,
      client_name: 'Switchboard',
      provider: { id: 'google', name: 'Google' },
      user: { email: acc.email, name: 'Gina Google' },
      identity: { email: acc.email.toLowerCase(), name: 'Gina G.' },
    });
    expect(ctxRes.body.scopes.map((x: { scope: string }) => x.scope)).toEqual(['openid', 'email', 'profile']);
    expect(ctxRes.body.scopes[1].description).toBe('Your e-mail address, and whether Google has verified it');
    const ends = Date.parse(ctxRes.body.expires_at) - Date.now();
    expect(ends).toBeGreaterThan(9 * 60_000);
    expect(ends).toBeLessThanOrEqual(10 * 60_000);
    // Another browser cannot read or use it.
    const stranger = await browser();
    expect((await stranger.get(`/api/oauth/consent/context?nonce=${nonce}`)).status).toBe(404);
    expect((await stranger.post('/api/oauth/consent', { nonce, approve: true })).status).toBe(404);

    const approved = await c.post('/api/oauth/consent', { nonce, approve: true });
    expect(approved.status).toBe(200);
    expect(approved.body.user.id).toBe(acc.userId);
    expect((await c.get('/api/user')).body.id).toBe(acc.userId);
    const ids = await identitiesOf(acc.userId);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatchObject({ provider: 'google', issuer: op.issuer, subject: 'google-gina', email: acc.email.toLowerCase() });

    // Used once.
    expect((await c.get(`/api/oauth/consent/context?nonce=${nonce}`)).status).toBe(404);
    expect((await c.post('/api/oauth/consent', { nonce, approve: true })).status).toBe(404);

    const listed = await c.get('/api/user/oauth-identities');
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: ids[0]!.id, provider: 'google', provider_name: 'Google', email: acc.email.toLowerCase() }),
    ]);
  });

  it('second sign-in reuses the identity: straight into the app, remembered as asked, no consent', async () => {
    const c = await browser();
    const location = await signInWith(c, 'google-gina', 'google', '?remember=1&return_to=/numbers');
    expect(location).toBe('/numbers');
    expect(lastCallbackCookies.find((x) => x.startsWith('switchboard_session='))).toMatch(/Max-Age=1209600/);
    expect((await c.get('/api/user')).body.id).toBe(acc.userId);
    expect(await identitiesOf(acc.userId)).toHaveLength(1);

    const plain = await browser();
    expect(await signInWith(plain, 'google-gina')).toBe('/inbox');
    expect(lastCallbackCookies.find((x) => x.startsWith('switchboard_session='))).not.toMatch(/Max-Age/);
    expect((await plain.get('/api/user')).body.id).toBe(acc.userId);
  });

  it('a refused consent links nothing and signs nobody in', async () => {
    const other = await createAccount(s);
    op.accounts.set('google-refuser', { email: other.email, email_verified: true });
    const c = await browser();
    const nonce = consentNonce(await signInWith(c, 'google-refuser'));
    const r = await c.post('/api/oauth/consent', { nonce, approve: false });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ cancelled: true });
    expect(await identitiesOf(other.userId)).toHaveLength(0);
    expect((await c.get('/api/user')).status).toBe(401);
  });

  it('unlinks from the profile (404 for another person’s identity, 422 for a bad id)', async () => {
    const owner = await createAccount(s);
    op.accounts.set('google-unlink', { email: owner.email, email_verified: true });
    const c = await browser();
    expect((await c.post('/api/oauth/consent', { nonce: consentNonce(await signInWith(c, 'google-unlink')), approve: true })).status).toBe(200);
    const [identity] = await identitiesOf(owner.userId);
    expect((await acc.client.delete(`/api/user/oauth-identities/${identity!.id}`)).status).toBe(404);
    expect((await c.delete('/api/user/oauth-identities/abc')).status).toBe(422);
    // Not with an API key, even one with the account scopes.
    const key = await c.post('/api/personalAccessTokens', { name: 'Everything', scopes: ['account:read', 'account:write'] });
    expect(key.status).toBe(201);
    const bearer = new ApiClient(s.url);
    bearer.bearer = key.body.data.token;
    expect((await bearer.get('/api/user/oauth-identities')).status).toBe(403);
    expect((await bearer.delete(`/api/user/oauth-identities/${identity!.id}`)).status).toBe(403);
    expect((await c.delete(`/api/user/oauth-identities/${identity!.id}`)).status).toBe(204);
    expect(await identitiesOf(owner.userId)).toHaveLength(0);
    expect((await c.get('/api/user/oauth-identities')).body).toEqual({ data: [] });
    // Unlinked: the next sign-in asks for consent again.
    consentNonce(await signInWith(await browser(), 'google-unlink'));
  });
});

describe('refusals', () => {
  const errorOf = (location: string) => {
    const url = new URL(location, 'http://app');
    expect(url.pathname).toBe('/login');
    return { error: url.searchParams.get('oauth_error'), provider: url.searchParams.get('provider') };
  };

  it('refuses an unverified e-mail, an unknown e-mail and an account without e-mail; nothing is linked', async () => {
    const acc = await createAccount(s);
    op.accounts.set('google-unverified', { email: acc.email, email_verified: false });
    op.accounts.set('google-stranger', { email: uniqueEmail('nobody'), email_verified: true });
    op.accounts.set('google-noemail', { name: 'No Mail' });
    for (const [subject, error] of [
      ['google-unverified', 'unverified_email'],
      ['google-stranger', 'unknown_email'],
      ['google-noemail', 'no_email'],
    ] as const) {
      const c = await browser();
      expect(errorOf(await signInWith(c, subject))).toEqual({ error, provider: 'google' });
      expect((await c.get('/api/user')).status).toBe(401);
    }
    expect(await identitiesOf(acc.userId)).toHaveLength(0);
  });

  it('Microsoft without email_verified is unverified', async () => {
    const acc = await createAccount(s);
    op.accounts.set('ms-user', { email: acc.email });
    expect(errorOf(await signInWith(await browser(), 'ms-user', 'microsoft'))).toEqual({ error: 'unverified_email', provider: 'microsoft' });
  });

  it('refuses a wrong state, a replayed callback and a callback in another browser', async () => {
    const acc = await createAccount(s);
    op.accounts.set('google-state', { email: acc.email, email_verified: true });
    const callbackPrefix = `${s.ctx.config.publicUrl}/api/oauth/google/callback`;

    const c = await browser();
    const callback = await signInAtProvider((await start(c)).href, 'google-state', callbackPrefix);
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state');
    expect(errorOf((await c.get(forged.pathname + forged.search)).headers.get('location')!).error).toBe('expired');
    // The genuine answer still works once, then never again.
    consentNonce((await c.get(callback.pathname + callback.search)).headers.get('location')!);
    expect(errorOf((await c.get(callback.pathname + callback.search)).headers.get('location')!).error).toBe('expired');

    // A callback carried to another browser (no binding cookie) is refused and uses the flow up.
    const d = await browser();
    const callback2 = await signInAtProvider((await start(d)).href, 'google-state', callbackPrefix);
    const thief = await browser();
    expect(errorOf((await thief.get(callback2.pathname + callback2.search)).headers.get('location')!).error).toBe('expired');
    expect((await thief.get('/api/user')).status).toBe(401);
    expect(errorOf((await d.get(callback2.pathname + callback2.search)).headers.get('location')!).error).toBe('expired');
    // No state at all.
    expect(errorOf((await c.get('/api/oauth/google/callback?code=abc')).headers.get('location')!).error).toBe('expired');
    // A repeated state is not a state (and not a 422: the browser lands on the sign-in page).
    expect(errorOf((await c.get('/api/oauth/google/callback?code=abc&state=a&state=b')).headers.get('location')!).error).toBe('expired');
  });

  it('reports a cancel at the provider', async () => {
    const c = await browser();
    const auth = await start(c);
    const callback = await signInAtProvider(auth.href, 'nobody', `${s.ctx.config.publicUrl}/api/oauth/google/callback`, { cancel: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(errorOf((await c.get(callback.pathname + callback.search)).headers.get('location')!)).toEqual({ error: 'cancelled', provider: 'google' });
  });

  it('refuses a deactivated person, linked or not', async () => {
    const acc = await createAccount(s);
    op.accounts.set('google-deact', { email: acc.email, email_verified: true });
    const c = await browser();
    expect((await c.post('/api/oauth/consent', { nonce: consentNonce(await signInWith(c, 'google-deact')), approve: true })).status).toBe(200);
    await s.ctx.db.updateTable('company_users').set({ role: 'deactivated' }).where('user_id', '=', acc.userId).execute();
    const d = await browser();
    expect(errorOf(await signInWith(d, 'google-deact')).error).toBe('deactivated');
    expect((await d.get('/api/user')).status).toBe(401);
  });

  it('answers 422 for a missing or malformed nonce and a bad consent body', async () => {
    const c = await browser();
    const missing = await c.get('/api/oauth/consent/context');
    expect(missing.status).toBe(422);
    expect(missing.body.errors.nonce).toEqual(['The nonce field is required.']);
    expect((await c.get('/api/oauth/consent/context?nonce=a%20b')).status).toBe(422);
    expect((await c.get('/api/oauth/consent/context?nonce=unknownnonce')).status).toBe(404);
    const body = await c.post('/api/oauth/consent', { nonce: 'abc', approve: 'yes' });
    expect(body.status).toBe(422);
    expect(body.body.errors.approve).toBeTruthy();
    // The consent POST is a sign-in: the anti-forgery header is required.
    expect((await c.request('POST', '/api/oauth/consent', { nonce: 'abc', approve: true }, { 'x-xsrf-token': '' })).status).toBe(419);
  });
});

describe('MFA', () => {
  it('a person with TOTP on gets the code step after the provider, as with a password', async () => {
    const acc = await createAccount(s);
    const secret = generateSecret();
    await s.ctx.db.updateTable('users').set({ totp_secret: secret, totp_enabled: true }).where('id', '=', acc.userId).execute();
    op.accounts.set('google-mfa', { email: acc.email, email_verified: true });
    const c = await browser();
    const approved = await c.post('/api/oauth/consent', { nonce: consentNonce(await signInWith(c, 'google-mfa')), approve: true });
    expect(approved.body).toEqual({ mfa_required: true });
    expect((await c.get('/api/user')).status).toBe(401);

    const d = await browser();
    const location = await signInWith(d, 'google-mfa', 'google', '?return_to=/activity');
    expect(location).toBe('/login?oauth=mfa&from=%2Factivity');
    expect((await d.get('/api/user')).status).toBe(401);
    const r = await d.post('/api/sanctum/mfa', { code: await generate({ secret }) });
    expect(r.status).toBe(200);
    expect((await d.get('/api/user')).body.id).toBe(acc.userId);
  });
});

describe('the mobile token call', () => {
  let acc: Account;
  const redirect = () => `${s.ctx.config.publicUrl}/api/oauth/google/callback`;
  beforeAll(async () => {
    acc = await createAccount(s);
    op.accounts.set('google-mobile', { email: acc.email, email_verified: true });
  });

  /** The app's own code flow with PKCE at the provider, as `subject`: the code it got back and its verifier. */
  async function appCode(subject: string, nonce?: string): Promise<{ code: string; verifier: string }> {
    const verifier = randomBytes(32).toString('base64url');
    const auth = new URL(`${op.issuer}/auth`);
    auth.search = new URLSearchParams({
      client_id: 'sb-google',
      redirect_uri: redirect(),
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'app-state',
      ...(nonce ? { nonce } : {}),
    }).toString();
    const back = await signInAtProvider(auth.href, subject, redirect());
    return { code: back.searchParams.get('code')!, verifier };
  }

  const token = (body: Record<string, unknown>, provider = 'google') =>
    fetch(`${s.url}/api/oauth/${provider}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }),
    );

  it('refuses an account not linked yet; once linked in the browser, a code becomes a bearer token, once', async () => {
    const first = await appCode('google-mobile');
    const unlinked = await token({ code: first.code, code_verifier: first.verifier, redirect_uri: redirect() });
    expect(unlinked.status).toBe(422);
    expect(unlinked.body.message).toBe('This Google account is not linked to a Switchboard user yet. Sign in with Google once in the browser to link it.');

    // Linked through the browser's consent screen.
    const c = await browser();
    expect((await c.post('/api/oauth/consent', { nonce: consentNonce(await signInWith(c, 'google-mobile')), approve: true })).status).toBe(200);

    const { code, verifier } = await appCode('google-mobile', 'app-nonce-1');
    const ok = await token({ code, code_verifier: verifier, redirect_uri: redirect(), nonce: 'app-nonce-1', device_name: 'Pixel 9' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'Bearer' });
    const me = await fetch(`${s.url}/api/user`, { headers: { authorization: `Bearer ${ok.body.access_token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: number }).id).toBe(acc.userId);
    const stored = await s.ctx.db.selectFrom('api_tokens').select('name').where('user_id', '=', acc.userId).execute();
    expect(stored.map((t) => t.name)).toContain('Pixel 9');

    // The same code again, a wrong verifier, a wrong nonce: refused, no token.
    expect((await token({ code, code_verifier: verifier, redirect_uri: redirect() })).status).toBe(422);
    const other = await appCode('google-mobile');
    expect((await token({ code: other.code, code_verifier: randomBytes(32).toString('base64url'), redirect_uri: redirect() })).status).toBe(422);
    const third = await appCode('google-mobile', 'sent-nonce');
    const wrongNonce = await token({ code: third.code, code_verifier: third.verifier, redirect_uri: redirect(), nonce: 'other-nonce' });
    expect(wrongNonce.status).toBe(422);
    expect(wrongNonce.body.message).toBe('The Google sign-in could not be completed. Please try again.');
  });

  it('answers 422 with field errors for bad input and 404 for an unknown provider', async () => {
    const bad = await token({ code: '', code_verifier: 'short', redirect_uri: 'not a url' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['code', 'code_verifier', 'redirect_uri']);
    expect((await token({ code: 'x', code_verifier: 'a'.repeat(43), redirect_uri: redirect() }, 'github')).status).toBe(404);
  });
});
