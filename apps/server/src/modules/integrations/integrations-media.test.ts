/**
 * Deliveries carry the call's media (docs/integrations.md "Deliveries"; issue 24: Slack's message, HubSpot's call
 * engagement body, Salesforce's Task description, HighLevel's call message, ADF's comments): a recorded, transcribed
 * sandbox call reaches Slack and HubSpot (connected through the sandbox authorization server) only once its recording is
 * stored and its transcript complete, with a signed link to the recording that works without signing in and the
 * transcript's text; the delivery log shows the link with its signature redacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { providerSandbox } from './registry.js';

let s: TestServer;
let owner: Account;

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** Runs the sandbox consent flow of `provider` (redirect → Allow → callback). */
async function connect(provider: 'slackbot' | 'hubspot'): Promise<void> {
  const start =
    provider === 'slackbot'
      ? await owner.client.get(`/api/companies/${owner.companyId}/oauth-integrations/slackbot/redirect`)
      : await owner.client.post(`/api/companies/${owner.companyId}/oauth-integrations/${provider}/redirect`, {});
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const authorize = new URL(start.body.url);
  const approve = new URL('approve', authorize.href.replace(/authorize\?.*$/, ''));
  for (const [k, v] of authorize.searchParams) approve.searchParams.set(k, v);
  approve.searchParams.set('decision', 'allow');
  const back = await fetch(approve, { redirect: 'manual' });
  const done = await owner.client.request('GET', pathOf(back.headers.get('location')!), undefined, { accept: 'text/html' });
  expect(done.headers.get('location')).toMatch(/connected=\d+/);
}

const EVERY_CALL = {
  events: {
    anyCall: true,
    firstCall: false,
    qualifiedCall: false,
    minDurationS: null,
    outcomes: [],
    lead: false,
    missedCall: false,
    voicemail: false,
    text: false,
  },
  conversions: {},
  filters: { numberIds: [], poolIds: [], sources: [] },
  provider: {},
};

const SCRIPT = [
  { speaker: 'caller', text: 'Hello, I would like a quote for a kitchen remodel.' },
  { speaker: 'agent', text: 'Sure, the price is twelve thousand dollars.' },
];

describe('the call media in deliveries', () => {
  it('Slack and HubSpot get the signed recording link and the transcript of a recorded call', async () => {
    await connect('slackbot');
    const slack = await owner.client.put(`/api/companies/${owner.companyId}/oauth-integrations/slackbot/configure`, {
      config: { channelId: 'C0SALES' },
      settings: EVERY_CALL,
      backfillDays: 0,
    });
    expect(slack.status, JSON.stringify(slack.body)).toBe(200);
    await connect('hubspot');
    const hubspot = await owner.client.put(`/api/companies/${owner.companyId}/oauth-integrations/hubspot/activate`, {
      config: {},
      settings: EVERY_CALL,
      backfillDays: 0,
    });
    expect(hubspot.status, JSON.stringify(hubspot.body)).toBe(200);

    // A recorded number with transcription; the simulator's typed lines become the recording and its transcript.
    const found = await owner.client.get('/api/numbers/search?type=local&areaCode=415&limit=20');
    const pick = found.body.data[0];
    const n = (await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number })).body;
    const put = await owner.client.put(`/api/numbers/${n.id}`, {
      routes: [{ forwards: [{ number: '6465550101' }] }],
      record: true,
      call_transcription_enabled: true,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const sim = await owner.client.post('/api/simulator/calls', { from: '3125550142', to: n.number, script: SCRIPT });
    expect(sim.status, JSON.stringify(sim.body)).toBe(200);
    const callId = Number((await s.ctx.db.selectFrom('calls').select('id').where('carrier_sid', '=', sim.body.sid).executeTakeFirstOrThrow()).id);

    const sent = await eventually(async () => {
      const r = await owner.client.get(`/api/companies/${owner.companyId}/calls/${callId}/integration-deliveries`);
      const done = (r.body.data ?? []).filter((d: { state: string }) => d.state === 'delivered');
      return done.length === 2 ? done : null;
    }, 40_000);
    const transcript = await s.ctx.db.selectFrom('transcripts').select(['state', 'text']).where('call_id', '=', callId).executeTakeFirstOrThrow();
    expect(transcript.state).toBe('complete');
    expect(transcript.text).toContain('kitchen remodel');

    // The item frozen in each row: the signed link (recording stored) and the transcript.
    const rows = await s.ctx.db.selectFrom('ad_integration_deliveries').select(['item']).where('call_id', '=', callId).execute();
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      const call = (r.item as { call: { recordingUrl: string; transcript: string; summary: string | null } }).call;
      expect(call.recordingUrl).toMatch(/\/files\/.+\?expires=\d+&signature=[\w-]+$/);
      expect(call.transcript).toBe(transcript.text!.trim());
      expect(call.summary).toBeNull();
    }
    const link = (rows[0]!.item as { call: { recordingUrl: string } }).call.recordingUrl;
    const audio = await fetch(link); // no session: the signature is the access
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toContain('audio/wav');

    // Slack's message: the transcript's start and the recording link.
    const message = providerSandbox('slackbot')!
      .sent()
      .find((m) => JSON.stringify(m.body).includes(`/calls/${callId}`));
    const text = String((message!.body as { text: string }).text);
    expect(text).toContain('> ');
    expect(text).toContain('kitchen remodel');
    // (Each delivery signs its link when it is built: the two may expire a second apart.)
    const slackLink = /<(http[^|>]+)\|Listen to the recording>/.exec(text)?.[1];
    expect(slackLink?.split('?')[0]).toBe(link.split('?')[0]);
    expect(slackLink).toMatch(/\?expires=\d+&signature=[\w-]+$/);

    // HubSpot's call engagement: the body with the link and the transcript; the log hides the link's signature.
    const hs = sent.find((d: { provider: string }) => d.provider === 'hubspot');
    const create = hs.exchanges.find((e: { url: string; method: string }) => e.method === 'POST' && /\/crm\/objects\/[^/]+\/calls$/.test(e.url));
    const body = String(create.requestBody.properties.hs_call_body);
    expect(body).toContain('Transcript:\n');
    expect(body).toContain('twelve thousand dollars');
    expect(body).toMatch(/Recording: http\S+\/files\/\S+signature=\[redacted\]/);
    for (const r of rows) {
      const signature = (r.item as { call: { recordingUrl: string } }).call.recordingUrl.split('signature=')[1]!;
      expect(JSON.stringify(hs.exchanges)).not.toContain(signature);
    }
  }, 90_000);
});
