/**
 * Live across nodes (spec 001 §7 "Live channels and events"): two servers on the same database; a browser connected to
 * node B sees `conversation updated` for a message that the carrier delivered to node A
 * (Socket.IO PostgreSQL adapter), and node B's API serves what node A stored.
 */
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { ApiClient, eventually, postWebhook, startSecondNode, startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber, connectSocket, subscribe } from './messaging.test-helpers.js';

let nodeA: TestServer;
let nodeB: TestServer;
let a: Account;
let number: { id: number; number: string };
let socket: Socket | undefined;

beforeAll(async () => {
  nodeA = await startTestServer();
  nodeB = await startSecondNode(nodeA);
  a = await createAccount(nodeA);
  number = await buyTestNumber(a, '212');
});
afterAll(async () => {
  socket?.close();
  await nodeB?.close();
  await nodeA?.close();
});

describe('two server nodes', () => {
  it('a socket on node B receives conversation updated caused by a webhook on node A', async () => {
    expect(nodeB.url).not.toBe(nodeA.url);
    // The same session works on node B (sessions live in the shared database).
    const onB = new ApiClient(nodeB.url);
    await onB.signIn(a.email, a.password);
    socket = await connectSocket(nodeB, onB);
    expect(await subscribe(socket, `conversations.${a.companyId}`)).toEqual({ ok: true });
    const seen: any[] = [];
    socket.on('conversation updated', (e) => seen.push(e));

    const r = await postWebhook(nodeA, '/webhooks/twilio/messaging', {
      MessageSid: 'SMtwonodes000000000000000000000001',
      From: '+13125551101',
      To: number.number,
      Body: 'hello from node A',
      NumMedia: '0',
    });
    expect(r.status).toBe(200);
    const ev = await eventually(async () => seen.find((e) => e.item?.details.content === 'hello from node A'), 10_000, 50);
    expect(ev).toMatchObject({ recipient: '+13125551101', number: { id: number.id }, numUnreadItems: 1 });
    const list = await onB.get(`/api/companies/${a.companyId}/conversations`);
    expect(list.body.data[0].id).toBe(ev.id);
  });

  it('events published on node A in one burst reach node B in order, through one NOTIFY statement', async () => {
    expect(socket).toBeDefined();
    const seen: number[] = [];
    socket!.on('burst', (e: { i: number }) => seen.push(e.i));
    const query = vi.spyOn(pg.Client.prototype, 'query');
    for (let i = 0; i < 25; i++) nodeA.ctx.realtime.publish(`conversations.${a.companyId}`, 'burst', { i });
    await eventually(async () => seen.length === 25, 10_000, 20);
    const notifies = query.mock.calls.filter(([q]) => /pg_notify/i.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)));
    query.mockRestore();
    expect(seen).toEqual([...Array(25).keys()]);
    expect(notifies).toHaveLength(1);
  });

  it('a node alone publishes to its own sockets without NOTIFY', async () => {
    const solo = await startTestServer();
    const soloSocket = await (async () => {
      const acc = await createAccount(solo);
      const c = await connectSocket(solo, acc.client);
      expect(await subscribe(c, `company.${acc.companyId}`)).toEqual({ ok: true });
      return { c, acc };
    })();
    try {
      const got: string[] = [];
      soloSocket.c.on('call updated', (e: { id: string }) => got.push(e.id));
      const query = vi.spyOn(pg.Client.prototype, 'query');
      solo.ctx.realtime.publish(`company.${soloSocket.acc.companyId}`, 'call updated', { id: 'x1' });
      solo.ctx.realtime.publish(`company.${soloSocket.acc.companyId + 1}`, 'call updated', { id: 'other company' });
      await eventually(async () => got.length === 1, 5_000, 20);
      await new Promise((r) => setTimeout(r, 100));
      // Only this node's database counts: the two-node servers of this file may publish through NOTIFY meanwhile.
      const soloDb = new URL(solo.dbUrl).pathname.slice(1);
      const notifies = query.mock.calls.filter(
        ([q], i) =>
          (query.mock.contexts[i] as { database?: string } | undefined)?.database === soloDb &&
          /pg_notify/i.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)),
      );
      query.mockRestore();
      expect(got).toEqual(['x1']);
      expect(notifies).toHaveLength(0);
      // Payloads nobody can receive are not built: a lone node, no socket on the channel.
      expect(solo.ctx.realtime.mayHaveSubscribers(`company.${soloSocket.acc.companyId}`)).toBe(true);
      expect(solo.ctx.realtime.mayHaveSubscribers(`conversations.${soloSocket.acc.companyId}`)).toBe(false);
      const n = await buyTestNumber(soloSocket.acc, '312');
      const reads = vi.spyOn(pg.Client.prototype, 'query');
      const r = await postWebhook(solo, '/webhooks/twilio/messaging', {
        MessageSid: 'SMsolo00000000000000000000000000001',
        From: '+13125551102',
        To: n.number,
        Body: 'nobody watching',
        NumMedia: '0',
      });
      expect(r.status).toBe(200);
      await eventually(
        async () => (await solo.ctx.db.selectFrom('conversation_items').select('id').where('body', '=', 'nobody watching').execute()).length === 1,
      );
      const conversationReads = reads.mock.calls.filter(([q]) =>
        /from "conversations" where "company_id"/i.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)),
      );
      reads.mockRestore();
      expect(conversationReads).toHaveLength(0);
    } finally {
      soloSocket.c.close();
      await solo.close();
    }
  });
});
