/**
 * The domain-event outbox on a real server and database (docs/architecture.md "Domain events"):
 * every reaction of real traffic is recorded once, and delivering every event again to every
 * consumer (a replay) changes nothing (each consumer is idempotent); a failing consumer is retried
 * with backoff, then dead-lettered, and an operator's retry delivers it; one aggregate's events
 * reach a consumer in order; the operators' routes are for operators only; an answered call sends
 * `call.completed` once after its `call.started`.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startReceiver, startTestServer, verifyWebhook, type TestServer } from '../../../test/harness.js';
import { buyTestNumber } from '../../modules/messaging/messaging.test-helpers.js';
import { webhookTuning } from '../../modules/webhooks/webhooks.delivery.js';
import { events } from './index.js';
import { outboxStatus, replayConsumer } from './outbox.js';

let s: TestServer;
let a: Account;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const savedPolicy = webhookTuning.addressPolicy;

beforeAll(async () => {
  webhookTuning.addressPolicy = { allowHosts: ['127.0.0.1'] };
  s = await startTestServer();
  a = await createAccount(s);
  receiver = await startReceiver(() => 204);
}, 60_000);

afterAll(async () => {
  webhookTuning.addressPolicy = savedPolicy;
  receiver?.close();
  await s?.close();
});

/**
 * Waits until no delivery is pending and no job a consumer queued is still due or running (a caller-ID lookup's job
 * emits the event billing meters), twice in a row: the outbox and what it set off have settled.
 */
async function settled(timeoutMs = 20_000): Promise<void> {
  let quiet = 0;
  await eventually(async () => {
    const { rows } = await sql<{ n: number }>`select
        (select count(*) from event_deliveries where status = 'pending')
        + (select count(*) from pgboss.job where name = 'caller-id.lookup' and state in ('created', 'retry', 'active'))::int as n`.execute(s.ctx.db);
    quiet = rows[0]!.n === 0 ? quiet + 1 : 0;
    return quiet >= 2;
  }, timeoutMs);
}

/** What the consumers wrote for company `companyId`, in a stable order (timestamps of the writes left out). */
async function reactions(companyId: number) {
  const q = async (text: ReturnType<typeof sql>) => (await text.execute(s.ctx.db)).rows;
  return {
    usage: await q(sql`select kind, source, quantity from billing_usage where company_id = ${companyId} order by kind, source`),
    webhooks: await q(sql`select endpoint_id, event_type, event_key from webhook_deliveries where company_id = ${companyId} order by event_type, event_key`),
    inbox: await q(sql`select id, type, call_id, call_status, duration_s, voicemail_id from conversation_items where company_id = ${companyId} order by id`),
    facts: await q(sql`select call_id, status, answer_status, duration_s from call_facts where company_id = ${companyId} order by call_id`),
    rollups: await q(sql`select sum(calls)::int as calls from call_rollup_days where company_id = ${companyId}`),
    firings: await q(sql`select trigger_id, event_key from number_trigger_firings where company_id = ${companyId} order by event_key`),
    leads: await q(sql`select phone, calls, texts from dni_leads where company_id = ${companyId} order by phone`),
    buckets: await q(
      sql`select campaign_id, error_code, delivered, failed from monitor_message_buckets where company_id = ${companyId} order by bucket_start, error_code`,
    ),
  };
}

describe('domain-event outbox', () => {
  it('records each reaction of real traffic once; replaying every consumer changes nothing', async () => {
    const n = await buyTestNumber(a, '312', 0);
    expect((await a.client.put(`/api/numbers/${n.id}`, { routes: [{ forwards: [{ number: '6465550199' }] }] })).status).toBe(200);
    const hook = await a.client.post('/api/webhook-endpoints', {
      company_id: a.companyId,
      url: `${receiver.base}/all`,
      events: ['call.started', 'call.completed', 'call.missed', 'message.received', 'call.attributed'],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const secret = (await a.client.get(`/api/webhook-endpoints/${hook.body.data.id}/secret`)).body.data.secret as string;
    const trig = await a.client.put(`/api/companies/${a.companyId}/triggers`, {
      upsert: [{ number_id: n.id, event: 'call.missed', action: 'email', target: 'owner@example.com' }],
      remove: [],
    });
    expect(trig.status, JSON.stringify(trig.body)).toBe(200);

    for (const body of ['Hello there', 'Are you open today?']) {
      const r = await a.client.post('/api/simulator/messages', { from: '+13125550121', to: n.number, body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const answered = await a.client.post('/api/simulator/calls', {
      from: '+13125550122',
      to: n.number,
      forwards: { '+16465550199': 'answer' },
      talk_seconds: 20,
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const missed = await a.client.post('/api/simulator/calls', { from: '+13125550123', to: n.number, forwards: { '+16465550199': 'no-answer' } });
    expect(missed.status, JSON.stringify(missed.body)).toBe(200);
    await settled();

    const calls = await s.ctx.db.selectFrom('calls').select(['id', 'status', 'ended_at']).where('company_id', '=', a.companyId).orderBy('id').execute();
    expect(calls).toHaveLength(2);
    // Every call ended: one call.started and then one call.completed each (recorded in that order per call).
    const hits = await eventually(async () => {
      const got = receiver.received.filter((r) => r.path === '/all').map((r) => verifyWebhook(secret, r));
      const n = (t: string) => got.filter((e) => e.type === t).length;
      return n('call.completed') >= 2 && n('call.started') >= 2 && n('message.received') >= 2 ? got : null;
    });
    for (const c of calls) {
      const mine = hits.filter((e) => e.data.call_id === c.id).map((e) => e.type);
      expect(mine.filter((t) => t === 'call.started')).toHaveLength(1);
      expect(mine.filter((t) => t === 'call.completed')).toHaveLength(1);
      const recorded = await s.ctx.db
        .selectFrom('webhook_deliveries')
        .select(['event_type'])
        .where('company_id', '=', a.companyId)
        .where('event_key', 'like', `%call:${c.id}`)
        .where('event_type', 'in', ['call.started', 'call.completed'])
        .orderBy('id')
        .execute();
      expect(recorded.map((r) => r.event_type)).toEqual(['call.started', 'call.completed']);
    }
    expect(hits.filter((e) => e.type === 'message.received')).toHaveLength(2);

    const before = await reactions(a.companyId);
    expect(before.usage.length).toBeGreaterThanOrEqual(3); // two texts, one answered call's minutes
    expect(before.facts).toHaveLength(2);
    expect(before.firings).toHaveLength(1);
    expect(before.inbox.length).toBeGreaterThanOrEqual(3);

    // The same events again to every consumer (what a redelivery after a crash or an operator's replay does).
    let replayed = 0;
    for (const c of events.list()) if (!c.consumer.startsWith('test.')) replayed += await replayConsumer(s.ctx, c.consumer, new Date(0), a.companyId);
    expect(replayed).toBeGreaterThan(10);
    await settled();
    expect(await reactions(a.companyId)).toEqual(before);
    const dead = (await outboxStatus(s.ctx)).filter((c) => c.dead > 0);
    expect(dead).toEqual([]);
    // Each recorded webhook reached the endpoint exactly once (nothing sent again by the replay).
    await new Promise((r) => setTimeout(r, 1000));
    const got = receiver.received.filter((r) => r.path === '/all').map((r) => r.headers['webhook-id']);
    expect(new Set(got).size).toBe(got.length);
    expect(got.length).toBe(before.webhooks.length);
  });

  it('retries a failing consumer with backoff, then dead-letters it; an operator retries the dead letter', async () => {
    let fail = true;
    const seen: number[] = [];
    const off = events.consume(
      'test.outbox-flaky',
      'contact.deleted',
      (_ctx, e, meta) => {
        seen.push(meta.attempt);
        if (fail && e.companyId === a.companyId) throw new Error('the CRM is down');
      },
      { maxAttempts: 2 },
    );
    try {
      await events.publish(s.ctx, 'contact.deleted', { companyId: a.companyId, contactIds: [1], deletionId: 'outbox-test-1' });
      // Attempt 1 at once, attempt 2 after a 1 s backoff by the workers, then a dead letter.
      const status = await eventually(async () => (await outboxStatus(s.ctx)).find((c) => c.consumer === 'test.outbox-flaky' && c.dead === 1), 15_000);
      expect(status).toMatchObject({ pending: 0, dead: 1, lastError: 'the CRM is down' });
      expect(seen).toEqual([1, 2]);

      const owner = await a.client.get('/api/ops/outbox');
      expect(owner.status).toBe(403); // operators only
      await s.ctx.db.updateTable('users').set({ is_operator: true }).where('id', '=', a.userId).execute();
      const view = await a.client.get('/api/ops/outbox');
      expect(view.status, JSON.stringify(view.body)).toBe(200);
      expect(view.body.deadLetters.some((d: any) => d.consumer === 'test.outbox-flaky' && d.name === 'contact.deleted')).toBe(true);
      fail = false;
      const retry = await a.client.post('/api/ops/outbox/consumers/test.outbox-flaky/retry', {});
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body.count).toBe(1);
      await eventually(async () => (await outboxStatus(s.ctx)).find((c) => c.consumer === 'test.outbox-flaky' && c.dead === 0 && c.pending === 0));
      expect(seen).toEqual([1, 2, 1]);
      expect((await a.client.post('/api/ops/outbox/consumers/no.such/replay', { since: '2026-01-01T00:00:00Z' })).status).toBe(404);
      expect((await a.client.post('/api/ops/outbox/consumers/test.outbox-flaky/replay', { since: 'yesterday-ish' })).status).toBe(422);
    } finally {
      off();
      await s.ctx.db.updateTable('users').set({ is_operator: false }).where('id', '=', a.userId).execute();
    }
  });

  it("delivers one aggregate's events to a consumer in order, also when the first one fails once", async () => {
    const order: string[] = [];
    let failedOnce = false;
    const off = events.consume('test.outbox-order', 'call.annotated', (_ctx, e, meta) => {
      if (e.companyId !== a.companyId) return;
      if (meta.seq === 1 && !failedOnce) {
        failedOnce = true;
        throw new Error('first try fails');
      }
      order.push(`${e.callId}:${meta.seq}`);
    });
    try {
      const callId = 987_654;
      for (let i = 0; i < 3; i++) await events.publish(s.ctx, 'call.annotated', { callId, companyId: a.companyId });
      await eventually(async () => order.length === 3, 15_000);
      expect(order).toEqual([`${callId}:1`, `${callId}:2`, `${callId}:3`]);
    } finally {
      off();
    }
  });

  it('an emit that leases its deliveries to the dispatching process: run by its dispatch, in order behind a pending earlier event, left alone by the workers until the lease ends', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const off = events.consume('test.outbox-lease', 'call.annotated', async (_ctx, e, meta) => {
      if (e.companyId !== a.companyId) return;
      if (meta.seq === 1) await gate; // the first event's delivery is still running when the second is written
      order.push(`${e.callId}:${meta.seq}:${meta.attempt}`);
    });
    const emit = () =>
      s.ctx.db.transaction().execute((tx) => events.emit(tx, 'call.annotated', { callId: 876_543, companyId: a.companyId }, { leaseTo: s.ctx.queue.workerId }));
    const delivery = async (eventId: number) =>
      (
        await sql<{ status: string; locked_by: string | null; attempts: number }>`select status, locked_by, attempts from event_deliveries
          where consumer = 'test.outbox-lease' and event_id = ${eventId}`.execute(s.ctx.db)
      ).rows[0];
    try {
      const first = await emit();
      // Written leased to this process, tried once: its dispatch runs it without a claim.
      expect(first.leased?.map((d) => d.consumer)).toContain('test.outbox-lease');
      expect(await delivery(first.eventIds[0]!)).toMatchObject({ status: 'pending', locked_by: s.ctx.queue.workerId, attempts: 1 });
      const running = events.dispatch(s.ctx, first);
      // The second event of the same call while the first is pending: written held (not leased), run after the first.
      const second = await emit();
      expect(second.leased?.some((d) => d.consumer === 'test.outbox-lease')).toBe(false);
      expect(await delivery(second.eventIds[0]!)).toMatchObject({ status: 'pending', locked_by: null, attempts: 0 });
      const dispatched = events.dispatch(s.ctx, second);
      release();
      await Promise.all([running, dispatched]);
      await eventually(async () => order.length === 2, 15_000);
      expect(order).toEqual(['876543:1:1', '876543:2:1']);
      // A leased delivery nobody dispatches (a crash right after the commit) is not taken by the workers before its
      // lease ends (EMIT_LEASE_MS); then they run it (the crash test waits for that).
      const third = await emit();
      await new Promise((r) => setTimeout(r, 3_000));
      expect(order).toHaveLength(2);
      expect(await delivery(third.eventIds[0]!)).toMatchObject({ status: 'pending', locked_by: s.ctx.queue.workerId });
      // A later event of the call written meanwhile and never dispatched where it was written (another node that left
      // it): the round that runs the leased one follows it.
      const fourth = await emit();
      expect(await delivery(fourth.eventIds[0]!)).toMatchObject({ status: 'pending', locked_by: null, attempts: 0 });
      await events.dispatch(s.ctx, third);
      expect(order).toEqual(['876543:1:1', '876543:2:1', '876543:3:1', '876543:4:1']);
      expect(await delivery(third.eventIds[0]!)).toMatchObject({ status: 'done' });
      expect(await delivery(fourth.eventIds[0]!)).toMatchObject({ status: 'done' });
    } finally {
      release();
      off();
    }
  });

  it('refuses an event whose payload does not match its schema, writing nothing', async () => {
    const before = (await sql<{ n: number }>`select count(*)::int as n from domain_events`.execute(s.ctx.db)).rows[0]!.n;
    await expect(events.publish(s.ctx, 'call.annotated', { callId: 'x' as unknown as number, companyId: a.companyId })).rejects.toThrow(/does not match/);
    expect((await sql<{ n: number }>`select count(*)::int as n from domain_events`.execute(s.ctx.db)).rows[0]!.n).toBe(before);
  });
});
