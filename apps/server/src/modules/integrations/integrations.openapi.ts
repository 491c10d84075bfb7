/**
 * Examples of the integration calls in the OpenAPI document (`/api/docs`; issue 24 "Proof": every one of the 26 calls
 * of spec 002 §7 "Integrations" has a route with examples). The same mechanism as platform/http/openapi-examples.ts
 * (zod `.meta({'x-examples'})` on the route's body and response schema, which @fastify/swagger shows as the media
 * type's named `example`, and an example request line in the description), applied by this module's `onRoute` hook to
 * its own operations, keyed by operation id. Every example is parsed with the route's own schema when the route is
 * registered: one that no longer matches stops the server from starting, so the document never shows a stale example.
 */
import type { ZodType } from 'zod';
import type { RouteOptions } from 'fastify';

const COMPANY_ID = 12;
const AT = '2026-11-29T14:05:00.000Z';

const SETTINGS = {
  events: {
    anyCall: true,
    firstCall: false,
    qualifiedCall: false,
    minDurationS: 30,
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
};

const GOOGLE = {
  id: 7,
  company_id: COMPANY_ID,
  provider: 'googleads',
  name: 'Google Ads',
  state: 'active',
  account_name: 'Sandbox Motors – Search',
  external_account_id: '4445556666',
  config: { customerId: '4445556666', loginCustomerId: '1112223333', conversionActionId: '30001' },
  settings: SETTINGS,
  backfill_days: 7,
  connected_at: AT,
  connected_by_name: 'Dana Demo',
  last_delivery_at: AT,
  last_delivery_result: 'delivered',
  last_error: null,
  created_at: AT,
  updated_at: AT,
};
const SLACK = {
  ...GOOGLE,
  id: 8,
  provider: 'slackbot',
  name: 'Slack',
  account_name: 'Acme workspace',
  external_account_id: 'T0SANDBOX',
  config: { teamId: 'T0SANDBOX', channelId: 'C0SALES', channelName: '#sales-calls' },
  settings: {
    ...SETTINGS,
    events: { ...SETTINGS.events, anyCall: false, minDurationS: null, outcomes: [], lead: true, missedCall: true, voicemail: true, text: true },
    conversions: {},
  },
};
const GA4 = {
  ...GOOGLE,
  id: 9,
  provider: 'ga4',
  name: 'Google Analytics 4',
  account_name: 'G-ABC123XYZ9',
  external_account_id: 'G-ABC123XYZ9',
  config: { measurementId: 'G-ABC123XYZ9', hasApiSecret: true },
  backfill_days: 0,
};
const ADF = {
  ...GOOGLE,
  id: 10,
  provider: 'adf',
  name: 'ADF lead export',
  account_name: 'leads@dealer-crm.example',
  external_account_id: 'leads@dealer-crm.example',
  config: { leadEmail: 'leads@dealer-crm.example', postUrl: 'https://crm.dealer.example/adf', vendorName: 'Sandbox Motors' },
  settings: {
    ...SETTINGS,
    events: { ...SETTINGS.events, anyCall: false, minDurationS: null, outcomes: [], lead: true, qualifiedCall: true, text: true },
    conversions: {},
  },
};
const DELIVERY = {
  id: 501,
  integration_id: 7,
  provider: 'googleads',
  kind: 'call',
  delivery_key: '7:call:4242',
  dedup_key: 'sb-7:call:4242',
  call_id: 4242,
  state: 'delivered',
  attempts: 1,
  next_at: null,
  sent_at: AT,
  provider_ref: null,
  message: null,
  source: 'event',
  created_at: AT,
  exchanges: [
    {
      method: 'POST',
      url: 'https://datamanager.googleapis.com/v1/events:ingest',
      requestBody: { destinations: [{ productDestinationId: '30001' }], events: [{ transactionId: 'sb-7:call:4242', eventSource: 'PHONE' }] },
      status: 200,
      responseBody: { requestId: 'b1d2c3' },
      at: AT,
      ms: 182,
    },
  ],
};
const ACTIVATE = { config: { customerId: '4445556666', loginCustomerId: '1112223333', conversionActionId: '30001' }, settings: SETTINGS, backfillDays: 7 };
const MESSAGE = (message: string) => ({ message });
const LOOKUP = {
  data: [
    { id: '1112223333', name: 'Sandbox Motors (manager)', parentId: null, detail: { manager: true, currency: 'USD' } },
    { id: '4445556666', name: 'Sandbox Motors – Search', parentId: '1112223333', detail: { manager: false, currency: 'USD' } },
  ],
};

/** An operation's examples: query (a request line), JSON body, and the answer of a status the route declares. */
type Examples = { query?: Record<string, string>; path: string; body?: unknown; response?: { status: number; value: unknown } };

/**
 * The examples by operation id: the 26 calls of the spec (GA4 4, OAuth integrations 3, redirect ×2 (Slack's GET),
 * activate, Slack configure, sync, deactivate, update, the lookups, the providers' callback) and the designed ones (ADF,
 * cards, delivery log, retry, replay, a call's deliveries).
 */
export const INTEGRATION_EXAMPLES: Readonly<Record<string, Examples>> = {
  listIntegrationProviders: {
    path: `/api/companies/${COMPANY_ID}/integration-providers`,
    response: {
      status: 200,
      value: {
        mode: 'live',
        data: [
          {
            provider: 'googleads',
            name: 'Google Ads',
            auth: 'oauth',
            kinds: ['call', 'outcome', 'outcome-adjustment'],
            lookups: ['accessible-customers', 'hierarchy', 'info', 'campaigns', 'conversion-actions'],
            available: true,
            integrations: [GOOGLE],
          },
        ],
      },
    },
  },
  listGa4Integrations: { path: `/api/companies/${COMPANY_ID}/ga4integrations`, response: { status: 200, value: { data: [GA4] } } },
  createGa4Integration: {
    path: `/api/companies/${COMPANY_ID}/ga4integrations`,
    body: { name: 'Google Analytics 4', measurementId: 'G-ABC123XYZ9', apiSecret: 'xYz1AbC2dEf3GhI4', backfillDays: 0 },
    response: { status: 200, value: { data: GA4, message: 'GA4 validated a test event.' } },
  },
  updateGa4Integration: {
    path: `/api/companies/${COMPANY_ID}/ga4integrations/9`,
    body: { name: 'GA4 – main site' },
    response: { status: 200, value: { data: { ...GA4, name: 'GA4 – main site' } } },
  },
  deleteGa4Integration: { path: `/api/companies/${COMPANY_ID}/ga4integrations/9`, response: { status: 200, value: MESSAGE('The integration was removed.') } },
  listOauthIntegrations: { path: `/api/companies/${COMPANY_ID}/oauth-integrations`, response: { status: 200, value: { data: [GOOGLE, SLACK] } } },
  getOauthIntegration: { path: `/api/companies/${COMPANY_ID}/oauth-integrations/7`, response: { status: 200, value: { data: GOOGLE } } },
  deleteOauthIntegration: {
    path: `/api/companies/${COMPANY_ID}/oauth-integrations/7`,
    response: { status: 200, value: MESSAGE('The integration was removed.') },
  },
  startOauthIntegrationRedirect: {
    path: `/api/companies/${COMPANY_ID}/oauth-integrations/googleads/redirect`,
    body: { returnTo: '/integrations' },
    response: {
      status: 200,
      value: {
        url: 'https://accounts.google.com/o/oauth2/v2/auth?response_type=code&client_id=123.apps.googleusercontent.com&redirect_uri=https%3A%2F%2Fapp.example.com%2Fapi%2Foauth-integrations%2Fgoogleads%2Fcallback&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fadwords&state=Qm9Lx3&code_challenge=E9Mel&code_challenge_method=S256&access_type=offline&prompt=consent',
      },
    },
  },
  startSlackRedirect: {
    path: `/api/companies/${COMPANY_ID}/oauth-integrations/slackbot/redirect`,
    response: {
      status: 200,
      value: {
        url: 'https://slack.com/oauth/v2/authorize?client_id=123.456&scope=chat%3Awrite%2Cchat%3Awrite.public%2Cchannels%3Aread%2Cgroups%3Aread&redirect_uri=https%3A%2F%2Fapp.example.com%2Fapi%2Foauth-integrations%2Fslackbot%2Fcallback&state=Qm9Lx3&code_challenge=E9Mel&code_challenge_method=S256',
      },
    },
  },
  activateOauthIntegration: {
    path: `/api/companies/${COMPANY_ID}/oauth-integrations/googleads/activate`,
    body: ACTIVATE,
    response: { status: 200, value: { data: GOOGLE, message: 'Google Ads accepted a test conversion (validateOnly).' } },
  },
  configureSlackIntegration: {
    path: `/api/companies/${COMPANY_ID}/oauth-integrations/slackbot/configure`,
    body: { config: { channelId: 'C0SALES' }, backfillDays: 0 },
    response: { status: 200, value: { data: SLACK, message: 'Messages go to #sales-calls.' } },
  },
  syncOauthIntegration: { path: `/api/companies/${COMPANY_ID}/oauth-integrations/googleads/sync`, response: { status: 200, value: { data: GOOGLE } } },
  deactivateOauthIntegration: {
    path: `/api/companies/${COMPANY_ID}/oauth-integrations/googleads/deactivate`,
    response: {
      status: 200,
      value: { data: { ...GOOGLE, state: 'inactive' }, message: 'The integration was deactivated and its access revoked.' },
    },
  },
  updateOauthIntegration: {
    path: `/api/companies/${COMPANY_ID}/oauth-integrations/googleads/update`,
    body: { name: 'Google Ads – dealership', settings: SETTINGS },
    response: { status: 200, value: { data: { ...GOOGLE, name: 'Google Ads – dealership' } } },
  },
  runOauthIntegrationLookup: {
    path: `/api/companies/${COMPANY_ID}/oauth-integrations/googleads/hierarchy`,
    query: { customerId: '1112223333' },
    response: { status: 200, value: LOOKUP },
  },
  completeOauthIntegration: {
    path: '/api/oauth-integrations/googleads/callback',
    query: { code: '4/0AeaYSHB', state: 'Qm9Lx3', scope: 'https://www.googleapis.com/auth/adwords' },
  },
  listAdfIntegrations: { path: `/api/companies/${COMPANY_ID}/adf-integrations`, response: { status: 200, value: { data: [ADF] } } },
  createAdfIntegration: {
    path: `/api/companies/${COMPANY_ID}/adf-integrations`,
    body: { name: 'ADF lead export', leadEmail: 'leads@dealer-crm.example', postUrl: 'https://crm.dealer.example/adf', vendorName: 'Sandbox Motors' },
    response: { status: 200, value: { data: ADF, message: 'Leads go to leads@dealer-crm.example, https://crm.dealer.example/adf.' } },
  },
  updateAdfIntegration: {
    path: `/api/companies/${COMPANY_ID}/adf-integrations/10`,
    body: { leadEmail: 'bdc@dealer-crm.example' },
    response: { status: 200, value: { data: { ...ADF, config: { ...ADF.config, leadEmail: 'bdc@dealer-crm.example' } } } },
  },
  deleteAdfIntegration: { path: `/api/companies/${COMPANY_ID}/adf-integrations/10`, response: { status: 200, value: MESSAGE('The integration was removed.') } },
  listIntegrationDeliveries: {
    path: `/api/companies/${COMPANY_ID}/integrations/7/deliveries`,
    query: { state: 'delivered', page: '1', per_page: '25' },
    response: { status: 200, value: { data: [DELIVERY], meta: { current_page: 1, per_page: 25, total: 1, last_page: 1 } } },
  },
  retryIntegrationDelivery: {
    path: `/api/companies/${COMPANY_ID}/integrations/7/deliveries/501/retry`,
    response: { status: 200, value: MESSAGE('The delivery will be sent again.') },
  },
  replayIntegrationDeliveries: {
    path: `/api/companies/${COMPANY_ID}/integrations/7/replay`,
    body: { since: '2026-11-22T00:00:00.000Z' },
    response: { status: 200, value: { message: 'The deliveries will be sent again.', count: 14 } },
  },
  listCallIntegrationDeliveries: {
    path: `/api/companies/${COMPANY_ID}/calls/4242/integration-deliveries`,
    response: { status: 200, value: { data: [{ ...DELIVERY, integration_name: 'Google Ads' }] } },
  },
};

/** The zod schema with the named example on it (on the wrapped schema of an optional/nullable/default one). */
function withExample(schema: ZodType, summary: string, value: unknown): ZodType {
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: ZodType; defaultValue?: unknown } } })._zod.def;
  if (def.type === 'optional' && def.innerType) return withExample(def.innerType, summary, value).optional();
  if (def.type === 'nullable' && def.innerType) return withExample(def.innerType, summary, value).nullable();
  return schema.meta({ 'x-examples': { example: { summary, value } } });
}

/** Parses an example with the route's schema. @throws Error naming the operation and the first issue. */
function check(operationId: string, where: string, schema: unknown, value: unknown): void {
  const parse = (schema as { safeParse?: (v: unknown) => { success: boolean; error?: { issues: unknown[] } } } | undefined)?.safeParse;
  if (!parse) throw new Error(`OpenAPI example of ${operationId}: the route has no zod ${where} schema`);
  const r = parse.call(schema, value);
  if (!r.success) throw new Error(`OpenAPI example of ${operationId} (${where}) does not match its schema: ${JSON.stringify(r.error?.issues[0])}`);
}

/**
 * `onRoute` hook: puts this module's examples on its routes' schemas (body, the answer, a request line in the
 * description). Routes of other modules are left alone.
 * @throws Error when an example does not parse with the route's own schema.
 */
export function addIntegrationExamples(route: RouteOptions): void {
  const schema = route.schema as (Record<string, unknown> & { operationId?: string; response?: Record<string, unknown> }) | undefined;
  const ex = schema?.operationId ? INTEGRATION_EXAMPLES[schema.operationId] : undefined;
  if (!schema || !ex) return;
  const id = schema.operationId!;
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
  const line = `Example: \`${method} ${ex.path}${ex.query ? `?${new URLSearchParams(ex.query).toString()}` : ''}\``;
  if (ex.query) check(id, 'querystring', schema.querystring, ex.query);
  const out: Record<string, unknown> = { ...schema, description: typeof schema.description === 'string' ? `${schema.description}\n\n${line}` : line };
  if (ex.body !== undefined) {
    check(id, 'body', schema.body, ex.body);
    out.body = withExample(schema.body as ZodType, 'Request', ex.body);
  }
  if (ex.response) {
    const rs = schema.response?.[ex.response.status];
    check(id, `response ${ex.response.status}`, rs, ex.response.value);
    out.response = { ...schema.response, [ex.response.status]: withExample(rs as ZodType, `${ex.response.status} answer`, ex.response.value) };
  }
  route.schema = out;
}
