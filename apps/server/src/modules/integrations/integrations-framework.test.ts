/**
 * The integrations framework through the real server (docs/integrations.md): Slack and Google Ads connected through the
 * sandbox authorization server (state bound to the user, PKCE verified, a tampered or foreign state refused), lookups,
 * activation with the provider's check (Google validateOnly), deliveries of a real call (Twilio-signed webhooks) with
 * the payloads the providers document (hashed caller number, transactionId = the dedup key, Slack message with a link
 * back), the dedup key stable across a retry, an outcome set later sent as an adjustment, a lost grant → needs reconnect
 * with an e-mail, tenant isolation; and the OAuth client against a standard mock OAuth server (oauth2-mock-server):
 * PKCE and state, refresh, `invalid_grant`. Rate-limit answers: a 429 with Retry-After becomes RateLimitedError.
 */
import crypto from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import type { AppContext } from '../../context.js';
import { exchangeCode, refreshGrant, startAuthorization } from './oauth.js';
import { googleAdsProvider } from './providers/googleads/index.js';
import { RateLimitedError, ReconnectNeededError, type DeliveryItem, type OAuthServer } from './providers/provider.js';
import { providerSandbox } from './registry.js';
import { sandboxAuthServer } from './sandbox-oauth.js';

let s: TestServer;
let owner: Account;
let other: Account;
let mock: OAuth2Server;

const sha = (t: string) => crypto.createHash('sha256').update(t).digest('hex');
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

beforeAll(async () => {
  s = await startTestServer();
  [owner, other] = await Promise.all([createAccount(s), createAccount(s)]);
  mock = new OAuth2Server();
  await mock.issuer.keys.generate('RS256');
  await mock.start(0, '127.0.0.1');
});
afterAll(async () => {
  await mock?.stop();
  await s?.close();
});

/** Runs the sandbox consent flow: redirect → consent page → Allow → callback. @returns the callback's redirect. */
async function connect(account: Account, provider: 'slackbot' | 'googleads', tamper?: (u: URL) => void): Promise<string> {
  const start =
    provider === 'slackbot'
      ? await account.client.get(`/api/companies/${account.companyId}/oauth-integrations/slackbot/redirect`)
      : await account.client.post(`/api/companies/${account.companyId}/oauth-integrations/${provider}/redirect`, {});
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const authorize = new URL(start.body.url);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('state')).toBeTruthy();
  const page = await fetch(authorize);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Allow');
  const approve = new URL('approve', authorize.href.replace(/authorize\?.*$/, ''));
  for (const [k, v] of authorize.searchParams) approve.searchParams.set(k, v);
  approve.searchParams.set('decision', 'allow');
  const back = await fetch(approve, { redirect: 'manual' });
  expect(back.status).toBe(302);
  const callback = new URL(back.headers.get('location')!);
  expect(callback.searchParams.get('code')).toMatch(/^sandbox-code-/);
  tamper?.(callback);
  const done = await account.client.request('GET', pathOf(callback.href), undefined, { accept: 'text/html' });
  expect(done.status).toBe(302);
  return done.headers.get('location')!;
}

describe('connecting through OAuth (sandbox authorization server)', () => {
  it('Slack: state and PKCE checked; tampered or foreign state refused; connected as the workspace', async () => {
    expect(await connect(owner, 'slackbot', (u) => u.searchParams.set('state', 'forged-state'))).toContain('error=state');
    // The state is bound to the user who started: another signed-in person cannot finish it.
    const start = await owner.client.get(`/api/companies/${owner.companyId}/oauth-integrations/slackbot/redirect`);
    const st = new URL(start.body.url).searchParams.get('state')!;
    const foreign = await other.client.request('GET', `/api/oauth-integrations/slackbot/callback?code=x&state=${st}`, undefined, { accept: 'text/html' });
    expect(foreign.headers.get('location')).toContain('error=state');

    const ok = await connect(owner, 'slackbot');
    expect(ok).toMatch(/connected=\d+/);
    const cards = await owner.client.get(`/api/companies/${owner.companyId}/integration-providers`);
    const slack = cards.body.data.find((c: { provider: string }) => c.provider === 'slackbot');
    expect(slack.integrations[0]).toMatchObject({ state: 'connected', account_name: 'Sandbox workspace', external_account_id: 'T0SANDBOX' });
    expect(JSON.stringify(cards.body)).not.toContain('sandbox-slackbot-'); // tokens never leave the server
    const row = await s.ctx.db
      .selectFrom('ad_integrations')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('provider', '=', 'slackbot')
      .executeTakeFirstOrThrow();
    expect(row.access_token_sealed).toMatch(/^v1\./);
  });

  it('lookups and configure: the channel picker, then active (conversations.info checked)', async () => {
    const ch = await owner.client.get(`/api/companies/${owner.companyId}/oauth-integrations/slackbot/channels`);
    expect(ch.status, JSON.stringify(ch.body)).toBe(200);
    expect(ch.body.data.map((c: { name: string }) => c.name)).toEqual(['#sales-calls', '#new-leads', '#managers']);
    const bad = await owner.client.put(`/api/companies/${owner.companyId}/oauth-integrations/slackbot/configure`, { config: { channelId: 'C0NOPE' } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('channel_not_found');
    const good = await owner.client.put(`/api/companies/${owner.companyId}/oauth-integrations/slackbot/configure`, { config: { channelId: 'C0SALES' } });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.data.state).toBe('active');
    const unknown = await owner.client.get(`/api/companies/${owner.companyId}/oauth-integrations/slackbot/nope`);
    expect(unknown.status).toBe(404);
    const malformed = await owner.client.put(`/api/companies/${owner.companyId}/oauth-integrations/slackbot/configure`, { config: 'x' });
    expect(malformed.status).toBe(422);
  });

  it('Google Ads: accessible customers, conversion actions, activation validated (validateOnly) with the settings', async () => {
    expect(await connect(owner, 'googleads')).toMatch(/connected=\d+/);
    const customers = await owner.client.get(`/api/companies/${owner.companyId}/oauth-integrations/googleads/accessible-customers`);
    expect(customers.body.data.map((c: { id: string }) => c.id)).toEqual(['1112223333', '4445556666']);
    const hierarchy = await owner.client.get(`/api/companies/${owner.companyId}/oauth-integrations/googleads/hierarchy?customerId=1112223333`);
    expect(hierarchy.body.data).toHaveLength(2);
    const actions = await owner.client.get(`/api/companies/${owner.companyId}/oauth-integrations/googleads/conversion-actions?customerId=4445556666`);
    expect(actions.body.data[0]).toMatchObject({ id: '30001' });
    const act = await owner.client.put(`/api/companies/${owner.companyId}/oauth-integrations/googleads/activate`, {
      config: { customerId: '4445556666', loginCustomerId: '1112223333', conversionActionId: '30001' },
      settings: {
        events: {
          anyCall: true,
          firstCall: false,
          qualifiedCall: false,
          minDurationS: 10,
          outcomes: ['appt_booked', 'vehicle_ordered'],
          lead: false,
          missedCall: false,
          voicemail: false,
          text: false,
        },
        conversions: {
          call: { name: '30001', valueCents: 2500, currency: 'USD' },
          'outcome:vehicle_ordered': { name: '30002', valueCents: 150000, currency: 'USD' },
        },
        filters: { numberIds: [], poolIds: [], sources: [] },
        provider: {},
      },
    });
    expect(act.status, JSON.stringify(act.body)).toBe(200);
    expect(act.body.message).toContain('validateOnly');
    // Settings are validated (422 with field errors, never 500).
    const badSettings = await owner.client.put(`/api/companies/${owner.companyId}/oauth-integrations/googleads/update`, {
      settings: { events: { anyCall: 'yes' } },
    });
    expect(badSettings.status).toBe(422);
  });
});

describe('deliveries of a call', () => {
  let callId: number;
  let googleId: number;
  it('a call sends the conversion (hashed caller, dedup transactionId) and the Slack lead message with a link back', async () => {
    const found = await owner.client.get('/api/numbers/search?type=local&areaCode=415&limit=20');
    const pick = found.body.data[0];
    const bought = await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const routed = await owner.client.put(`/api/numbers/${bought.body.id}`, { routes: [{ round_robin: 'forwards', forwards: [{ number: '6465550101' }] }] });
    expect(routed.status, JSON.stringify(routed.body)).toBe(200);
    const sid = 'CA' + crypto.randomBytes(16).toString('hex');
    const caller = '+13125550177';
    await postWebhook(s, '/webhooks/twilio/voice', {
      CallSid: sid,
      AccountSid: s.ctx.config.twilioAccountSid,
      From: caller,
      To: bought.body.number,
      CallStatus: 'ringing',
      Direction: 'inbound',
    });
    const settled = () =>
      eventually(async () => {
        const open = await s.ctx.db.selectFrom('event_deliveries').select('event_id').where('status', '=', 'pending').executeTakeFirst();
        return !open;
      }, 40_000);
    await settled();
    await postWebhook(s, '/webhooks/twilio/voice/status', { CallSid: sid, CallStatus: 'completed', CallDuration: '42' });
    callId = Number((await s.ctx.db.selectFrom('calls').select('id').where('carrier_sid', '=', sid).executeTakeFirstOrThrow()).id);

    const sent = await eventually(async () => {
      const r = await owner.client.get(`/api/companies/${owner.companyId}/calls/${callId}/integration-deliveries`);
      const done = r.body.data?.filter((d: { state: string }) => d.state === 'delivered') ?? [];
      return done.some((d: { provider: string }) => d.provider === 'googleads') && done.some((d: { kind: string }) => d.kind === 'lead') ? r.body.data : null;
    }, 15_000);
    const google = sent.find((d: { provider: string }) => d.provider === 'googleads');
    const slack = sent.find((d: { provider: string; kind: string }) => d.provider === 'slackbot' && d.kind === 'lead');
    expect(google).toMatchObject({ kind: 'call', dedup_key: `sb-${google.integration_id}:call:${callId}` });
    expect(slack).toMatchObject({ kind: 'lead' });
    googleId = google.integration_id;
    const ingest = google.exchanges.find((e: { url: string }) => e.url.endsWith('/events:ingest'));
    expect(ingest.requestBody).toMatchObject({
      encoding: 'HEX',
      validateOnly: false,
      destinations: [
        { operatingAccount: { accountType: 'GOOGLE_ADS', accountId: '4445556666' }, loginAccount: { accountId: '1112223333' }, productDestinationId: '30001' },
      ],
      events: [
        {
          transactionId: google.dedup_key,
          eventSource: 'PHONE',
          conversionValue: 25,
          currency: 'USD',
          userData: { userIdentifiers: [{ phoneNumber: sha(caller) }] },
        },
      ],
    });
    expect(JSON.stringify(google.exchanges)).not.toContain(caller);
    const post = slack.exchanges[0];
    expect(post.url).toContain('/chat.postMessage');
    expect(post.requestBody.channel).toBe('C0SALES');
    expect(post.requestBody.text).toContain(`/calls/${callId}`);
    expect(slack.provider_ref).toMatch(/^\d+\.\d+$/);
  });

  it('retry keeps the dedup key: the provider keeps one conversion', async () => {
    const log = await owner.client.get(`/api/companies/${owner.companyId}/integrations/${googleId}/deliveries`);
    const d = log.body.data[0];
    const before = providerSandbox('googleads')!
      .sent()
      .filter((x) => x.summary.includes(d.dedup_key)).length;
    expect(before).toBe(1);
    const retry = await owner.client.post(`/api/companies/${owner.companyId}/integrations/${googleId}/deliveries/${d.id}/retry`, {});
    expect(retry.status).toBe(200);
    const again = await eventually(async () => {
      const r = await owner.client.get(`/api/companies/${owner.companyId}/integrations/${googleId}/deliveries`);
      const x = r.body.data.find((y: { id: number }) => y.id === d.id);
      return x.state === 'delivered' && x.attempts > d.attempts ? x : null;
    });
    expect(again.dedup_key).toBe(d.dedup_key);
    expect(
      providerSandbox('googleads')!
        .sent()
        .filter((x) => x.summary.includes(d.dedup_key)).length,
    ).toBe(1);
  });

  it('an outcome set later is sent as the conversion, a change after it as an adjustment (never a duplicate)', async () => {
    const field = (await owner.client.post('/api/eavEntityTypes/6/eavAttributes', { name: 'Outcome', type: 'text', companyId: owner.companyId })).body.data;
    expect((await owner.client.patch(`/api/calls/${callId}`, { eavAttributeValues: [{ attribute_id: field.id, value: 'appt_booked' }] })).status).toBe(200);
    const first = await eventually(async () => {
      const r = await owner.client.get(`/api/companies/${owner.companyId}/integrations/${googleId}/deliveries`);
      return r.body.data.find((x: { kind: string; state: string }) => x.kind === 'outcome' && x.state === 'delivered');
    });
    expect(first.delivery_key).toBe(`${googleId}:outcome:${callId}`);
    expect((await owner.client.patch(`/api/calls/${callId}`, { eavAttributeValues: [{ attribute_id: field.id, value: 'vehicle_ordered' }] })).status).toBe(200);
    const adj = await eventually(async () => {
      const r = await owner.client.get(`/api/companies/${owner.companyId}/integrations/${googleId}/deliveries`);
      return r.body.data.find((x: { kind: string; state: string }) => x.kind === 'outcome-adjustment' && x.state === 'delivered');
    });
    const upload = adj.exchanges.find((e: { url: string }) => e.url.includes(':uploadConversionAdjustments'));
    expect(upload.requestBody.conversionAdjustments[0]).toMatchObject({
      adjustmentType: 'RESTATEMENT',
      orderId: first.delivery_key,
      conversionAction: 'customers/4445556666/conversionActions/30002',
      restatementValue: { adjustedValue: 1500, currencyCode: 'USD' },
    });
    const outcomes = (await owner.client.get(`/api/companies/${owner.companyId}/integrations/${googleId}/deliveries`)).body.data.filter(
      (x: { kind: string }) => x.kind === 'outcome',
    );
    expect(outcomes).toHaveLength(1);
  });

  it('a call that ends before tracking attributes it still gets its lead (deliveries wait for the touch)', async () => {
    // The simulator's call rings, is answered and ends within milliseconds: its end reaches the consumer before the
    // call.attributed that tracking emits after the first change (was: no touch → not a first contact → no lead).
    const numbers = await owner.client.get(`/api/companies/${owner.companyId}/numbers`);
    const to = numbers.body.data[0].number as string;
    const quick = await owner.client.post('/api/simulator/calls', { from: '+13125550199', to, forwards: { '+16465550101': 'answer' } });
    expect(quick.status, JSON.stringify(quick.body)).toBe(200);
    const id = Number((await s.ctx.db.selectFrom('calls').select('id').where('carrier_sid', '=', quick.body.sid).executeTakeFirstOrThrow()).id);
    const kinds = await eventually(async () => {
      const r = await owner.client.get(`/api/companies/${owner.companyId}/calls/${id}/integration-deliveries`);
      const k = (r.body.data ?? []).map((d: { provider: string; kind: string }) => `${d.provider}:${d.kind}`).sort();
      return k.includes('slackbot:lead') && k.includes('googleads:call') ? k : null;
    }, 15_000);
    expect(kinds.filter((k: string) => k === 'slackbot:lead')).toHaveLength(1);
  });

  it('a refused grant makes the integration "needs reconnect" and e-mails the owner; deliveries wait', async () => {
    const row = await s.ctx.db.selectFrom('ad_integrations').selectAll().where('id', '=', googleId).executeTakeFirstOrThrow();
    // Expire the access token and revoke the refresh token at the (sandbox) provider.
    const { unseal } = await import('./crypto.js');
    sandboxAuthServer.revoke(await unseal(s.ctx as AppContext, row.refresh_token_sealed!, `integration:${googleId}`));
    await s.ctx.db
      .updateTable('ad_integrations')
      .set({ token_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', googleId)
      .execute();
    const lookup = await owner.client.get(`/api/companies/${owner.companyId}/oauth-integrations/googleads/accessible-customers`);
    expect(lookup.status).toBe(422);
    const card = (await owner.client.get(`/api/companies/${owner.companyId}/oauth-integrations/${googleId}`)).body.data;
    expect(card.state).toBe('needs_reconnect');
    const mail = await s.ctx.mailer.outbox(20, owner.email);
    expect(mail.some((m) => m.subject.includes('Reconnect Google Ads'))).toBe(true);
  });

  it('tenant isolation and roles: another company sees and changes nothing', async () => {
    expect((await other.client.get(`/api/companies/${owner.companyId}/integration-providers`)).status).toBe(403);
    expect((await other.client.get(`/api/companies/${owner.companyId}/integrations/${googleId}/deliveries`)).status).toBe(403);
    expect((await other.client.get(`/api/companies/${other.companyId}/integrations/${googleId}/deliveries`)).status).toBe(404);
    expect((await other.client.delete(`/api/companies/${other.companyId}/oauth-integrations/${googleId}`)).status).toBe(404);
    expect((await other.client.get(`/api/companies/${other.companyId}/calls/${callId}/integration-deliveries`)).body.data).toEqual([]);
  });
});

describe('the OAuth client against a standard mock OAuth server', () => {
  const server = (): OAuthServer => ({
    authorizationEndpoint: `${mock.issuer.url}/authorize`,
    tokenEndpoint: `${mock.issuer.url}/token`,
    revocationEndpoint: `${mock.issuer.url}/revoke`,
    scopes: ['ads'],
    pkce: true,
    clientAuth: 'client_secret_basic',
    envPrefix: 'MOCKPROV',
  });
  const live = (): AppContext =>
    ({
      ...s.ctx,
      config: {
        ...s.ctx.config,
        integrations: { ...s.ctx.config.integrations, mode: 'live', env: { MOCKPROV_CLIENT_ID: 'client-1', MOCKPROV_CLIENT_SECRET: 'secret-1' } },
      },
    }) as AppContext;

  it('authorization code with PKCE and state, refresh, and invalid_grant → reconnect needed', async () => {
    const ctx = live();
    const start = await startAuthorization(ctx, 'hubspot', server());
    const url = new URL(start.url);
    expect(url.searchParams.get('code_challenge')).toBe(crypto.createHash('sha256').update(start.codeVerifier).digest('base64url'));
    let seenVerifier = '';
    mock.service.once('beforeTokenSigning', (_t, req) => {
      seenVerifier = String((req.body as Record<string, unknown>).code_verifier ?? '');
    });
    const redirect = await fetch(url, { redirect: 'manual' });
    const cb = new URL(redirect.headers.get('location')!);
    expect(cb.searchParams.get('state')).toBe(start.state);
    const query = Object.fromEntries(cb.searchParams);
    await expect(
      exchangeCode(ctx, 'hubspot', server(), { ...query, state: 'tampered' }, { state: start.state, codeVerifier: start.codeVerifier }),
    ).rejects.toThrow();
    const grant = await exchangeCode(ctx, 'hubspot', server(), query, { state: start.state, codeVerifier: start.codeVerifier });
    expect(grant.access_token).toBeTruthy();
    expect(seenVerifier).toBe(start.codeVerifier);
    const refreshed = await refreshGrant(ctx, 'hubspot', server(), grant.refresh_token ?? 'r');
    expect(refreshed.access_token).toBeTruthy();
    mock.service.once('beforeResponse', (res) => {
      res.statusCode = 400;
      res.body = { error: 'invalid_grant', error_description: 'refresh token revoked' };
    });
    await expect(refreshGrant(ctx, 'hubspot', server(), 'revoked')).rejects.toBeInstanceOf(ReconnectNeededError);
  });

  it('a 429 with Retry-After becomes RateLimitedError with that delay (the job delays, never drops)', async () => {
    const conn = {
      integrationId: 1,
      companyId: 1,
      provider: 'googleads' as const,
      accessToken: 't',
      config: { customerId: '4445556666', conversionActionId: '30001' },
      secrets: {},
      app: {},
      baseUrl: 'https://googleads.example',
      appOrigin: '',
      sendMail: async () => {},
      now: () => new Date(),
      fetch: async () =>
        new Response(JSON.stringify({ error: { status: 'RESOURCE_EXHAUSTED', message: 'Too many requests' } }), {
          status: 429,
          headers: { 'retry-after': '7' },
        }),
    };
    const item = {
      kind: 'call',
      deliveryKey: '1:call:1',
      occurredAt: new Date().toISOString(),
      call: null,
      text: null,
      conversion: null,
      previous: null,
      attribution: { gclid: 'G1' },
      contact: { phone: '+15555550100', email: null },
    } as unknown as DeliveryItem;
    const err = await googleAdsProvider.adapter.deliver(conn, [item]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(7000);
  });
});
