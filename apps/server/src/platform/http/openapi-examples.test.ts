/**
 * The OpenAPI document's examples (openapi-examples.ts; docs/api-and-webhooks.md "The OpenAPI document"): every
 * listed operation exists and shows its request and response examples, and an example that does not match its
 * route's schema is a registration error.
 */
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { EXAMPLE_NAME, OPENAPI_EXAMPLES, withOpenApiExamples } from './openapi-examples.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

type Media = { examples?: Record<string, { value: unknown }>; schema?: unknown };
/** The value of the media type's named example. */
const named = (media: Media | undefined) => media?.examples?.[EXAMPLE_NAME]?.value;
type Operation = { description?: string; requestBody?: { content: Record<string, Media> }; responses: Record<string, { content?: Record<string, Media> }> };

describe('OpenAPI examples', () => {
  it('covers the main public operations: contacts list and create, messages send, calls list, numbers list, webhooks', () => {
    expect(Object.keys(OPENAPI_EXAMPLES)).toEqual(
      expect.arrayContaining([
        'GET /api/contacts',
        'POST /api/contacts',
        'POST /api/message',
        'GET /api/activity',
        'GET /api/companies/:companyId/numbers',
        'GET /api/webhook-endpoints',
        'POST /api/webhook-endpoints',
      ]),
    );
  });

  it('every example reaches /api/docs/json: the request body, the response and the example request line', async () => {
    const res = await fetch(`${s.url}/api/docs/json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, Operation>> };
    for (const [key, ex] of Object.entries(OPENAPI_EXAMPLES)) {
      const [method, url] = key.split(' ') as [string, string];
      const op = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      expect(op, key).toBeDefined();
      const answer = op!.responses[String(ex.response.status)]?.content?.['application/json'];
      expect(named(answer), `${key} response`).toEqual(ex.response.value);
      if (ex.body !== undefined) expect(named(op!.requestBody?.content['application/json']), `${key} body`).toEqual(ex.body);
      if (ex.query) expect(op!.description, `${key} request line`).toContain(`Example: \`${method} ${url}?`);
      // The access sentence is still there.
      expect(op!.description).toContain('Access:');
    }
  });

  it('an example that does not match its schema, or a schema the route lacks, fails at registration', () => {
    const good = { response: { 200: z.object({ data: z.array(z.object({ id: z.number() })) }) } };
    expect(() => withOpenApiExamples('GET', '/api/not-listed', good)).not.toThrow();
    // Listed, but the route's schema would not accept the example (the shapes drifted apart).
    const drifted = { querystring: z.object({ company_id: z.coerce.number() }), response: { 200: z.object({ items: z.array(z.string()) }) } };
    expect(() => withOpenApiExamples('GET', '/api/webhook-endpoints', drifted)).toThrow(
      /OpenAPI example of GET \/api\/webhook-endpoints \(response 200\) does not match its schema/,
    );
    expect(() => withOpenApiExamples('POST', '/api/contacts', { response: { 201: z.object({}) } })).toThrow(/has no zod body schema/);
  });
});
