/** The Twilio Lookup v2 adapter against a local server speaking Twilio's documented REST API. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LookupUnavailableError } from './lookup.port.js';
import { createTwilioLookup } from './twilio.lookup.js';

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
});
