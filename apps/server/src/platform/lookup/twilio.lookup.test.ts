/** The Twilio Lookup v2 adapter against a local server speaking Twilio's documented REST API. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LookupUnavailableError } from './lookup.port.js';
import { LOOKUP_TEXT_LIMITS, createTwilioLookup } from './twilio.lookup.js';

let server: http.Server;
let base: string;
const requests: Array<{ url: string; auth: string | undefined }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', auth: req.headers.authorization });
    const number = decodeURIComponent((req.url ?? '').split('/v2/PhoneNumbers/')[1]?.split('?')[0] ?? '');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (number === '+14159929960')
      return json(200, {
        phone_number: number,
        country_code: 'US',
        valid: true,
        caller_name: { caller_name: 'Sergio Suarez', caller_type: 'CONSUMER', error_code: null },
        line_type_intelligence: { carrier_name: 'T-Mobile USA, Inc.', type: 'mobile', error_code: null },
      });
    if (number === '+14155550100')
      return json(200, {
        phone_number: number,
        country_code: 'US',
        valid: true,
        caller_name: { caller_name: null, caller_type: 'UNDETERMINED', error_code: null },
        line_type_intelligence: { carrier_name: 'Bandwidth', type: 'nonFixedVoip', error_code: null },
      });
    // Outside texts of absurd size (issue 22 §1): a 32 KB name in an answer under 64 KB, and a 2 MB answer.
    if (number === '+14155550103')
      return json(200, {
        phone_number: number,
        country_code: 'USA-and-more',
        valid: true,
        caller_name: { caller_name: `ACME ${'x'.repeat(32 * 1024)}`, caller_type: 'BUSINESS', error_code: null },
        line_type_intelligence: { carrier_name: 'c'.repeat(5_000), type: 't'.repeat(5_000), error_code: null },
      });
    if (number === '+14155550104') return json(200, { phone_number: number, valid: true, padding: 'x'.repeat(2 * 1024 * 1024) });
    if (number === '+14155550101') return json(404, { code: 20404, message: 'The requested resource was not found' });
    if (number === '+14155550102') return json(401, { code: 20003, message: 'Authenticate' });
    return json(500, { message: 'boom' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe('createTwilioLookup', () => {
  it('asks for caller name and line type with Basic auth and maps the answer', async () => {
    const port = createTwilioLookup({ accountSid: 'ACtest', authToken: 'secret', baseUrl: base });
    const answer = await port.lookup('+14159929960');
    expect(answer).toEqual({
      e164: '+14159929960',
      found: true,
      callerName: 'Sergio Suarez',
      callerType: 'consumer',
      lineType: 'mobile',
      carrierName: 'T-Mobile USA, Inc.',
      countryCode: 'US',
    });
    expect(requests.at(-1)).toEqual({
      url: '/v2/PhoneNumbers/%2B14159929960?Fields=caller_name,line_type_intelligence',
      auth: `Basic ${Buffer.from('ACtest:secret').toString('base64')}`,
    });
  });

  it('answers not found without a name, and for 404', async () => {
    const port = createTwilioLookup({ accountSid: 'ACtest', authToken: 'secret', baseUrl: base });
    expect(await port.lookup('+14155550100')).toMatchObject({ found: false, callerName: null, callerType: null, lineType: 'nonFixedVoip' });
    expect(await port.lookup('+14155550101')).toMatchObject({ found: false, lineType: null });
  });

  it('throws LookupUnavailableError with the status for 401 and 5xx, and for an unreachable host', async () => {
    const port = createTwilioLookup({ accountSid: 'ACtest', authToken: 'secret', baseUrl: base });
    await expect(port.lookup('+14155550102')).rejects.toMatchObject({ name: 'LookupUnavailableError', providerStatus: 401 });
    await expect(port.lookup('+14155550199')).rejects.toMatchObject({ providerStatus: 500 });
    const down = createTwilioLookup({ accountSid: 'ACtest', authToken: 'secret', baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 });
    await expect(down.lookup('+14159929960')).rejects.toBeInstanceOf(LookupUnavailableError);
  });

  it('bounds the texts of an answer (docs/operations.md "Bounds on outside input") and refuses an answer over 64 KB unread', async () => {
    const lookup = createTwilioLookup({ accountSid: 'ACtest', authToken: 'token', baseUrl: base });
    const a = await lookup.lookup('+14155550103');
    expect(a).toMatchObject({ found: true, callerType: 'business' });
    expect(a.callerName!.length).toBe(LOOKUP_TEXT_LIMITS.callerName);
    expect(a.callerName!.startsWith('ACME x')).toBe(true);
    expect(a.carrierName!.length).toBe(LOOKUP_TEXT_LIMITS.carrierName);
    expect(a.lineType!.length).toBe(LOOKUP_TEXT_LIMITS.lineType);
    expect(a.countryCode).toBe('US');
    await expect(lookup.lookup('+14155550104')).rejects.toBeInstanceOf(LookupUnavailableError);
  });
});
