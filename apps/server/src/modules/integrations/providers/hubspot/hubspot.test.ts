/**
 * HubSpot adapter against a local stand-in of the 2026-09 CRM APIs (its sandbox over HTTP): custom properties created
 * when missing, contact upsert by phone/e-mail, the exact call engagement (ms duration, disposition GUID, association
 * 194), one engagement per call across retries and outcome updates, 429 with HubSpot's headers, expired token → reconnect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedError, ReconnectNeededError } from '../provider.js';
import { sampleItem, startStandIn, testConnection, type StandIn } from '../metaads/standin-http.js';
import { DISPOSITIONS, hubSpotAdapter as adapter } from './hubspot.adapter.js';
import { hubSpotSandbox } from './hubspot.sandbox.js';

describe('HubSpot adapter', () => {
  const sandbox = hubSpotSandbox();
  let standIn: StandIn;
  let next: Response | null = null;
  beforeAll(async () => {
    standIn = await startStandIn(sandbox, () => {
      const r = next;
      next = null;
      return r ?? undefined;
    });
  });
  afterAll(() => standIn.close());
  const conn = (over: Parameters<typeof testConnection>[2] = {}) => testConnection('hubspot', standIn.baseUrl, over);
  const bodies = (pathStart: string, method = 'POST') =>
    standIn.requests.filter((r) => r.method === method && r.path === pathStart).map((r) => JSON.parse(r.body) as Record<string, unknown>);

  it('creates its properties when missing, upserts the contact and logs the call exactly as documented', async () => {
    const item = sampleItem();
    const answer = await adapter.deliver(conn(), [item]);
    expect(answer.items[0]).toMatchObject({ deliveryKey: item.deliveryKey, result: 'delivered' });
    expect(answer.items[0]!.providerRef).toMatch(/^call:\d+$/);
    // The first write was refused (PROPERTY_DOESNT_EXIST), the properties were created in their group, then retried.
    const created = bodies('/crm/properties/2026-09/contacts/batch/create')[0]!.inputs as Array<{ name: string; groupName: string }>;
    expect(created.map((p) => p.name)).toContain('switchboard_source');
    expect(bodies('/crm/properties/2026-09/calls/batch/create')[0]!.inputs).toContainEqual(
      expect.objectContaining({ name: 'switchboard_call_id', hasUniqueValue: true }),
    );
    expect(bodies('/crm/objects/2026-09/contacts/search').at(-1)).toEqual({
      filterGroups: [
        { filters: [{ propertyName: 'phone', operator: 'EQ', value: '+15550102030' }] },
        { filters: [{ propertyName: 'email', operator: 'EQ', value: 'jane.oneil@example.com' }] },
      ],
      properties: ['email', 'phone'],
      limit: 1,
    });
    expect(bodies('/crm/objects/2026-09/contacts').at(-1)!.properties).toEqual({
      phone: '+15550102030',
      email: 'jane.oneil@example.com',
      firstname: 'Jane',
      lastname: "O'Neil",
      switchboard_source: 'facebook',
      switchboard_medium: 'cpc',
      switchboard_campaign: 'spring-sale',
      switchboard_landing_page: 'https://dealer.example.com/suv',
      switchboard_tracking_number: '+15550009999',
    });
    const call = bodies('/crm/objects/2026-09/calls').at(-1)!;
    expect(call.properties).toEqual({
      hs_timestamp: '2026-11-29T14:05:00.000Z',
      hs_call_title: 'Inbound call from +15550102030 (Meta – Spring sale)',
      hs_call_body:
        'Summary: Asked about the blue SUV; booked a test drive for Saturday.\nCall: https://app.example.com/calls/4242\nSource: facebook / cpc / spring-sale\nRecording: https://app.example.com/files/recordings/4242.mp3?sig=abc\nTranscript:\nCaller: Hi, is the blue SUV still available? Agent: Yes, it is.',
      hs_call_direction: 'INBOUND',
      hs_call_duration: '95000',
      hs_call_disposition: DISPOSITIONS.connected,
      hs_call_status: 'COMPLETED',
      hs_call_from_number: '+15550102030',
      hs_call_to_number: '+15550009999',
      hs_call_recording_url: 'https://app.example.com/files/recordings/4242.mp3?sig=abc',
      switchboard_call_id: '4242',
      switchboard_department: 'sales',
      switchboard_source: 'facebook',
      switchboard_campaign: 'spring-sale',
      switchboard_value: '50',
    });
    expect(call.associations).toEqual([{ to: { id: expect.any(String) }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 194 }] }]);
  });

  it('keeps one engagement per call: a retry and an outcome set later update it', async () => {
    const item = sampleItem();
    expect(adapter.dedupKey(item)).toBe('switchboard_call_id=4242');
    const again = await adapter.deliver(conn(), [item]);
    expect(again.items[0]!.message).toBe('Updated the call already logged.');
    const outcome = sampleItem({
      kind: 'outcome',
      deliveryKey: '9:outcome:4242',
      call: { outcome: 'appt_booked' },
      conversion: { name: 'Appointment', valueCents: 20000, currency: 'USD' },
    });
    const answer = await adapter.deliver(conn(), [outcome]);
    expect(answer.items[0]!.providerRef).toBe(again.items[0]!.providerRef);
    const patch = standIn.requests.filter((r) => r.method === 'PATCH' && r.path.startsWith('/crm/objects/2026-09/calls/')).at(-1)!;
    expect(JSON.parse(patch.body).properties).toMatchObject({ switchboard_outcome: 'appt_booked', switchboard_value: '200' });
    expect(sandbox.sent().filter((s) => s.summary.startsWith('Call logged'))).toHaveLength(1);
    expect(sandbox.sent().filter((s) => s.summary.startsWith('Contact created'))).toHaveLength(1);
  });

  it('logs a missed call with the no-answer outcome and 0 ms', async () => {
    const missed = sampleItem({
      kind: 'missed-call',
      deliveryKey: '9:missed-call:99',
      call: { id: 99, answered: false, status: 'missed', durationS: 0, recordingUrl: null },
    });
    await adapter.deliver(conn(), [missed]);
    expect(bodies('/crm/objects/2026-09/calls').at(-1)!.properties).toMatchObject({
      hs_call_duration: '0',
      hs_call_disposition: DISPOSITIONS.noAnswer,
      hs_call_status: 'MISSED',
    });
  });

  it('honours 429 with HubSpot headers and maps an expired token to reconnect', async () => {
    next = Response.json(
      { status: 'error', message: 'You have reached your ten_secondly_rolling limit.', errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' },
      { status: 429, headers: { 'x-hubspot-ratelimit-interval-milliseconds': '10000', 'x-hubspot-ratelimit-remaining': '0' } },
    );
    const err = await adapter.deliver(conn(), [sampleItem()]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(10_000);
    next = Response.json({ status: 'error', errorType: 'RATE_LIMIT', policyName: 'SECONDLY' }, { status: 429, headers: { 'retry-after': '2' } });
    expect(((await adapter.deliver(conn(), [sampleItem()]).catch((e: unknown) => e)) as RateLimitedError).retryAfterMs).toBe(2000);
    await expect(adapter.deliver(conn({ accessToken: 'CJSx-expired' }), [sampleItem()])).rejects.toBeInstanceOf(ReconnectNeededError);
  });

  it('identifies the portal and verifies the properties', async () => {
    expect(await adapter.identify(conn(), null)).toEqual({ externalAccountId: '24681357', accountName: 'app.hubspot.com', config: { portalId: '24681357' } });
    expect(await adapter.verify(conn(), sampleItem())).toBe('The Switchboard properties are in place.');
    expect(adapter.oauth!.tokenEndpoint).toBe('https://api.hubapi.com/oauth/2026-03/token');
  });
});
