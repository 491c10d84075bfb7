/**
 * `handleOnce` (webhooks.ts) with an answer known before handling: stored with the claim, so a repeated delivery gets
 * it without running the handler again; an outcome that differs from it is what is stored and answered.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { handleOnce } from './webhooks.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

describe('handleOnce with a known answer', () => {
  it('stores the known answer with the claim, or the outcome when it differs; a repeat gets the stored one', async () => {
    const app = Fastify();
    const runs: string[] = [];
    const known = { contentType: 'text/xml', body: '<Response/>' };
    app.post<{ Querystring: { key: string; answer: string } }>('/hook', async (req, reply) =>
      handleOnce(
        s.ctx,
        reply,
        `test-known:${req.query.key}`,
        async () => {
          runs.push(req.query.key);
          return { response: req.query.answer === 'known' ? known : { contentType: 'text/plain', body: `other ${req.query.key}` } };
        },
        known,
      ),
    );
    const key = `${Date.now()}`;
    for (const [suffix, answer, body, type] of [
      ['a', 'known', '<Response/>', 'text/xml'],
      ['b', 'other', `other ${key}b`, 'text/plain'],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await app.inject({ method: 'POST', url: `/hook?key=${key}${suffix}&answer=${answer}` });
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe(body);
        expect(res.headers['content-type']).toContain(type);
      }
      const stored = await s.ctx.db.selectFrom('webhook_receipts').selectAll().where('key', '=', `test-known:${key}${suffix}`).executeTakeFirstOrThrow();
      expect({ status: stored.status_code, type: stored.content_type, body: stored.body }).toEqual({ status: 200, type, body });
    }
    // The handler ran once per key.
    expect(runs).toEqual([`${key}a`, `${key}b`]);
    await app.close();
  });
});
