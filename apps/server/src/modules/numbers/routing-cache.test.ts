/**
 * The number-routing cache of the voice webhook across server processes (docs/architecture.md "The voice webhook's hot path"): entries
 * live 60 s while the LISTEN feed on `routing_invalidate` is up, so a routing change made on one
 * node must reach another node's next call through NOTIFY, also after the feed reconnects.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startSecondNode, startTestServer, type TestServer } from '../../../test/harness.js';
import { invalidationFeedLive } from '../../platform/db/invalidation-feed.js';
import { ROUTING_INVALIDATE_CHANNEL } from './numbers.service.js';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, isArray: (name) => ['Number', 'Say'].includes(name) });
const sid = () => 'CA' + crypto.randomBytes(16).toString('hex');

let s: TestServer;
let node: TestServer;
let owner: Account;

beforeAll(async () => {
  s = await startTestServer();
  node = await startSecondNode(s);
  owner = await createAccount(s);
});
afterAll(async () => {
  await node?.close();
  await s?.close();
});

async function dialed(server: TestServer, to: string): Promise<string> {
  const r = await postWebhook(server, '/webhooks/twilio/voice', {
    CallSid: sid(),
    AccountSid: server.ctx.config.twilioAccountSid,
    From: '+13125550142',
    To: to,
    CallStatus: 'ringing',
    Direction: 'inbound',
    FromState: 'IL',
  });
  expect(r.status).toBe(200);
  const n = xml.parse(r.body).Response.Dial.Number[0];
  return n['#text'] ?? n;
}

async function setForward(id: number, forward: string) {
  const r = await owner.client.put(`/api/numbers/${id}`, { routes: [{ extension: 1, forwards: [{ number: forward }] }] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe('routing cache across nodes', () => {
  it('a routing change on one node reaches the other node by NOTIFY, also after the feed reconnects', async () => {
    const found = await owner.client.get('/api/numbers/search?type=local&areaCode=212&limit=5');
    const pick = found.body.data[0];
    const bought = await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number });
    expect(bought.status).toBe(201);
    const n = bought.body as { id: number; number: string };
    await setForward(n.id, '(646) 555-0101');

    expect(await dialed(node, n.number)).toBe('+16465550101'); // opens node 2's feed
    await eventually(async () => invalidationFeedLive(node.ctx, ROUTING_INVALIDATE_CHANNEL));
    expect(await dialed(node, n.number)).toBe('+16465550101'); // cached for 60 s now
    await setForward(n.id, '(646) 555-0102'); // through node 1
    await eventually(async () => (await dialed(node, n.number)) === '+16465550102', 2_000, 20);

    // The feed's connection is killed: node 2 drops its entries, reconnects and LISTENs again.
    expect(await dialed(node, n.number)).toBe('+16465550102');
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where query = ${`LISTEN "${ROUTING_INVALIDATE_CHANNEL}"`} and pid <> pg_backend_pid()`.execute(
      s.ctx.db,
    );
    await eventually(async () => !invalidationFeedLive(node.ctx, ROUTING_INVALIDATE_CHANNEL), 5_000, 10);
    await eventually(async () => invalidationFeedLive(node.ctx, ROUTING_INVALIDATE_CHANNEL), 10_000, 50);
    expect(await dialed(node, n.number)).toBe('+16465550102');
    await setForward(n.id, '(646) 555-0103');
    await eventually(async () => (await dialed(node, n.number)) === '+16465550103', 2_000, 20);
  });
});
