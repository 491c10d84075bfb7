/**
 * Speech synthesis off the event loop (speech.ts, a piscina worker pool): long syntheses in flight
 * do not stop the server from answering; greeting text is bounded (GREETING_TEXT_MAX, 422 beyond);
 * previews are rate-limited per user (SPEAK_LIMIT a minute, 429 with Retry-After beyond).
 */
import { GREETING_TEXT_MAX } from '@switchboard/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { SPEAK_LIMIT } from './greetings.service.js';

let s: TestServer;
let owner: Account;

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

/** Text of exactly `n` characters made of words, as a person would type. */
function words(n: number): string {
  const base = 'Thank you for calling the front desk. Our opening hours are nine to five, Monday to Friday. ';
  return base
    .repeat(Math.ceil(n / base.length))
    .slice(0, n)
    .trimEnd()
    .padEnd(n, '.');
}

describe('speech synthesis', () => {
  it('keeps answering /api/health while long syntheses are in flight', async () => {
    // Order of events, not wall-clock: with synthesis on the event loop, no health check could
    // be answered until a synthesis had finished.
    const log: string[] = [];
    const speaks = Array.from({ length: 4 }, (_, i) =>
      owner.client.post('/api/greetings/speak', { content: words(500), voice: 'en/en-us' }).then((r) => {
        log.push(`speak ${i} ${r.status}`);
        return r;
      }),
    );
    let pending = speaks.length;
    const allDone = Promise.all(speaks).finally(() => {
      pending = 0;
    });
    for (const p of speaks)
      void p.then(() => {
        pending -= 1;
      });
    let during = 0;
    while (pending > 0) {
      const h = await owner.client.get('/api/health');
      expect(h.status).toBe(200);
      if (pending > 0) {
        during += 1;
        log.push('health');
      }
    }
    const results = await allDone;
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('audio/wav');
    }
    expect(during).toBeGreaterThanOrEqual(3);
    // At least one health check was answered before the first synthesis finished.
    expect(log[0]).toBe('health');
  }, 120_000);

  it(`refuses text longer than ${GREETING_TEXT_MAX} characters with 422 (preview and saved greeting)`, async () => {
    const r = await owner.client.post('/api/greetings/speak', { content: words(GREETING_TEXT_MAX + 1) });
    expect(r.status).toBe(422);
    expect(r.body.errors.content[0]).toMatch(String(GREETING_TEXT_MAX));
    const saved = await owner.client.post('/api/greetings', { company_id: owner.companyId, name: 'Too long', content: words(GREETING_TEXT_MAX + 1) });
    expect(saved.status).toBe(422);
    expect(saved.body.errors).toHaveProperty('content');
  });

  it(`rate-limits previews to ${SPEAK_LIMIT} a minute per user (429 with Retry-After), other users unaffected`, async () => {
    const a = await createAccount(s);
    const b = await createAccount(s);
    for (let i = 0; i < SPEAK_LIMIT; i++) expect((await a.client.post('/api/greetings/speak', { content: `Hello ${i}` })).status).toBe(200);
    const over = await a.client.post('/api/greetings/speak', { content: 'One more' });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.body.message).toMatch(/Too many/);
    expect((await b.client.post('/api/greetings/speak', { content: 'Hello' })).status).toBe(200);
  }, 120_000);
});
