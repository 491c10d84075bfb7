/**
 * The Twilio adapter's browser-call controls against a local stand-in for Twilio's REST API
 * (twilio.test-helpers.ts): the REST requests hold, resume, hang-up and transfer (of a call placed from the browser,
 * and of an inbound call answered in it) make, and the
 * TwiML they send (docs/calling.md "Twilio").
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.js';
import { TwilioCarrier, holdQueueName } from './twilio.carrier.js';
import { TwilioRestStandIn } from './twilio.test-helpers.js';

const PUBLIC_URL = 'https://switchboard.example.com';
const BROWSER = 'CA' + '1'.repeat(32);
const CHILD = 'CA' + '2'.repeat(32);

function make() {
  const rest = new TwilioRestStandIn();
  const config = loadConfig({ CARRIER: 'twilio', PUBLIC_URL, TWILIO_ACCOUNT_SID: 'AC' + '0'.repeat(32), TWILIO_AUTH_TOKEN: 'contract-auth-token' });
  const carrier = new TwilioCarrier(config, { httpClient: rest.httpClient });
  rest.addCall(BROWSER);
  rest.addCall(CHILD, BROWSER);
  return { rest, carrier };
}

describe('Twilio browser-call controls', () => {
  it('holds the dialed party in a queue of its own and resumes by dialing that queue', async () => {
    const { rest, carrier } = make();
    expect(carrier.holdLeavesDial).toBe(true);
    expect(await carrier.holdCall(BROWSER, true, null)).toBe(true);
    const [list, redirect] = rest.requests;
    expect(list).toMatchObject({ method: 'GET', path: '/Calls.json', params: { ParentCallSid: BROWSER, Status: 'in-progress' } });
    expect(redirect).toMatchObject({ method: 'POST', path: `/Calls/${CHILD}.json` });
    // No on-hold greeting: no waitUrl, Twilio's default music.
    expect(redirect!.form.Twiml).toMatch(
      new RegExp(
        `^<\\?xml version="1.0" encoding="UTF-8"\\?><Response><Enqueue action="${PUBLIC_URL}/webhooks/twilio/voice/client/hold\\?sid=${BROWSER}&amp;step=left&amp;n=\\d+" method="POST">hold-${BROWSER}</Enqueue></Response>$`,
      ),
    );
    expect(rest.queues.size).toBe(1);

    const from = rest.requests.length;
    expect(await carrier.holdCall(BROWSER, false, null)).toBe(true);
    const [resume] = rest.since(from);
    expect(resume).toMatchObject({ method: 'POST', path: `/Calls/${BROWSER}.json` });
    expect(resume!.form.Twiml).toMatch(
      new RegExp(
        `<Response><Dial action="${PUBLIC_URL}/webhooks/twilio/voice/client/hold\\?sid=${BROWSER}&amp;step=dial&amp;n=\\d+" method="POST" timeout="5"><Queue>hold-${BROWSER}</Queue></Dial></Response>$`,
      ),
    );
    expect([...rest.queues.values()][0]!.members).toEqual([]);
  });

  it('plays the on-hold greeting through our wait TwiML when there is one', async () => {
    const { rest, carrier } = make();
    expect(await carrier.holdCall(BROWSER, true, `${PUBLIC_URL}/files/greeting.wav?sig=x`)).toBe(true);
    expect(rest.requests[1]!.form.Twiml).toMatch(
      new RegExp(
        `waitUrl="${PUBLIC_URL}/webhooks/twilio/voice/client/hold\\?sid=${BROWSER}&amp;step=wait&amp;n=\\d+" waitUrlMethod="POST">hold-${BROWSER}</Enqueue>`,
      ),
    );
  });

  it('answers false without a party in conversation or when the browser leg has ended', async () => {
    const { rest, carrier } = make();
    rest.calls.get(CHILD)!.status = 'completed';
    expect(await carrier.holdCall(BROWSER, true, null)).toBe(false);
    rest.calls.get(BROWSER)!.status = 'completed';
    expect(await carrier.holdCall(BROWSER, false, null)).toBe(false);
  });

  it('hang-up while held completes the browser leg and the queued party, then removes the queue', async () => {
    const { rest, carrier } = make();
    await carrier.holdCall(BROWSER, true, null);
    const from = rest.requests.length;
    await carrier.hangupCall(BROWSER);
    const reqs = rest.since(from).map((r) => `${r.method} ${r.path} ${r.form.Status ?? ''}`.trim());
    const queueSid = [...rest.requests.filter((r) => r.method === 'DELETE')][0]?.path.split('/')[2]?.replace('.json', '');
    expect(reqs).toEqual([
      `POST /Calls/${BROWSER}.json completed`,
      'GET /Queues.json',
      `GET /Queues/${queueSid}/Members.json`,
      `POST /Calls/${CHILD}.json completed`,
      `DELETE /Queues/${queueSid}.json`,
    ]);
    expect(rest.calls.get(CHILD)!.status).toBe('completed');
    expect(rest.queues.size).toBe(0);
    // Again (already ended): no error, nothing more to end.
    await carrier.hangupCall(BROWSER);
    expect(holdQueueName(BROWSER)).toBe(`hold-${BROWSER}`);
  });

  it('hang-up of a call never held completes the browser leg only', async () => {
    const { rest, carrier } = make();
    await carrier.hangupCall(BROWSER);
    expect(rest.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /Calls/${BROWSER}.json`, 'GET /Queues.json']);
  });
  it('transfers an inbound call answered in the app by redirecting the caller leg itself; false once it has ended', async () => {
    const { rest, carrier } = make();
    // Inbound: our call's SID is the caller's leg (BROWSER here stands for it), its child the browser's <Client> leg.
    const action = `${PUBLIC_URL}/webhooks/twilio/voice/client/dial?call=7`;
    expect(await carrier.redirectCall(BROWSER, [{ kind: 'dial', numbers: [{ number: '+16465550123' }], timeoutS: 30, action, callerId: '+13125550161' }])).toBe(
      true,
    );
    expect(rest.requests).toHaveLength(1);
    const [redirect] = rest.requests;
    expect(redirect).toMatchObject({ method: 'POST', path: `/Calls/${BROWSER}.json` });
    expect(redirect!.form.Twiml).toContain('callerId="+13125550161"');
    expect(redirect!.form.Twiml).toContain('<Number>+16465550123</Number>');
    expect(redirect!.form.Twiml).toContain(`action="${PUBLIC_URL}/webhooks/twilio/voice/client/dial?call=7"`);
    rest.calls.get(BROWSER)!.status = 'completed';
    expect(await carrier.redirectCall(BROWSER, [{ kind: 'dial', numbers: [{ number: '+16465550123' }], timeoutS: 30, action }])).toBe(false);
  });
});
