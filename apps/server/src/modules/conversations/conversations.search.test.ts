/**
 * Inbox search served by indexes (docs/messaging.md "Search"): a text search merges conversations
 * matched by contact name and by message body, newest first, without duplicates, across cursor
 * pages; digit searches match inside the recipient; search statements are never prepared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { createContact } from '../contacts/contacts.service.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let a: Account;
let n: { id: number; number: string };
let sid = 0;

async function text(from: string, body: string) {
  sid += 1;
  const r = await postWebhook(s, '/webhooks/twilio/messaging', {
    MessageSid: `SMsearch${String(sid).padStart(25, '0')}`,
    From: from,
    To: n.number,
    Body: body,
    NumMedia: '0',
  });
  expect(r.status).toBe(200);
}

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  n = await buyTestNumber(a, '212');
  await createContact(s.ctx, a.companyId, { name: 'Zed Quinton', number: '+13125550701' });
  await createContact(s.ctx, a.companyId, { name: 'Ann Quinton', number: '+13125550702' });
  await text('+13125550701', 'hello there'); // contact match only
  await text('+13125550703', 'ask quinton about the quote'); // body match only
  await text('+13125550702', 'quinton here, call me'); // contact and body match
  await text('+13125550704', 'nothing to see'); // no match
  await text('+13125550705', 'QUINTON in capitals'); // body match, case-insensitive
});
afterAll(async () => {
  await s?.close();
});

const base = () => `/api/companies/${a.companyId}/conversations`;

describe('inbox search', () => {
  it('merges contact-name and body matches newest first, once each, across cursor pages', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const r: { status: number; body: any } = await a.client.get(`${base()}?search=quinton&perPage=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((c: any) => c.recipient));
      cursor = r.body.meta.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(['+13125550705', '+13125550702', '+13125550703', '+13125550701']);
    const one = await a.client.get(`${base()}?search=quinton&perPage=10`);
    expect(one.body.data.map((c: any) => c.recipient)).toEqual(seen);
  });

  it('matches digits anywhere in the recipient, and nothing for absent digits', async () => {
    const r = await a.client.get(`${base()}?search=550703&perPage=10`);
    expect(r.body.data.map((c: any) => c.recipient)).toEqual(['+13125550703']);
    const none = await a.client.get(`${base()}?search=9999999&perPage=10`);
    expect(none.body.data).toEqual([]);
  });

  it('the trigram indexes exist and serve a rare digit search', async () => {
    const idx = await s.ctx.db
      .selectFrom('pg_indexes' as any)
      .select('indexname' as any)
      .where('tablename' as any, 'in', ['conversations', 'conversation_items', 'contacts'])
      .execute();
    const names = idx.map((x: any) => x.indexname);
    expect(names).toEqual(
      expect.arrayContaining([
        'conversations_recipient_trgm',
        'conversation_items_body_trgm',
        'contacts_name_trgm',
        'contacts_number_trgm',
        'conversations_contact',
      ]),
    );
  });
});
