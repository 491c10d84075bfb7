/**
 * bench/campaign-dispatch (bench/README.md): a 100,000-recipient campaign through the job queue to
 * the sandbox carrier with no rate limit, messages per second printed beside a baseline measured in
 * the same run. Nothing is asserted.
 *
 * One run:
 *  1. A throwaway embedded PostgreSQL (temp dir) and the real server on it (`startServer`:
 *     migrations, app, realtime, queue workers; sandbox carrier; WORKERS=1; LOG_LEVEL silent).
 *  2. Setup by SQL: a user, a company (quiet hours "00:00"–"00:00" = none; the campaign clock reads
 *     about 12:00 New York time, inside the legal sending window, whatever the wall clock), BENCH_RECIPIENTS contacts in one group; a number bought through the
 *     numbers service; the company's campaign rate set to 0 (unlimited).
 *  3. Baseline: a plain INSERT of the same number of rows (number, body, state) from this process in
 *     multi-row statements of 500 — the floor cost of writing one ledger row per message.
 *  4. The campaign is created through the campaigns service (state queued, a merge field, the
 *     unsubscribe text, skip_inbox from BENCH_SKIP_INBOX, default 0 = the message lands in the inbox
 *     too) and the clock runs until its state is `sent` (every recipient handed to the carrier).
 *     Printed: recipients resolved (s), dispatch time, messages/s end to end and dispatch-only, the
 *     baseline rows/s and the ratio. With BENCH_WAIT_DELIVERED=1 it also waits for every delivery
 *     callback and prints that rate.
 *
 * Usage: `cd bench && npm run bench:campaign-dispatch` (or `npx tsx campaign-dispatch/run.ts`).
 * Knobs: BENCH_RECIPIENTS (100000), BENCH_SKIP_INBOX (0), BENCH_WAIT_DELIVERED (0).
 */
import os from 'node:os';
import { fmt, sleep, startBenchServer, tempDir } from '../lib/bench-server.js';

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 && process.env[name] !== undefined && process.env[name] !== '' ? v : fallback;
};

async function main(): Promise<void> {
  const N = env('BENCH_RECIPIENTS', 100_000);
  const skipInbox = env('BENCH_SKIP_INBOX', 0) === 1;
  const waitDelivered = env('BENCH_WAIT_DELIVERED', 0) === 1;
  const [campaigns, numbers] = await Promise.all([
    import('../../apps/server/src/modules/campaigns/campaigns.service.js'),
    import('../../apps/server/src/modules/numbers/numbers.service.js'),
  ]);

  // The legal quiet-hours table (docs/quiet-hours.md) holds messages to New York numbers at night
  // whatever the company's own window: run the campaign clock at about 12:00 New York time.
  const [h, m] = new Date()
    .toLocaleTimeString('en-US', { timeZone: 'America/New_York', hourCycle: 'h23', hour: '2-digit', minute: '2-digit' })
    .split(':')
    .map(Number) as [number, number];
  const shift = (12 * 60 - (h * 60 + m)) * 60_000;
  campaigns.campaignRuntime.now = () => new Date(Date.now() + shift);

  const { server, client, stop } = await startBenchServer(tempDir('bench-campaign-'), tempDir('bench-campaign-pg-'));
  try {
    console.log(
      `campaign-dispatch: ${fmt(N)} recipients, skip_inbox=${skipInbox}, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    const user = await client.query<{ id: number }>(
      `insert into users (email, first_name, last_name, password_hash, timezone) values ('bench@example.test', 'Bench', 'User', 'x', 'America/New_York') returning id`,
    );
    const userId = Number(user.rows[0]!.id);
    const company = await client.query<{ id: number }>(
      `insert into companies (name, timezone, quiet_hours_start, quiet_hours_end) values ('Bench Co', 'America/New_York', '00:00', '00:00') returning id`,
    );
    const companyId = Number(company.rows[0]!.id);
    await client.query(`insert into company_users (company_id, user_id, role) values ($1, $2, 'owner')`, [companyId, userId]);
    const number = await numbers.purchaseIntoCompany(server.ctx, companyId, 'America/New_York', '+12125550100', 1);
    await client.query(
      `insert into contacts (company_id, name, first_name, last_name, number, email)
      select $1, 'Person' || i || ' Bench', 'Person' || i, 'Bench', '+1212' || (2000000 + i)::text, 'p' || i || '@example.test' from generate_series(1, $2::int) i`,
      [companyId, N],
    );
    const group = await client.query<{ id: number }>(`insert into contact_groups (company_id, name) values ($1, 'Everyone') returning id`, [companyId]);
    const groupId = Number(group.rows[0]!.id);
    await client.query(`insert into contact_group_members (group_id, contact_id) select $1, id from contacts where company_id = $2`, [groupId, companyId]);
    await client.query('vacuum analyze');
    await campaigns.setCompanyCampaignRate(server.ctx, companyId, 0);

    // Baseline: a plain INSERT of N rows in statements of 500.
    await client.query('create table bench_baseline (id bigserial primary key, number text not null, body text not null, state text not null)');
    const t0 = performance.now();
    for (let i = 0; i < N; i += 500) {
      const n = Math.min(500, N - i);
      const nums = Array.from({ length: n }, (_, k) => `+1212${2000000 + i + k}`);
      await client.query(
        `insert into bench_baseline (number, body, state) select unnest($1::text[]), 'Hi there, bench' || chr(10) || 'Reply STOP to stop', 'sent'`,
        [nums],
      );
    }
    const baselineS = (performance.now() - t0) / 1000;
    const baselineRate = N / baselineS;

    const start = performance.now();
    const created = await campaigns.createCampaign(
      server.ctx,
      userId,
      {
        company_id: companyId,
        title: 'Bench',
        text: 'Hi %%firstname%%, bench',
        unsubscribe_text: 'Reply STOP to stop',
        groups: [groupId],
        number_id: number.id,
        state: 'queued',
        skip_inbox: skipInbox,
      },
      [],
    );
    let sendingAt: number | null = null;
    let lastLog = start;
    for (;;) {
      const r = await client.query<{ state: string; started: boolean }>('select state, started from campaigns where id = $1', [created.id]);
      const row = r.rows[0]!;
      if (row.state === 'sending' && sendingAt === null) sendingAt = performance.now();
      if (row.state === 'sent' || row.state === 'failed') {
        if (sendingAt === null) sendingAt = performance.now();
        break;
      }
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        const c = await client.query<{ n: number }>(`select count(*)::int as n from campaign_recipients where campaign_id = $1 and carrier_sid is not null`, [
          created.id,
        ]);
        console.log(`  … ${fmt(c.rows[0]!.n)} handed to the carrier after ${((lastLog - start) / 1000).toFixed(1)} s (load ${os.loadavg()[0]!.toFixed(2)})`);
      }
      await sleep(50);
    }
    const end = performance.now();
    const handed = await client.query<{ n: number; m: number }>(
      `select count(*) filter (where carrier_sid is not null)::int as n, (select count(*)::int from sandbox_messages where direction = 'outbound') as m from campaign_recipients where campaign_id = $1`,
      [created.id],
    );
    const totalS = (end - start) / 1000;
    const dispatchS = (end - (sendingAt ?? start)) / 1000;
    const rate = handed.rows[0]!.n / totalS;
    console.log('');
    console.log(`  recipients resolved (start job)     ${((sendingAt! - start) / 1000).toFixed(2)} s`);
    console.log(`  dispatch                            ${dispatchS.toFixed(2)} s`);
    console.log(`  messages handed to the carrier      ${fmt(handed.rows[0]!.n)} (sandbox holds ${fmt(handed.rows[0]!.m)})`);
    console.log(`  campaign end to end                 ${fmt(rate)} messages/s   (target ≥ 2,000/s: ${rate >= 2000 ? 'PASS' : 'MISS'})`);
    console.log(`  dispatch only                       ${fmt(handed.rows[0]!.n / dispatchS)} messages/s`);
    console.log(`  baseline: plain INSERT of ${fmt(N)} rows ${fmt(baselineRate)} rows/s (${baselineS.toFixed(2)} s)`);
    console.log(`  ratio campaign ÷ baseline           ${(rate / baselineRate).toFixed(3)}`);
    console.log(
      `  load average at the end             ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    if (waitDelivered) {
      for (;;) {
        const r = await client.query<{ n: number }>(
          `select count(*)::int as n from campaign_recipients where campaign_id = $1 and state in ('delivered', 'undelivered')`,
          [created.id],
        );
        if (r.rows[0]!.n >= handed.rows[0]!.n) break;
        await sleep(500);
      }
      const deliveredS = (performance.now() - start) / 1000;
      console.log(`  all delivery callbacks applied      ${deliveredS.toFixed(1)} s (${fmt(handed.rows[0]!.n / deliveredS)} messages/s to delivered)`);
    }
  } finally {
    await stop();
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
