/**
 * Salesforce adapter against a local stand-in of the REST API v68.0 (its sandbox over HTTP): Lead upsert by phone or
 * e-mail with LeadSource and attribution, the call Task (subtype Call, CallType, CallDurationInSeconds, CallDisposition,
 * CallObject) updated in place on retry and when the outcome is set later, instance URL from the token answer,
 * INVALID_SESSION_ID → reconnect, REQUEST_LIMIT_EXCEEDED honoured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedError, ReconnectNeededError } from '../provider.js';
import { sampleItem, startStandIn, testConnection, type StandIn } from '../metaads/standin-http.js';
import { salesforceAdapter as adapter, soqlString } from './salesforce.adapter.js';
import { salesforceSandbox } from './salesforce.sandbox.js';

describe('Salesforce adapter', () => {
  const sandbox = salesforceSandbox();
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
  const conn = (over: Parameters<typeof testConnection>[2] = {}) => testConnection('salesforce', standIn.baseUrl, over);
  const last = (method: string, path: string) => standIn.requests.filter((r) => r.method === method && r.path === path).at(-1)!;
  const withFields = sampleItem().settings;
  const settings = {
    ...withFields,
    provider: { leadSource: 'Call Tracking', company: 'Unknown (caller)', leadFields: { campaign: 'UTM_Campaign__c', 'bad name;': 'x' } },
  };

  it('upserts the Lead and logs a Task of subtype Call as documented', async () => {
    const item = sampleItem({ settings: { ...settings, provider: { leadSource: 'Call Tracking', company: 'Unknown (caller)' } } });
    const answer = await adapter.deliver(conn(), [item]);
    expect(answer.items[0]).toMatchObject({ result: 'delivered', providerRef: expect.stringMatching(/^Task\/00T/) });
    const q = standIn.requests.find((r) => r.path.startsWith('/services/data/v68.0/query'))!;
    expect(new URL(standIn.baseUrl + q.path).searchParams.get('q')).toBe(
      "SELECT Id FROM Lead WHERE IsConverted = false AND (Phone = '+15550102030' OR MobilePhone = '+15550102030' OR Email = 'jane.oneil@example.com') ORDER BY CreatedDate DESC LIMIT 1",
    );
    expect(JSON.parse(last('POST', '/services/data/v68.0/sobjects/Lead').body)).toEqual({
      LeadSource: 'Call Tracking',
      Phone: '+15550102030',
      Email: 'jane.oneil@example.com',
      FirstName: 'Jane',
      LastName: "O'Neil",
      Company: 'Unknown (caller)',
      Description: 'First call from facebook / cpc / spring-sale\nLanding page: https://dealer.example.com/suv\nCall: https://app.example.com/calls/4242',
    });
    const task = JSON.parse(last('POST', '/services/data/v68.0/sobjects/Task').body);
    expect(task).toEqual({
      Subject: 'Inbound call from +15550102030',
      Type: 'Call',
      Status: 'Completed',
      Priority: 'Normal',
      ActivityDate: '2026-11-29',
      CallType: 'Inbound',
      CallDurationInSeconds: 95,
      CallDisposition: 'connected',
      CallObject: 'switchboard-call-4242',
      Description:
        'Summary: Asked about the blue SUV; booked a test drive for Saturday.\nCall and transcript: https://app.example.com/calls/4242\nRecording: https://app.example.com/files/recordings/4242.mp3?sig=abc\nTranscript:\nCaller: Hi, is the blue SUV still available? Agent: Yes, it is.',
      TaskSubtype: 'Call',
      WhoId: expect.stringMatching(/^00Q/),
    });
    expect(soqlString("O'Neil\\x")).toBe("'O\\'Neil\\\\x'");
  });

  it('updates the same Lead and Task on a retry and when the outcome is set later', async () => {
    const item = sampleItem({ settings });
    expect(adapter.dedupKey(item)).toBe('CallObject=switchboard-call-4242');
    const retry = await adapter.deliver(conn(), [item]);
    expect(retry.items[0]!.message).toBe('Updated the call Task already logged.');
    // attribution in the org's fields named by the settings (names checked: 'bad name;' is ignored)
    expect(JSON.parse(standIn.requests.filter((r) => r.method === 'PATCH' && r.path.includes('/sobjects/Lead/')).at(-1)!.body)).toEqual({
      LeadSource: 'Call Tracking',
      Phone: '+15550102030',
      Email: 'jane.oneil@example.com',
      FirstName: 'Jane',
      UTM_Campaign__c: 'spring-sale',
    });
    const outcome = sampleItem({
      kind: 'outcome',
      deliveryKey: '9:outcome:4242',
      call: { outcome: 'vehicle_ordered' },
      settings: { ...settings, provider: {} },
    });
    const a = await adapter.deliver(conn(), [outcome]);
    expect(a.items[0]!.providerRef).toBe(retry.items[0]!.providerRef);
    const patch = JSON.parse(standIn.requests.filter((r) => r.method === 'PATCH' && r.path.includes('/sobjects/Task/')).at(-1)!.body);
    expect(patch).toMatchObject({ CallDisposition: 'vehicle_ordered (sales)', CallObject: 'switchboard-call-4242' });
    expect(patch.TaskSubtype).toBeUndefined();
    expect(sandbox.sent().filter((s) => s.summary.startsWith('Task created'))).toHaveLength(1);
    expect(sandbox.sent().filter((s) => s.summary.startsWith('Lead created'))).toHaveLength(1);
  });

  it('maps INVALID_SESSION_ID to reconnect and honours REQUEST_LIMIT_EXCEEDED', async () => {
    await expect(adapter.deliver(conn({ accessToken: '00Dx!expired' }), [sampleItem()])).rejects.toBeInstanceOf(ReconnectNeededError);
    next = Response.json([{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }], { status: 403 });
    const err = await adapter.deliver(conn(), [sampleItem()]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(3600_000);
  });

  it('takes the instance URL from the token answer and verifies the Task call fields', async () => {
    const account = await adapter.identify(conn(), {
      access_token: 'sandbox-x',
      instance_url: 'https://sandbox-motors.my.salesforce.com',
      id: 'https://login.salesforce.com/id/00D5g000000SANDBOX/0055g000000SANDUSR',
    });
    expect(account).toEqual({
      externalAccountId: '00D5g000000SANDBOX',
      accountName: 'sales@sandbox-motors.example',
      config: { instanceUrl: 'https://sandbox-motors.my.salesforce.com', orgId: '00D5g000000SANDBOX' },
    });
    // A grant without instance_url (the framework's sandbox authorization server) keeps the login host.
    expect((await adapter.identify(conn(), { access_token: 'sandbox-x' })).config).toEqual({
      instanceUrl: 'https://login.salesforce.com',
      orgId: '00D5g000000SANDBOX',
    });
    // Against the real login host the adapter calls the org's instance, never login.salesforce.com.
    const urls: string[] = [];
    const live = testConnection('salesforce', 'https://login.salesforce.com', {
      config: { instanceUrl: 'https://sandbox-motors.my.salesforce.com' },
      fetch: async (input) => {
        urls.push(String(input));
        return Response.json({
          fields: [{ name: 'TaskSubtype' }, { name: 'CallType' }, { name: 'CallDurationInSeconds' }, { name: 'CallDisposition' }, { name: 'CallObject' }],
        });
      },
    });
    expect(await adapter.verify(live, sampleItem())).toBe('Leads and call Tasks can be written.');
    expect(urls).toEqual(['https://sandbox-motors.my.salesforce.com/services/data/v68.0/sobjects/Task/describe']);
    await expect(adapter.verify(testConnection('salesforce', 'https://login.salesforce.com'), sampleItem())).rejects.toBeInstanceOf(ReconnectNeededError);
  });
});
