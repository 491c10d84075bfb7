/**
 * The Stripe adapter (docs/billing.md "Payment gateway") against a local HTTP stand-in of Stripe's API: the official
 * `stripe` client pointed at it with its own `host`, `port` and `protocol` options, so the requests checked here are
 * the ones the package really sends (form-encoded bodies, bearer secret key, `Idempotency-Key`). Webhooks are signed
 * with the package's own `stripe.webhooks.generateTestHeaderString`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CardDeclinedError, WebhookSignatureError } from './payments.port.js';
import { StripeGateway } from './stripe.js';

type Seen = { method: string; path: string; headers: http.IncomingHttpHeaders; form: Record<string, string> };
type Answer = { status: number; body: unknown };

const SECRET = 'sk_test_standin';
const WHSEC = 'whsec_test_standin';
let server: http.Server;
let seen: Seen[] = [];
/** What the stand-in answers per "METHOD /path" (the test sets it). */
let routes: Record<string, (req: Seen) => Answer> = {};
let gateway: StripeGateway;

const cardError = (code: string, decline: string, message: string): Answer => ({
  status: 402,
  body: { error: { type: 'card_error', code, decline_code: decline, message } },
});
const pm = (id: string) => ({
  id,
  object: 'payment_method',
  type: 'card',
  card: { brand: 'mastercard', last4: '4444', exp_month: 8, exp_year: 2031 },
});

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const seenReq: Seen = { method: req.method ?? '', path: url.pathname, headers: req.headers, form: Object.fromEntries(new URLSearchParams(raw)) };
      seen.push(seenReq);
      const key = `${seenReq.method} ${seenReq.path}`;
      const route = routes[key];
      const answer: Answer = route ? route(seenReq) : { status: 404, body: { error: { type: 'invalid_request_error', message: `No stand-in for ${key}` } } };
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': `req_${seen.length}` });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  gateway = new StripeGateway(SECRET, 'pk_test_standin', WHSEC, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  routes = {};
});

describe('Stripe adapter against a stand-in of the API', () => {
  it('creates the customer with the company id as metadata, authenticated with the secret key', async () => {
    routes['POST /v1/customers'] = () => ({ status: 200, body: { id: 'cus_123', object: 'customer' } });
    expect(await gateway.createCustomer({ email: 'billing@ortiz.test', name: 'Ortiz Auto', companyId: 42 })).toBe('cus_123');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(seen[0]!.form).toEqual({ email: 'billing@ortiz.test', name: 'Ortiz Auto', 'metadata[company_id]': '42' });
    expect(gateway.browserConfig()).toEqual({ gateway: 'stripe', publishableKey: 'pk_test_standin', tokenizeUrl: null });
  });

  it('saves a card with a confirmed off-session SetupIntent and keeps only brand, last four and expiry', async () => {
    routes['POST /v1/setup_intents'] = () => ({ status: 200, body: { id: 'seti_1', object: 'setup_intent', status: 'succeeded', payment_method: 'pm_1' } });
    routes['GET /v1/payment_methods/pm_1'] = () => ({ status: 200, body: pm('pm_1') });
    const r = await gateway.setupCard('cus_123', 'pm_1');
    expect(r).toEqual({ status: 'succeeded', card: { paymentMethodId: 'pm_1', brand: 'mastercard', last4: '4444', expMonth: 8, expYear: 2031 } });
    expect(seen[0]!.form).toEqual({ customer: 'cus_123', payment_method: 'pm_1', usage: 'off_session', confirm: 'true' });
  });

  it('hands 3-D Secure to the browser, then completes the setup only for the same customer once it succeeded', async () => {
    routes['POST /v1/setup_intents'] = () => ({
      status: 200,
      body: { id: 'seti_3ds', object: 'setup_intent', status: 'requires_action', client_secret: 'seti_3ds_secret_x', payment_method: 'pm_3ds' },
    });
    expect(await gateway.setupCard('cus_123', 'pm_3ds')).toEqual({ status: 'requires_action', setupIntentId: 'seti_3ds', clientSecret: 'seti_3ds_secret_x' });

    let status = 'requires_action';
    routes['GET /v1/setup_intents/seti_3ds'] = () => ({
      status: 200,
      body: { id: 'seti_3ds', object: 'setup_intent', status, customer: 'cus_123', payment_method: 'pm_3ds' },
    });
    routes['GET /v1/payment_methods/pm_3ds'] = () => ({ status: 200, body: pm('pm_3ds') });
    await expect(gateway.completeSetup('cus_123', 'seti_3ds')).rejects.toBeInstanceOf(CardDeclinedError);
    status = 'succeeded';
    await expect(gateway.completeSetup('cus_other', 'seti_3ds')).rejects.toBeInstanceOf(CardDeclinedError);
    expect(await gateway.completeSetup('cus_123', 'seti_3ds')).toMatchObject({ paymentMethodId: 'pm_3ds', last4: '4444' });
  });

  it('turns a declined card (402 card_error) into CardDeclinedError with the decline code', async () => {
    routes['POST /v1/setup_intents'] = () => cardError('card_declined', 'insufficient_funds', 'Your card has insufficient funds.');
    const error = await gateway.setupCard('cus_123', 'pm_bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardDeclinedError);
    expect(error).toMatchObject({ code: 'insufficient_funds', message: 'Your card has insufficient funds.' });
  });

  it('charges off-session with the idempotency key, and reports a decline as a result', async () => {
    routes['POST /v1/payment_intents'] = () => ({ status: 200, body: { id: 'pi_ok', object: 'payment_intent', status: 'succeeded' } });
    const input = {
      customerId: 'cus_123',
      paymentMethodId: 'pm_1',
      amountCents: 3334,
      description: 'Invoice SB-000007',
      idempotencyKey: 'invoice-7-attempt-1',
      metadata: { invoice_id: '7', company_id: '42' },
    };
    expect(await gateway.charge(input)).toEqual({ status: 'succeeded', paymentId: 'pi_ok' });
    expect(seen[0]!.headers['idempotency-key']).toBe('invoice-7-attempt-1');
    expect(seen[0]!.form).toEqual({
      amount: '3334',
      currency: 'usd',
      customer: 'cus_123',
      payment_method: 'pm_1',
      off_session: 'true',
      confirm: 'true',
      description: 'Invoice SB-000007',
      'metadata[invoice_id]': '7',
      'metadata[company_id]': '42',
    });

    routes['POST /v1/payment_intents'] = () => cardError('card_declined', 'generic_decline', 'Your card was declined.');
    expect(await gateway.charge({ ...input, idempotencyKey: 'invoice-7-attempt-2' })).toEqual({
      status: 'failed',
      code: 'generic_decline',
      message: 'Your card was declined.',
      paymentId: null,
    });

    routes['POST /v1/payment_intents'] = () => ({
      status: 200,
      body: {
        id: 'pi_pending',
        object: 'payment_intent',
        status: 'requires_payment_method',
        last_payment_error: { code: 'expired_card', message: 'Your card has expired.' },
      },
    });
    expect(await gateway.charge({ ...input, idempotencyKey: 'invoice-7-attempt-3' })).toEqual({
      status: 'failed',
      code: 'expired_card',
      message: 'Your card has expired.',
      paymentId: 'pi_pending',
    });
  });

  it('lets a transport failure (5xx) through as an error: no payment is assumed', async () => {
    routes['POST /v1/payment_intents'] = () => ({ status: 500, body: { error: { type: 'api_error', message: 'Stripe is down' } } });
    await expect(
      gateway.charge({ customerId: 'c', paymentMethodId: 'p', amountCents: 1, description: 'x', idempotencyKey: 'k', metadata: {} }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
  });
});

describe('Stripe webhooks', () => {
  const payload = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { id: 'pi_ok', object: 'payment_intent', metadata: { invoice_id: '7' } } },
  });
  const stripe = new Stripe(SECRET);

  it('verifies the signature made by stripe.webhooks.generateTestHeaderString and parses the event', () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC });
    expect(gateway.parseWebhook(payload, header)).toEqual({
      id: 'evt_1',
      type: 'payment_intent.succeeded',
      object: { id: 'pi_ok', object: 'payment_intent', metadata: { invoice_id: '7' } },
    });
    expect(gateway.parseWebhook(Buffer.from(payload), header).id).toBe('evt_1');
  });

  it('refuses another secret, an altered body, a missing header and an old timestamp', () => {
    const wrong = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect(() => gateway.parseWebhook(payload, wrong)).toThrow(WebhookSignatureError);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC });
    expect(() => gateway.parseWebhook(payload.replace('"7"', '"8"'), header)).toThrow(WebhookSignatureError);
    expect(() => gateway.parseWebhook(payload, undefined)).toThrow(WebhookSignatureError);
    const old = stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(() => gateway.parseWebhook(payload, old)).toThrow(WebhookSignatureError);
  });
});
