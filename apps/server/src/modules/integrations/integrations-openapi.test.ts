/**
 * The integration calls in the OpenAPI document (issue 24 "Proof": "every one of the 26 calls has a route in the
 * OpenAPI document with examples"; integrations.openapi.ts): each call of spec 002 §7 "Integrations" maps to a route of
 * /api/docs/json whose answer (and body, when it takes one) shows its example, with an example request line; the
 * designed calls (ADF, cards, the delivery log, retry, replay, a call's deliveries) too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { INTEGRATION_EXAMPLES } from './integrations.openapi.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const C = '/api/companies/{companyId}';
/** The 26 calls of the specification and the route that serves each (generic routes serve several). */
const SPEC_CALLS: Array<[string, string, string]> = [
  ['GA4 list', 'get', `${C}/ga4integrations`],
  ['GA4 create', 'post', `${C}/ga4integrations`],
  ['GA4 update', 'put', `${C}/ga4integrations/{id}`],
  ['GA4 delete', 'delete', `${C}/ga4integrations/{id}`],
  ['OAuth integrations list', 'get', `${C}/oauth-integrations`],
  ['OAuth integration get', 'get', `${C}/oauth-integrations/{id}`],
  ['OAuth integration delete', 'delete', `${C}/oauth-integrations/{id}`],
  ['redirect (POST)', 'post', `${C}/oauth-integrations/{provider}/redirect`],
  ['Slack redirect (GET)', 'get', `${C}/oauth-integrations/slackbot/redirect`],
  ['activate', 'put', `${C}/oauth-integrations/{provider}/activate`],
  ['sync', 'put', `${C}/oauth-integrations/{provider}/sync`],
  ['deactivate', 'put', `${C}/oauth-integrations/{provider}/deactivate`],
  ['update', 'put', `${C}/oauth-integrations/{provider}/update`],
  ['Google accessible customers', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Google hierarchy', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Google info', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Google campaigns', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Meta business managers', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Meta ad accounts', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Meta pixels', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Meta conversions', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Microsoft accounts', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Microsoft managers', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Slack channels', 'get', `${C}/oauth-integrations/{provider}/{lookup}`],
  ['Slack callback', 'get', '/api/oauth-integrations/{provider}/callback'],
  ['Slack configure', 'put', `${C}/oauth-integrations/slackbot/configure`],
];

type Media = { examples?: Record<string, { value: unknown }> };
type Operation = {
  operationId?: string;
  description?: string;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};

describe('OpenAPI document: the integration calls', () => {
  it('every one of the 26 calls has a route with examples (answer, body, request line)', async () => {
    expect(SPEC_CALLS).toHaveLength(26);
    const doc = (await (await fetch(`${s.url}/api/docs/json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    for (const [name, method, path] of SPEC_CALLS) {
      const op = doc.paths[path]?.[method];
      expect(op, `${name}: ${method.toUpperCase()} ${path} is in the document`).toBeDefined();
      const ex = INTEGRATION_EXAMPLES[op!.operationId!];
      expect(ex, `${name}: ${op!.operationId} has examples`).toBeDefined();
      expect(op!.description ?? '', `${name}: example request line`).toContain(`Example: \``);
      if (ex!.response) {
        const got = op!.responses[String(ex!.response.status)]?.content?.['application/json']?.examples?.example?.value;
        expect(got, `${name}: answer example`).toEqual(ex!.response.value);
      }
      if (ex!.body !== undefined) expect(op!.requestBody?.content['application/json']?.examples?.example?.value, `${name}: body example`).toEqual(ex!.body);
    }
  });

  it('the designed calls (ADF, cards, the delivery log, retry, replay, a call’s deliveries) show examples too', async () => {
    const doc = (await (await fetch(`${s.url}/api/docs/json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    for (const id of Object.keys(INTEGRATION_EXAMPLES)) {
      const op = ops.find((o) => o.operationId === id);
      expect(op, id).toBeDefined();
      expect(op!.description, id).toContain('Example: `');
      const ex = INTEGRATION_EXAMPLES[id]!;
      if (ex.response)
        expect(op!.responses[String(ex.response.status)]?.content?.['application/json']?.examples?.example?.value, id).toEqual(ex.response.value);
    }
  });
});
