/**
 * The demo account seeded once on first start (docs/architecture.md, README "Demo account"): an organization with
 * a demo company, an owner who signs in with `DEMO_EMAIL` / `DEMO_PASSWORD`, two purchased numbers
 * with routing (a two-extension menu with business hours, and a simple forward), a few contacts,
 * sixty days of past calls on those two numbers (demo-history.ts: deterministic, about 275 calls,
 * recorded with the calls module's `importCallHistory` as history, so they send no e-mails,
 * alerts, webhooks or usage and open no inbox threads; only the dashboard and reports take them
 * in), and today's calls and messages produced by driving the sandbox carrier through the real
 * webhooks, plus call tracking (demo-tracking.ts) and a 10DLC registration.
 * Idempotent: does nothing when the demo user exists.
 */
import { applyPreset } from '@switchboard/domain';
import type { AppContext } from '../context.js';
import { simulateCall, simulateMessage } from '../carriers/sandbox/sandbox.simulator.js';
import { createCompany, createOrganization } from '../modules/companies/companies.service.js';
import { createContact } from '../modules/contacts/contacts.service.js';
import { sendMessage } from '../modules/messaging/messaging.service.js';
import { buyNumber, searchNumbers, updateNumber } from '../modules/numbers/numbers.service.js';
import { addNumbers, createCampaign, submitCampaign } from '../modules/sms-verification/sms-verification.service.js';
import { createUser, findUserByEmail } from '../modules/users/users.service.js';
import { seedDemoHistory } from './demo-history.js';
import { seedDemoTracking } from './demo-tracking.js';

export const DEMO_EMAIL = 'demo@switchboard.local';
export const DEMO_PASSWORD = 'demo-password-2026';
const TZ = 'America/New_York';

/** Outside parties of the demo history (valid NANP numbers the sandbox simulator calls from). */
const CUSTOMERS = [
  { name: 'Maria Lopez', number: '+13125550147', email: 'maria.lopez@example.com' },
  { name: 'James Carter', number: '+14155550198', email: 'james@carter-plumbing.example' },
  { name: 'Priya Shah', number: '+16175550123', email: null },
];

export async function seedDemo(ctx: AppContext): Promise<{ email: string; password: string; created: boolean }> {
  if (await findUserByEmail(ctx, DEMO_EMAIL)) return { email: DEMO_EMAIL, password: DEMO_PASSWORD, created: false };

  const { userId, companyId } = await ctx.db.transaction().execute(async (tx) => {
    const userId = await createUser(ctx, { email: DEMO_EMAIL, password: DEMO_PASSWORD, firstName: 'Dana', lastName: 'Demo', timezone: TZ }, tx);
    const organizationId = await createOrganization(ctx, 'Demo Holdings', userId, tx);
    const companyId = await createCompany(ctx, { name: 'Acme Plumbing', timezone: TZ, organizationId }, userId, tx);
    for (const c of CUSTOMERS) await createContact(ctx, companyId, c, tx);
    return { userId, companyId };
  });

  const [local] = await searchNumbers(ctx, { type: 'local', areaCode: '212', mode: 'contains', limit: 1 });
  const [tollFree] = await searchNumbers(ctx, { type: 'toll_free', prefix: '888', mode: 'contains', limit: 1 });
  if (!local || !tollFree) return { email: DEMO_EMAIL, password: DEMO_PASSWORD, created: true };
  const main = await buyNumber(ctx, userId, { company_id: companyId, provider_id: local.provider_id, number: local.number });
  const support = await buyNumber(ctx, userId, { company_id: companyId, provider_id: tollFree.provider_id, number: tollFree.number });

  await updateNumber(ctx, userId, main.id, {
    label: 'Main line',
    schedule: { ...applyPreset(6, TZ) },
    routes: [
      {
        extension: 1,
        label: 'Sales',
        type: 'simultaneous',
        forwards: [{ number: '+12125550111' }, { number: '+12125550112' }],
        voicemail_enabled: true,
        timeout: 20,
      },
      {
        extension: 2,
        label: 'Service',
        type: 'sequential',
        forwards: [{ number: '+12125550121' }, { number: '+12125550122' }],
        voicemail_enabled: true,
        timeout: 15,
      },
    ],
  });
  await updateNumber(ctx, userId, support.id, {
    label: 'Support hotline',
    routes: [{ extension: 1, label: 'Support desk', type: 'standard', forwards: [{ number: '+12125550131' }], voicemail_enabled: true }],
  });

  // Sixty days of past calls, recorded as history (no notifications; seed/demo-history.ts), before today's live calls.
  await seedDemoHistory(ctx, { companyId, mainId: main.id, hotlineId: support.id, contacts: CUSTOMERS.map((c) => c.number) });

  if (ctx.carrier.capabilities.simulator) {
    // Today's calls and messages through the real webhooks, as the carrier would produce them.
    const [maria, james, priya] = CUSTOMERS as [(typeof CUSTOMERS)[number], (typeof CUSTOMERS)[number], (typeof CUSTOMERS)[number]];
    await simulateCall(ctx, { from: james.number, to: support.number, forwards: { '+12125550131': 'answer' }, talk_seconds: 95 });
    await simulateCall(ctx, { from: priya.number, to: support.number, forwards: { '+12125550131': 'no-answer' }, voicemail_seconds: 6 });
    await simulateMessage(ctx, { from: maria.number, to: main.number, body: 'Hi! Can someone come look at a leaking water heater this week?' });
    await sendMessage(
      ctx,
      userId,
      { company_id: companyId, number_id: main.id, to: maria.number, content: 'Hi Maria, we can come Thursday between 9 and 11am. Does that work?' },
      [],
    );
    await simulateMessage(ctx, { from: james.number, to: support.number, body: 'Thanks for the quick fix yesterday!' });
  }
  await seedDemoTracking(ctx, { userId, companyId, main });
  await seedDemoSmsVerification(ctx, companyId, [main.id, support.id]);
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, created: true };
}

/**
 * The demo company's 10DLC registration (docs/sms-verification.md): a complete brand and campaign with both demo
 * numbers, submitted through the configured registry like a person would. With the sandbox registry the brand is
 * verified and both sides approved within about a minute of the first start; until then campaigns from the numbers
 * are refused as for any company (inbox replies are not).
 */
async function seedDemoSmsVerification(ctx: AppContext, companyId: number, numberIds: number[]): Promise<void> {
  const draft = await createCampaign(ctx, companyId, {
    brand: {
      company_type: 'PRIVATE_PROFIT',
      legal_name: 'Acme Plumbing LLC',
      dba_name: 'Acme Plumbing',
      tax_id: '12-3456788',
      vertical: 'CONSTRUCTION',
      website: 'https://acmeplumbing.example',
      email: 'office@acmeplumbing.example',
      phone: '+12125550100',
      street: '350 5th Ave',
      city: 'New York',
      state: 'NY',
      postal_code: '10118',
      country: 'US',
      contact_first_name: 'Dana',
      contact_last_name: 'Demo',
    },
    campaign: {
      use_case: 'MARKETING',
      sub_usecases: ['CUSTOMER_CARE'],
      description: 'Acme Plumbing texts customers about their appointments, estimates and seasonal maintenance offers they asked for.',
      message_volume: '10_000',
      sample_messages: [
        'Acme Plumbing: your technician arrives Thursday between 9 and 11am. Reply STOP to opt out.',
        'Acme Plumbing: book your water-heater check this month and save 10%. Reply STOP to opt out.',
      ],
      optins: [{ method: 'OTHER', description: 'Customers tick "I agree to receive text messages from Acme Plumbing" on the booking form.' }],
      opt_out_message: 'You are unsubscribed from Acme Plumbing texts. Reply START to resubscribe.',
      help_message: 'Acme Plumbing: call (212) 555-0100 for help. Reply STOP to opt out.',
    },
  });
  await addNumbers(ctx, companyId, draft.id, numberIds);
  await submitCampaign(ctx, companyId, draft.id);
}
