/**
 * The demo's call history (seed/demo-history.ts) and the calls module's `importCallHistory`
 * (modules/calls/call-history.ts): sixty days of past calls that the dashboard shows for the last 30 days and the
 * 30 before, stored like finished calls, and announced as history: no e-mail, alert, inbox thread, tracking
 * attribution, usage or webhook.
 */
import { CALL_STATUS } from '@switchboard/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, eventually, startTestServer, type TestServer } from '../../test/harness.js';
import { importCallHistory } from '../modules/calls/call-history.js';
import { updateNumber } from '../modules/numbers/numbers.service.js';
import { runMonitors } from '../modules/alerts/alerts.monitors.js';
import { flushFactRebuilds } from '../modules/analytics/analytics.facts.js';
import { ValidationError } from '../platform/http/errors.js';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from './demo.js';
import { demoHistory, HISTORY_DAYS } from './demo-history.js';

let s: TestServer;
let demo: ApiClient;
let companyId: number;
let seedMs = 0;

beforeAll(async () => {
  s = await startTestServer();
  const t0 = performance.now();
  await seedDemo(s.ctx);
  seedMs = performance.now() - t0;
  demo = new ApiClient(s.url);
  const me = await demo.signIn(DEMO_EMAIL, DEMO_PASSWORD);
  companyId = me.companies?.[0]?.id ?? (await demo.get('/api/companies')).body.data[0].id;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const day = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(d);

describe('demo call history', () => {
  it('spreads 250-350 past calls over at least 50 of the last 60 days, on the main line and the hotline only', async () => {
    console.log(`demo seed took ${seedMs.toFixed(0)} ms`);
    const calls = await s.ctx.db.selectFrom('calls').selectAll().where('company_id', '=', companyId).where('carrier_sid', 'like', 'HI%').execute();
    expect(calls.length).toBeGreaterThanOrEqual(250);
    expect(calls.length).toBeLessThanOrEqual(350);
    const since = Date.now() - HISTORY_DAYS * 86_400_000 - 86_400_000;
    expect(calls.every((c) => c.started_at.getTime() >= since && c.started_at.getTime() < Date.now())).toBe(true);
    expect(new Set(calls.map((c) => day(c.started_at))).size).toBeGreaterThanOrEqual(50);
    const numbers = await s.ctx.db.selectFrom('numbers').select(['id', 'label']).where('company_id', '=', companyId).execute();
    const labelOf = new Map(numbers.map((n) => [n.id, n.label]));
    expect(new Set(calls.map((c) => labelOf.get(c.number_id)))).toEqual(new Set(['Main line', 'Support hotline']));
    // Finished like real calls: final statuses, end times, answered calls with answer times and forwards.
    const statuses = new Set(calls.map((c) => c.status));
    expect(statuses).toEqual(new Set([CALL_STATUS.CONNECTED, CALL_STATUS.HANGUP, CALL_STATUS.VOICEMAIL]));
    expect(calls.every((c) => c.ended_at !== null && c.direction === 'inbound')).toBe(true);
    expect(calls.filter((c) => c.status === CALL_STATUS.CONNECTED).every((c) => c.answered_at !== null && c.forwarded_to !== null)).toBe(true);
    // The demo contacts call again, matched to their contact.
    expect(calls.filter((c) => c.contact_id !== null).length).toBeGreaterThan(5);
    // Business hours in New York: most calls between 08:00 and 18:00, spread over the day.
    const hours = calls.map((c) =>
      Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: '2-digit', hourCycle: 'h23' }).format(c.started_at)),
    );
    expect(hours.filter((h) => h >= 8 && h < 18).length / hours.length).toBeGreaterThan(0.85);
    expect(new Set(hours).size).toBeGreaterThanOrEqual(10);
  });

  it('shows on the dashboard: the last 30 days and the 30 before, answered, missed and voicemails', async () => {
    await flushFactRebuilds(s.ctx);
    const k = await eventually(async () => {
      const r = await demo.get(`/api/dashboard?company_id=${companyId}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data.kpis.totalCalls.previous > 100 ? r.body.data : null;
    });
    for (const name of ['totalCalls', 'answered', 'missed', 'voicemails', 'firstTimeCallers'] as const) {
      expect(k.kpis[name].value, name).toBeGreaterThan(0);
      expect(k.kpis[name].previous, name).toBeGreaterThan(0);
    }
    expect(k.kpis.totalCalls.value).toBeGreaterThan(100);
    expect(k.kpis.firstTimeCallers.value).toBeLessThan(k.kpis.totalCalls.value);
    expect(k.kpis.avgDurationS.value).toBeGreaterThan(20);
    expect(k.series.filter((p: { calls: number }) => p.calls > 0).length).toBeGreaterThanOrEqual(20);
    const kpi = await demo.get(`/api/companies/${companyId}/calls/kpi`);
    expect(kpi.status, JSON.stringify(kpi.body)).toBe(200);
    expect(kpi.body.data.kpis.totalCalls.previous).toBeGreaterThan(0);
  });

  it('is history: no e-mail, alert, inbox thread, tracking attribution, usage or webhook', async () => {
    const ids = (await s.ctx.db.selectFrom('calls').select('id').where('carrier_sid', 'like', 'HI%').execute()).map((r) => r.id);
    const count = async (table: 'conversation_items' | 'dni_call_attributions', col: 'call_id') =>
      (await s.ctx.db.selectFrom(table).select(col).where(col, 'in', ids).execute()).length;
    expect(await count('conversation_items', 'call_id')).toBe(0);
    expect(await count('dni_call_attributions', 'call_id')).toBe(0);
    const usage = await s.ctx.db
      .selectFrom('billing_usage')
      .select('source')
      .where(
        'source',
        'in',
        ids.map((id) => `call:${id}`),
      )
      .execute();
    expect(usage).toHaveLength(0);
    // Today's live voicemail is unread; the history's older voicemails are read (no inbox flood).
    const unread = await s.ctx.db.selectFrom('voicemails').select('id').where('company_id', '=', companyId).where('is_read', '=', false).execute();
    expect(unread.length).toBeLessThan(10);
  });

  it('imports past calls without a voicemail e-mail or alert even when both are switched on', async () => {
    // Alert e-mails for the demo user, and a voicemail e-mail address on the hotline.
    expect((await demo.put('/api/monitoring/notification-preferences', { companyId, emailAlerts: true })).status).toBe(200);
    const hotline = await s.ctx.db
      .selectFrom('numbers')
      .select(['id', 'label'])
      .where('company_id', '=', companyId)
      .where('label', '=', 'Support hotline')
      .executeTakeFirstOrThrow();
    const owner = (await s.ctx.db.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirstOrThrow()).id;
    await updateNumber(s.ctx, owner, hotline.id, {
      routes: [
        {
          extension: 1,
          label: 'Support desk',
          type: 'standard',
          forwards: [{ number: '+12125550131' }],
          voicemail_enabled: true,
          email_alert_address: 'desk@acme.example',
        },
      ],
    });
    const mailsBefore = (await s.ctx.db.selectFrom('mail_outbox').select('id').execute()).length;
    const alertsBefore = (await s.ctx.db.selectFrom('alerts').select('id').where('company_id', '=', companyId).execute()).length;
    const at = new Date(Date.now() - 6 * 3600_000);
    const { callIds } = await importCallHistory(
      s.ctx,
      companyId,
      Array.from({ length: 6 }, (_, i) => ({
        numberId: hotline.id,
        from: `+1718555019${i}`,
        startedAt: new Date(at.getTime() + i * 60_000),
        outcome: i % 2 === 0 ? ('voicemail' as const) : ('missed' as const),
        ringSeconds: 20,
        voicemail: { durationS: 12, isRead: false },
      })),
    );
    expect(callIds).toHaveLength(6);
    const vm = await s.ctx.db.selectFrom('calls').selectAll().where('id', '=', callIds[0]!).executeTakeFirstOrThrow();
    expect(vm).toMatchObject({ status: CALL_STATUS.VOICEMAIL, duration_s: 20 + 4 + 12, answered_at: null });
    const events = await s.ctx.db.selectFrom('call_events').selectAll().where('call_id', '=', vm.id).orderBy('id').execute();
    expect(events.map((e) => e.status)).toEqual([1, 1, 1, 1, 4, 4]);
    expect(events[4]!.detail).toMatchObject({ voicemail_id: expect.any(Number), duration_s: 12 });
    expect(events.at(-1)!.created_at.getTime()).toBe(vm.ended_at!.getTime());
    // The monitors run (unanswered voicemails, missed calls): nothing about history.
    await runMonitors(s.ctx, new Date());
    await flushFactRebuilds(s.ctx);
    expect((await s.ctx.db.selectFrom('alerts').select('id').where('company_id', '=', companyId).execute()).length).toBe(alertsBefore);
    expect((await s.ctx.db.selectFrom('mail_outbox').select('id').execute()).length).toBe(mailsBefore);
    const fact = await s.ctx.db.selectFrom('call_facts').selectAll().where('call_id', '=', vm.id).executeTakeFirst();
    expect(fact).toMatchObject({ answer_status: 3 });
  });

  it('refuses bad input and numbers of another company', async () => {
    const numberId = (await s.ctx.db.selectFrom('calls').select('number_id').where('company_id', '=', companyId).limit(1).executeTakeFirstOrThrow()).number_id;
    await expect(
      importCallHistory(s.ctx, companyId, [{ numberId, from: '555', startedAt: new Date(Date.now() + 60_000), outcome: 'answered', ringSeconds: 5 }]),
    ).rejects.toMatchObject({
      status: 422,
      errors: { 'calls.0.from': expect.any(Array), 'calls.0.startedAt': expect.any(Array), 'calls.0.talkSeconds': expect.any(Array) },
    });
    await expect(
      importCallHistory(s.ctx, companyId + 999, [{ numberId, from: '+12125550100', startedAt: new Date(0), outcome: 'missed', ringSeconds: 5 }]),
    ).rejects.toMatchObject({ status: 404 });
    expect(ValidationError).toBeDefined();
  });

  it('is deterministic relative to the local day', () => {
    const now = new Date('2026-03-10T15:00:00Z');
    const a = demoHistory(now, { main: 1, hotline: 2 }, ['+13125550147']);
    const b = demoHistory(new Date('2026-03-10T20:00:00Z'), { main: 1, hotline: 2 }, ['+13125550147']);
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(200);
  });
});
