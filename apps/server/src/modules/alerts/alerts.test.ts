/**
 * Alerts through the real server (spec 001 "Alerts"; docs/alerts.md): monitors raise ONE active alert per subject
 * even when they run twice or on two nodes at once; dismissing needs a reason and keeps it; the history keeps every
 * change with who and when; counts; the list's page size 10 and filters; the quiet period after a dismissal;
 * voicemails answered by a call back; pool exhaustion; a campaign whose deliveries fail (the campaigns module's
 * `campaign.delivery-outcomes`, from the sandbox carrier's real delivery callbacks); settings and e-mail choices;
 * tenant isolation (403/404) and 422 on bad input, the spec's `filters` object on the list.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startSecondNode, startTestServer, type TestServer } from '../../../test/harness.js';
import { events } from '../../../src/platform/events/index.js';
import { addCompanyMember, createOrganization } from '../companies/companies.service.js';
import { buyTestNumber, connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';
import { createContact } from '../contacts/contacts.service.js';
import { addContactsToGroups, createGroup } from '../contacts/groups.service.js';
import { campaignRuntime, setCompanyCampaignRate } from '../campaigns/campaigns.service.js';
import { raiseAlert } from './alerts.raise.js';
import { monitorTuning, runMonitors } from './alerts.monitors.js';

let s: TestServer;
let s2: TestServer;
let a: Account;
let other: Account;
let reader: Account;
let socket: Socket;
const live: Array<{ event: string; payload: { id: number; state: string; type: string } }> = [];

beforeAll(async () => {
  monitorTuning.tickMs = 3_600_000; // the background tick stays out of the way; the tests run the monitors
  monitorTuning.silentEveryMs = Number.MAX_SAFE_INTEGER;
  monitorTuning.callCheckDelayMs = 200;
  s = await startTestServer();
  s2 = await startSecondNode(s);
  a = await createAccount(s, { firstName: 'Alma', lastName: 'Owner' });
  other = await createAccount(s, { firstName: 'Olga' });
  reader = await createAccount(s, { firstName: 'Rita', lastName: 'Reader' });
  await addCompanyMember(s.ctx, a.companyId, reader.userId, 'reporting');
  socket = await connectSocket(s, reader.client);
  expect((await subscribe(socket, `company.${a.companyId}`)).ok).toBe(true);
  socket.onAny((event: string, payload) => {
    if (event.startsWith('alert ')) live.push({ event, payload });
  });
}, 90_000);

afterAll(async () => {
  socket?.close();
  await s2?.close();
  await s?.close();
});

/** Emits one final outcome of an outbound text of the company. */
async function outcome(companyId: number, itemId: number, state: 'delivered' | 'failed' | 'undelivered', errorCode: number | null = null) {
  await events.publish(s.ctx, 'message.status-changed', {
    companyId,
    conversationId: 1,
    itemId,
    carrierSid: `SM${itemId}`,
    state,
    errorCode,
    campaignId: null,
  });
}

describe('monitors raise one alert per subject', () => {
  it('failing deliveries and a repeating carrier error: one alert each, even run twice on two nodes; e-mail to who chose it', async () => {
    // The reader chose alert e-mails; the owner did not.
    expect((await reader.client.put('/api/monitoring/notification-preferences', { companyId: a.companyId, emailAlerts: true })).status).toBe(200);
    // 15 delivered, 10 failed with 30007 → 10/25 = 40% ≥ 20% with ≥ 20 messages; error 30007 ×10 ≥ 5.
    let item = 1000;
    for (let i = 0; i < 15; i++) await outcome(a.companyId, item++, 'delivered');
    for (let i = 0; i < 10; i++) await outcome(a.companyId, item++, 'undelivered', 30007);
    // The other company: 3 failures, below every threshold.
    for (let i = 0; i < 3; i++) await outcome(other.companyId, item++, 'failed', 30007);

    await Promise.all([runMonitors(s.ctx), runMonitors(s2.ctx), runMonitors(s.ctx)]);
    await runMonitors(s2.ctx);

    const list = await a.client.get(`/api/monitoring/alerts?company=${a.companyId}`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const byType = Object.fromEntries(list.body.data.map((x: { type: string }) => [x.type, x]));
    expect(list.body.data).toHaveLength(2);
    expect(byType.delivery_failures).toMatchObject({
      state: 'open',
      subject: { type: 'company', id: 'messages', label: 'Text messages' },
      title: '40% of text messages failed to deliver',
      details: { delivered: 15, failed: 10, ratePercent: 40, thresholdPercent: 20, windowMinutes: 60 },
      companyName: expect.any(String),
      readAt: null,
    });
    expect(byType.carrier_error).toMatchObject({ subject: { id: 'error:30007' }, details: { count: 10, threshold: 5 } });
    expect((await other.client.get(`/api/monitoring/alerts?company=${other.companyId}`)).body.data).toEqual([]);

    const mails = await s.ctx.mailer.outbox(10, reader.email);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      expect.stringContaining('] 40% of text messages failed to deliver'),
      expect.stringContaining('] Carrier error 30007 repeated 10 times'),
    ]);
    expect(await s.ctx.mailer.outbox(10, a.email)).toEqual([]);
    // Live: one `alert created` per alert on the company channel (whichever node raised it).
    await eventually(async () => live.filter((l) => l.event === 'alert created').length === 2);
    expect(live.map((l) => [l.event, l.payload.type]).sort()).toEqual([
      ['alert created', 'carrier_error'],
      ['alert created', 'delivery_failures'],
    ]);

    const counts = await a.client.get(`/api/monitoring/alerts/counts?company=${a.companyId}`);
    expect(counts.body.data).toEqual({
      open: 2,
      acknowledged: 0,
      resolved: 0,
      dismissed: 0,
      unread: 2,
      total: 2,
      byType: { delivery_failures: 1, carrier_error: 1 },
    });
  });

  it('dismisses with a reason, keeps every change in the history, stays quiet afterwards', async () => {
    const list = await a.client.get(`/api/monitoring/alerts?company=${a.companyId}&type=carrier_error`);
    const alert = list.body.data[0];

    const noReason = await a.client.put(`/api/monitoring/alerts/${alert.id}`, { state: 'dismissed' });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.reason).toEqual(['The reason field is required when dismissing an alert.']);
    const otherNoComment = await a.client.put(`/api/monitoring/alerts/${alert.id}`, { state: 'dismissed', reason: 'other' });
    expect(otherNoComment.status).toBe(422);
    expect(Object.keys(otherNoComment.body.errors)).toEqual(['comment']);
    expect((await a.client.put(`/api/monitoring/alerts/${alert.id}`, { state: 'dismissed', reason: 'bored' })).status).toBe(422);
    expect((await a.client.put(`/api/monitoring/alerts/${alert.id}`, { state: 'open', reason: 'duplicate' })).status).toBe(422);

    // The reader opens it (read), acknowledges it; the owner dismisses it as a duplicate.
    const opened = await reader.client.get(`/api/monitoring/alerts/${alert.id}`);
    expect(opened.body.data.readAt).not.toBeNull();
    await reader.client.get(`/api/monitoring/alerts/${alert.id}`); // a second read records nothing
    const ack = await reader.client.put(`/api/monitoring/alerts/${alert.id}`, { state: 'acknowledged', comment: 'Looking at the carrier' });
    expect(ack.status).toBe(200);
    expect(ack.body.message).toBe('Alert updated successfully');
    const dismissed = await a.client.put(`/api/monitoring/alerts/${alert.id}`, {
      state: 'dismissed',
      reason: 'duplicate',
      comment: 'Same as the delivery alert',
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({
      message: 'Alert updated successfully',
      data: { state: 'dismissed', reason: 'duplicate', comment: 'Same as the delivery alert' },
    });
    expect(dismissed.body.data.resolvedAt).not.toBeNull();
    await eventually(async () => live.some((l) => l.event === 'alert updated' && l.payload.id === alert.id && l.payload.state === 'dismissed'));

    const history = await a.client.get(`/api/monitoring/alerts/${alert.id}/history`);
    expect(history.status).toBe(200);
    expect(
      history.body.data.map(
        (h: { action: string; fromState: string | null; toState: string; reason: string | null; userName: string | null; comment: string | null }) => [
          h.action,
          h.fromState,
          h.toState,
          h.reason,
          h.userName,
          h.comment,
        ],
      ),
    ).toEqual([
      ['created', null, 'open', null, null, null],
      ['read', 'open', 'open', null, 'Rita Reader', null],
      ['updated', 'open', 'acknowledged', null, 'Rita Reader', 'Looking at the carrier'],
      ['updated', 'acknowledged', 'dismissed', 'duplicate', 'Alma Owner', 'Same as the delivery alert'],
    ]);
    for (const h of history.body.data) expect(Date.parse(h.createdAt)).not.toBeNaN();

    // The error still repeats, but a dismissed subject stays quiet: no new alert.
    await runMonitors(s.ctx);
    const again = await a.client.get(`/api/monitoring/alerts?company=${a.companyId}&type=carrier_error`);
    expect(again.body.data.map((x: { id: number }) => x.id)).toEqual([alert.id]);
    const counts = await a.client.get(`/api/monitoring/alerts/counts?company=${a.companyId}`);
    expect(counts.body.data).toMatchObject({ open: 1, dismissed: 1, unread: 1, total: 2, byType: { delivery_failures: 1 } });

    // Reopening brings it back to the active states (and clears the reason).
    const reopened = await a.client.put(`/api/monitoring/alerts/${alert.id}`, { state: 'open' });
    expect(reopened.body.data).toMatchObject({ state: 'open', reason: null, resolvedAt: null });
    const last = (await a.client.get(`/api/monitoring/alerts/${alert.id}/history`)).body.data.at(-1);
    expect(last).toMatchObject({ action: 'reopened', fromState: 'dismissed', toState: 'open' });
  });

  it('an unanswered voicemail raises once and is resolved when the caller is called back', async () => {
    const party = '+13125550177';
    const fiveHoursAgo = new Date(Date.now() - 5 * 3600_000);
    await events.publish(s.ctx, 'call.changed', {
      callId: 987654,
      companyId: a.companyId,
      numberId: 424242,
      from: party,
      status: 4,
      direction: 'inbound',
      voicemailId: 5555,
      startedAt: fiveHoursAgo,
    });
    await Promise.all([runMonitors(s.ctx), runMonitors(s2.ctx)]);
    const vm = await a.client.get(`/api/monitoring/alerts?company=${a.companyId}&type=voicemail_unanswered`);
    expect(vm.body.data).toHaveLength(1);
    expect(vm.body.data[0]).toMatchObject({
      state: 'open',
      subject: { type: 'voicemail', id: 'voicemail:987654' },
      title: 'Voicemail from (312) 555-0177 unanswered for 5 h',
    });

    await events.publish(s.ctx, 'call.changed', {
      callId: 987655,
      companyId: a.companyId,
      numberId: 424242,
      from: party,
      status: 12,
      direction: 'outbound',
      startedAt: new Date(),
    });
    const after = await a.client.get(`/api/monitoring/alerts/${vm.body.data[0].id}`);
    expect(after.body.data.state).toBe('resolved');
    const history = (await a.client.get(`/api/monitoring/alerts/${vm.body.data[0].id}/history`)).body.data;
    expect(history.find((h: { action: string }) => h.action === 'resolved')).toMatchObject({ userId: null, comment: 'The caller was called back.' });
    // Answered: never raised again.
    await runMonitors(s.ctx);
    expect((await a.client.get(`/api/monitoring/alerts?company=${a.companyId}&type=voicemail_unanswered`)).body.data).toHaveLength(1);
  });

  it('an exhausted pool raises one alert per episode while it is open; off in the settings, none', async () => {
    const e = { companyId: a.companyId, poolId: 77, poolName: 'Google Ads', at: new Date() };
    await Promise.all([events.publish(s.ctx, 'tracking.pool-exhausted', e), events.publish(s2.ctx, 'tracking.pool-exhausted', e)]);
    const pools = await a.client.get(`/api/monitoring/alerts?company=${a.companyId}&type=pool_exhausted`);
    expect(pools.body.data).toHaveLength(1);
    expect(pools.body.data[0]).toMatchObject({ severity: 'critical', subject: { type: 'pool', id: 'pool:77', label: 'Google Ads' } });

    const settings = (await a.client.get(`/api/monitoring/settings?companyId=${a.companyId}`)).body.data;
    expect(settings).toMatchObject({ canEdit: true, emailAlerts: false, monitors: { poolExhausted: { enabled: true }, voicemailUnanswered: { hours: 4 } } });
    const off = { ...settings.monitors, poolExhausted: { enabled: false } };
    expect((await a.client.put('/api/monitoring/settings', { companyId: a.companyId, monitors: off })).body.message).toBe('Alert settings updated');
    await events.publish(s.ctx, 'tracking.pool-exhausted', { ...e, poolId: 78, poolName: 'Bing' });
    expect((await a.client.get(`/api/monitoring/alerts?company=${a.companyId}&type=pool_exhausted`)).body.data).toHaveLength(1);
  });
});

describe('campaign deliveries', () => {
  it('a campaign whose messages fail to deliver raises exactly one alert for that campaign', async () => {
    const realNow = campaignRuntime.now;
    campaignRuntime.now = () => new Date('2030-06-03T18:00:00Z'); // inside the legal sending window
    try {
      const c = await createAccount(s, { firstName: 'Cam' });
      const n = await buyTestNumber(c, '415', 0);
      await setCompanyCampaignRate(s.ctx, c.companyId, 0); // unlimited for the sandbox
      const group = await createGroup(s.ctx, c.userId, { company_id: c.companyId, name: 'Spring list' });
      // 12 reachable recipients and 8 whose numbers end in 0000: the sandbox carrier reports those undelivered
      // (error 30003) through the campaigns module's own delivery callback.
      const numbers = [...Array.from({ length: 12 }, (_, i) => `+1415555${String(2100 + i)}`), ...Array.from({ length: 8 }, (_, i) => `+1415${201 + i}0000`)];
      const ids: number[] = [];
      for (const [i, number] of numbers.entries()) ids.push((await createContact(s.ctx, c.companyId, { name: `Person ${i}`, number })).id);
      await addContactsToGroups(s.ctx, [group.id], ids);
      const created = await c.client.post('/api/campaigns', {
        company_id: c.companyId,
        title: 'Spring sale',
        text: 'Spring sale today',
        unsubscribe_text: 'Reply STOP to stop',
        groups: [group.id],
        number_id: n.id,
        state: 'queued',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const campaignId = created.body.id as number;
      await eventually(async () => {
        const r = await c.client.get(`/api/campaigns/${campaignId}`);
        return r.body.state === 'sent' && r.body.delivered_count + r.body.undelivered_count === 20;
      }, 20_000);

      // Two nodes, twice: one alert for the campaign (and one for the repeating carrier error), nothing else.
      await Promise.all([runMonitors(s.ctx), runMonitors(s2.ctx)]);
      await runMonitors(s.ctx);
      const list = await c.client.get(`/api/monitoring/alerts?company=${c.companyId}&type=delivery_failures`);
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0]).toMatchObject({
        state: 'open',
        severity: 'warning',
        subject: { type: 'campaign', id: `campaign:${campaignId}`, label: `Campaign #${campaignId}` },
        title: `40% of campaign #${campaignId} failed to deliver`,
        details: { campaignId, delivered: 12, failed: 8, ratePercent: 40, thresholdPercent: 20 },
      });
      const all = await c.client.get(`/api/monitoring/alerts?company=${c.companyId}`);
      expect(all.body.data.map((x: { type: string; subject: { id: string } }) => [x.type, x.subject.id]).sort()).toEqual([
        ['carrier_error', 'error:30003'],
        ['delivery_failures', `campaign:${campaignId}`],
      ]);
    } finally {
      campaignRuntime.now = realNow;
    }
  });
});

describe('the list, access and validation', () => {
  it('pages by 10 and filters by state, type and search', async () => {
    for (let i = 0; i < 11; i++)
      await raiseAlert(s.ctx, {
        companyId: other.companyId,
        type: 'number_silent',
        subjectType: 'number',
        subjectId: `number:${i}`,
        subjectLabel: `Line ${i}`,
        title: `No calls on Line ${i} for 9 days`,
        message: 'Quiet line',
        details: {},
      });
    const p1 = await other.client.get(`/api/monitoring/alerts?company=${other.companyId}`);
    expect(p1.body.data).toHaveLength(10);
    expect(p1.body.meta).toEqual({ current_page: 1, per_page: 10, total: 11, last_page: 2 });
    expect(p1.body.data[0].subject.label).toBe('Line 10'); // newest first
    const p2 = await other.client.get(`/api/monitoring/alerts?company=${other.companyId}&page=2`);
    expect(p2.body.data.map((x: { subject: { label: string } }) => x.subject.label)).toEqual(['Line 0']);
    expect((await other.client.get(`/api/monitoring/alerts?company=${other.companyId}&search=line 7`)).body.data).toHaveLength(1);
    expect((await other.client.get(`/api/monitoring/alerts?company=${other.companyId}&state=dismissed,resolved`)).body.meta.total).toBe(0);
    expect((await other.client.get(`/api/monitoring/alerts?company=${other.companyId}&type=number_silent&perPage=5`)).body.meta).toMatchObject({
      per_page: 5,
      total: 11,
      last_page: 3,
    });

    // The spec's `filters` object (spec 001 §7): a bracket object or a JSON text, with the flat parameters' keys.
    const inFilters = async (q: string) => {
      const r = await other.client.get(`/api/monitoring/alerts?company=${other.companyId}&${q}`);
      expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBe(200);
      return r.body.data.map((x: { subject: { label: string } }) => x.subject.label);
    };
    expect(await inFilters('filters[search]=line 7')).toEqual(['Line 7']);
    expect(await inFilters('filters[state]=dismissed,resolved')).toEqual([]);
    expect(await inFilters('filters[state][]=open&filters[type][]=number_silent&filters[search]=line 1')).toEqual(['Line 10', 'Line 1']);
    expect(await inFilters(`filters=${encodeURIComponent(JSON.stringify({ type: ['number_silent'], search: 'line 3' }))}`)).toEqual(['Line 3']);
    // A key in `filters` wins over the flat one.
    expect(await inFilters('search=line 2&filters[search]=line 4')).toEqual(['Line 4']);
    // An unknown key inside `filters`, or a bad value there, is refused rather than dropped.
    for (const q of ['filters[bogus]=1', 'filters[state]=bogus', 'filters[search][deep]=x', 'filters={not json']) {
      const r = await other.client.get(`/api/monitoring/alerts?company=${other.companyId}&${q}`);
      expect(r.status, q).toBe(422);
      expect(Object.keys(r.body.errors)[0], q).toMatch(/^filters/);
    }
  });

  it('keeps other companies out (403/404) and answers 422 for bad input', async () => {
    const mine = (await a.client.get(`/api/monitoring/alerts?company=${a.companyId}`)).body.data[0];
    expect((await other.client.get(`/api/monitoring/alerts/${mine.id}`)).status).toBe(404);
    expect((await other.client.put(`/api/monitoring/alerts/${mine.id}`, { state: 'resolved' })).status).toBe(404);
    expect((await other.client.get(`/api/monitoring/alerts/${mine.id}/history`)).status).toBe(404);
    expect((await other.client.get(`/api/monitoring/alerts?company=${a.companyId}`)).status).toBe(403);
    expect((await other.client.get(`/api/monitoring/alerts/counts?company=${a.companyId}`)).status).toBe(403);
    expect((await other.client.get(`/api/monitoring/settings?companyId=${a.companyId}`)).status).toBe(403);
    expect((await other.client.put('/api/monitoring/notification-preferences', { companyId: a.companyId, emailAlerts: true })).status).toBe(403);
    // A reporting member reads the thresholds but may not change them.
    const rs = await reader.client.get(`/api/monitoring/settings?companyId=${a.companyId}`);
    expect(rs.body.data).toMatchObject({ canEdit: false, emailAlerts: true });
    expect((await reader.client.put('/api/monitoring/settings', { companyId: a.companyId, monitors: rs.body.data.monitors })).status).toBe(403);

    for (const q of [
      '',
      'company=abc',
      `company=${a.companyId}&perPage=0`,
      `company=${a.companyId}&perPage=101`,
      `company=${a.companyId}&state=bogus`,
      `company=${a.companyId}&from=2026-02-30`,
    ]) {
      const r = await a.client.get(`/api/monitoring/alerts?${q}`);
      expect(r.status, q).toBe(422);
    }
    expect((await a.client.get('/api/monitoring/alerts/abc')).status).toBe(422);
    expect((await a.client.get('/api/monitoring/alerts/999999999')).status).toBe(404);
    expect((await a.client.put(`/api/monitoring/alerts/${mine.id}`, {})).status).toBe(422);
    expect((await a.client.put(`/api/monitoring/alerts/${mine.id}`, { state: 'closed' })).status).toBe(422);
    const badSettings = await a.client.put('/api/monitoring/settings', {
      companyId: a.companyId,
      monitors: { ...rs.body.data.monitors, missedCalls: { enabled: true, percent: 0, minCalls: 5 } },
    });
    expect(badSettings.status).toBe(422);
    expect(Object.keys(badSettings.body.errors)).toContain('monitors.missedCalls.percent');
  });
});

describe('call monitors and business units', () => {
  it('unanswered calls raise the missed-call alert; a silent number is found and resolved when it has calls again', async () => {
    const c = await createAccount(s, { firstName: 'Cora' });
    const settings = (await c.client.get(`/api/monitoring/settings?companyId=${c.companyId}`)).body.data.monitors;
    expect(
      (
        await c.client.put('/api/monitoring/settings', {
          companyId: c.companyId,
          monitors: { ...settings, missedCalls: { enabled: true, percent: 50, minCalls: 2 } },
        })
      ).status,
    ).toBe(200);
    const n = await buyTestNumber(c, '646', 0);
    // One unanswered call: below the 2-call minimum, no alert.
    const first = await c.client.post('/api/simulator/calls', { from: '+16465550101', to: n.number, forwards: {} });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await c.client.get(`/api/monitoring/alerts?company=${c.companyId}`)).body.data).toEqual([]);
    // A second one: 2 of 2 calls missed = 100 % ≥ 50 %.
    expect((await c.client.post('/api/simulator/calls', { from: '+16465550102', to: n.number, forwards: {} })).status).toBe(200);
    const raised = await eventually(async () => {
      const r = await c.client.get(`/api/monitoring/alerts?company=${c.companyId}&type=missed_calls`);
      return r.body.data[0];
    }, 15_000);
    expect(raised).toMatchObject({
      title: '100% of calls missed in the last hour',
      severity: 'critical',
      details: { total: 2, answered: 0, sharePercent: 100, minCalls: 2 },
    });

    // Eight days later the number had no call for 8 days (alert after 7).
    monitorTuning.silentEveryMs = 0;
    const later = new Date(Date.now() + 8 * 24 * 3600_000 + 60_000);
    await Promise.all([runMonitors(s.ctx, later), runMonitors(s2.ctx, later)]);
    const silent = (await c.client.get(`/api/monitoring/alerts?company=${c.companyId}&type=number_silent`)).body.data;
    expect(silent).toHaveLength(1);
    expect(silent[0]).toMatchObject({ subject: { type: 'number', id: `number:${n.id}` }, details: { numberId: n.id, days: 8, thresholdDays: 7 } });
    // Today the number had calls: the monitor resolves its alert.
    await runMonitors(s.ctx, new Date());
    monitorTuning.silentEveryMs = Number.MAX_SAFE_INTEGER;
    expect((await c.client.get(`/api/monitoring/alerts/${silent[0].id}`)).body.data.state).toBe('resolved');
  });

  it('lists a business unit’s alerts over its companies, narrowed by companyIds', async () => {
    const u1 = await createAccount(s, { firstName: 'Uma' });
    const u2 = await createAccount(s, { firstName: 'Ugo' });
    const org = await createOrganization(s.ctx, 'Unit', u1.userId);
    await s.ctx.db.updateTable('companies').set({ organization_id: org }).where('id', 'in', [u1.companyId, u2.companyId]).execute();
    await addCompanyMember(s.ctx, u2.companyId, u1.userId, 'administrator');
    for (const companyId of [u1.companyId, u2.companyId])
      await raiseAlert(s.ctx, {
        companyId,
        type: 'pool_exhausted',
        subjectType: 'pool',
        subjectId: 'pool:1',
        subjectLabel: 'Pool',
        title: `Pool of ${companyId}`,
        message: 'm',
        details: {},
      });
    const all = await u1.client.get(`/api/monitoring/alerts?businessUnitId=${org}`);
    expect(all.body.data.map((x: { companyId: number }) => x.companyId).sort()).toEqual([u1.companyId, u2.companyId].sort());
    const one = await u1.client.get(`/api/monitoring/alerts?businessUnitId=${org}&companyIds=${u2.companyId}`);
    expect(one.body.data.map((x: { companyId: number }) => x.companyId)).toEqual([u2.companyId]);
    expect((await u1.client.get(`/api/monitoring/alerts/counts?businessUnitId=${org}`)).body.data.open).toBe(2);
    // u2 belongs to one company of the unit: sees only that one, and may not name the other.
    expect((await u2.client.get(`/api/monitoring/alerts?businessUnitId=${org}`)).body.data.map((x: { companyId: number }) => x.companyId)).toEqual([
      u2.companyId,
    ]);
    expect((await u2.client.get(`/api/monitoring/alerts?businessUnitId=${org}&companyIds=${u1.companyId}`)).status).toBe(403);
    expect((await other.client.get(`/api/monitoring/alerts?businessUnitId=${org}`)).status).toBe(403);
  });
});
