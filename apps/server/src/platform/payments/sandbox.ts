/**
 * The sandbox payment gateway (docs/billing.md "Sandbox gateway"): offline, behaving like Stripe's test mode.
 *
 * - Tokenization: `POST /sandbox-payments/v1/payment_methods` (public, the sandbox's publishable key in
 *   `Authorization: Bearer pk_sandbox_…`) takes `{ number, exp_month, exp_year, cvc }` and answers
 *   `{ id: "pm_sandbox_…", card: { brand, last4, exp_month, exp_year } }` the way Stripe returns a PaymentMethod. The
 *   id is self-describing and signed (brand, last four, expiry, test behaviour), so no card number is kept anywhere.
 * - Test cards: 4242424242424242 succeeds; 4000000000000002 is declined when saved (`card_declined`);
 *   4000002500003155 requires authentication when saved (3-D Secure: `POST /sandbox-payments/v1/setup_intents/authenticate` with `{ setup_intent }`),
 *   later off-session charges succeed; 4000000000000341 is saved but every charge fails (`card_declined`). Any other
 *   number passing the Luhn check succeeds; one failing it is refused at tokenization (`incorrect_number`).
 * - Webhooks are signed like Stripe's (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`) with the sandbox's
 *   secret (STRIPE_WEBHOOK_SECRET, or {@link SANDBOX_WEBHOOK_SECRET}); {@link signSandboxWebhook} signs test events.
 */
import crypto from 'node:crypto';
import {
  CardDeclinedError,
  WebhookSignatureError,
  type BrowserGatewayConfig,
  type CardSummary,
  type ChargeResult,
  type GatewayEvent,
  type PaymentGateway,
  type SetupResult,
} from './payments.port.js';

/** The sandbox's publishable key (not a secret: it only lets a browser tokenize test cards). */
export const SANDBOX_PUBLISHABLE_KEY = 'pk_sandbox_switchboard';
/** The sandbox's webhook signing secret when STRIPE_WEBHOOK_SECRET is empty. */
export const SANDBOX_WEBHOOK_SECRET = 'whsec_sandbox_switchboard';
/** Base path of the sandbox gateway's own endpoints (outside `/api`: they are the gateway's, not the product's). */
export const SANDBOX_BASE = '/sandbox-payments/v1';
/** Webhook timestamps older than this are refused (Stripe's default tolerance, seconds). */
export const WEBHOOK_TOLERANCE_S = 300;

/** What a test card does (Stripe's test-mode card numbers). */
export type SandboxBehaviour = 'succeed' | 'decline' | 'authenticate' | 'fail_charge';

const TEST_CARDS: Record<string, SandboxBehaviour> = {
  '4242424242424242': 'succeed',
  '4000000000000002': 'decline',
  '4000002500003155': 'authenticate',
  '4000000000000341': 'fail_charge',
};

type PmPayload = { b: string; l: string; m: number; y: number; x: SandboxBehaviour; n: string };
type SetiPayload = { pm: string; c: string; ok: boolean };

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function brandOf(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
}

/** Stripe's signature header for `body` at `timestamp` (seconds) with `secret`. */
export function signSandboxWebhook(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** A sandbox card field error (tokenization), in Stripe's error shape. */
export class SandboxCardFieldError extends Error {
  constructor(
    readonly code: string,
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxCardFieldError';
  }
}

/** The sandbox gateway. `signingKey` signs its self-describing ids; `webhookSecret` signs webhooks. */
export class SandboxGateway implements PaymentGateway {
  readonly kind = 'sandbox' as const;

  constructor(
    private readonly signingKey: string,
    readonly webhookSecret: string,
  ) {}

  private seal(prefix: string, payload: object): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    const mac = crypto.createHmac('sha256', this.signingKey).update(`${prefix}${body}`).digest('base64url').slice(0, 22);
    return `${prefix}${body}.${mac}`;
  }

  private open<T>(prefix: string, id: string): T | null {
    if (!id.startsWith(prefix)) return null;
    const [body, mac] = id.slice(prefix.length).split('.');
    if (!body || !mac) return null;
    const want = crypto.createHmac('sha256', this.signingKey).update(`${prefix}${body}`).digest('base64url').slice(0, 22);
    if (want.length !== mac.length || !crypto.timingSafeEqual(Buffer.from(want), Buffer.from(mac))) return null;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
    } catch (error) {
      if (error instanceof SyntaxError) return null;
      throw error;
    }
  }

  browserConfig(): BrowserGatewayConfig {
    return { gateway: 'sandbox', publishableKey: SANDBOX_PUBLISHABLE_KEY, tokenizeUrl: `${SANDBOX_BASE}/payment_methods` };
  }

  /**
   * The tokenization endpoint's work: a card number, expiry and CVC become a payment-method id.
   * @throws SandboxCardFieldError (incorrect_number, invalid_expiry_month, invalid_expiry_year, expired_card, invalid_cvc).
   */
  tokenize(
    input: { number: string; exp_month: number; exp_year: number; cvc: string },
    now = new Date(),
  ): { id: string; card: { brand: string; last4: string; exp_month: number; exp_year: number } } {
    const digits = String(input.number).replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) throw new SandboxCardFieldError('incorrect_number', 'number', 'Your card number is incorrect.');
    const month = Number(input.exp_month);
    let year = Number(input.exp_year);
    if (year < 100) year += 2000;
    if (!Number.isInteger(month) || month < 1 || month > 12)
      throw new SandboxCardFieldError('invalid_expiry_month', 'exp_month', "Your card's expiration month is invalid.");
    if (!Number.isInteger(year) || year < 2000 || year > 2100)
      throw new SandboxCardFieldError('invalid_expiry_year', 'exp_year', "Your card's expiration year is invalid.");
    if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
      throw new SandboxCardFieldError('expired_card', 'exp_year', 'Your card has expired.');
    if (!/^\d{3,4}$/.test(String(input.cvc))) throw new SandboxCardFieldError('invalid_cvc', 'cvc', "Your card's security code is invalid.");
    const brand = brandOf(digits);
    const payload: PmPayload = {
      b: brand,
      l: digits.slice(-4),
      m: month,
      y: year,
      x: TEST_CARDS[digits] ?? 'succeed',
      n: crypto.randomBytes(6).toString('hex'),
    };
    return { id: this.seal('pm_sandbox_', payload), card: { brand, last4: payload.l, exp_month: month, exp_year: year } };
  }

  private method(paymentMethodId: string): PmPayload {
    const pm = this.open<PmPayload>('pm_sandbox_', paymentMethodId);
    if (!pm) throw new CardDeclinedError('resource_missing', 'No such payment method.');
    return pm;
  }

  private summary(id: string, pm: PmPayload): CardSummary {
    return { paymentMethodId: id, brand: pm.b, last4: pm.l, expMonth: pm.m, expYear: pm.y };
  }

  async createCustomer(input: { companyId: number }): Promise<string> {
    return `cus_sandbox_${input.companyId}_${crypto.randomBytes(6).toString('hex')}`;
  }

  async setupCard(customerId: string, paymentMethodId: string): Promise<SetupResult> {
    const pm = this.method(paymentMethodId);
    if (pm.x === 'decline') throw new CardDeclinedError('card_declined', 'Your card was declined.');
    if (pm.x === 'authenticate') {
      const id = this.seal('seti_sandbox_', { pm: paymentMethodId, c: customerId, ok: false } satisfies SetiPayload);
      return { status: 'requires_action', setupIntentId: id, clientSecret: id };
    }
    return { status: 'succeeded', card: this.summary(paymentMethodId, pm) };
  }

  /** The sandbox's 3-D Secure step (`POST …/setup_intents/authenticate`): @returns the authenticated setup intent's id, or null for an unknown one. */
  authenticate(setupIntentId: string): string | null {
    const s = this.open<SetiPayload>('seti_sandbox_', setupIntentId);
    return s ? this.seal('seti_sandbox_', { ...s, ok: true }) : null;
  }

  async completeSetup(customerId: string, setupIntentId: string): Promise<CardSummary> {
    const s = this.open<SetiPayload>('seti_sandbox_', setupIntentId);
    if (!s || s.c !== customerId) throw new CardDeclinedError('resource_missing', 'No such setup intent.');
    if (!s.ok) throw new CardDeclinedError('authentication_required', 'Your card was not authenticated.');
    return this.summary(s.pm, this.method(s.pm));
  }

  async charge(input: { paymentMethodId: string; amountCents: number; idempotencyKey: string }): Promise<ChargeResult> {
    const pm = this.open<PmPayload>('pm_sandbox_', input.paymentMethodId);
    const paymentId = `pi_sandbox_${crypto.createHash('sha256').update(input.idempotencyKey).digest('hex').slice(0, 24)}`;
    if (!pm) return { status: 'failed', code: 'resource_missing', message: 'No such payment method.', paymentId: null };
    if (pm.x === 'fail_charge' || pm.x === 'decline') return { status: 'failed', code: 'card_declined', message: 'Your card was declined.', paymentId };
    return { status: 'succeeded', paymentId };
  }

  parseWebhook(rawBody: string | Buffer, signatureHeader: string | undefined): GatewayEvent {
    const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
    const parts = Object.fromEntries((signatureHeader ?? '').split(',').map((p) => p.split('=', 2) as [string, string]));
    const t = Number(parts.t);
    if (!signatureHeader || !Number.isInteger(t) || !parts.v1) throw new WebhookSignatureError('Missing or malformed Stripe-Signature header.');
    const want = crypto.createHmac('sha256', this.webhookSecret).update(`${t}.${body}`).digest('hex');
    if (want.length !== parts.v1.length || !crypto.timingSafeEqual(Buffer.from(want), Buffer.from(parts.v1)))
      throw new WebhookSignatureError('Webhook signature does not match.');
    if (Math.abs(Date.now() / 1000 - t) > WEBHOOK_TOLERANCE_S) throw new WebhookSignatureError('Webhook timestamp is outside the tolerance.');
    let event: { id?: unknown; type?: unknown; data?: { object?: unknown } };
    try {
      event = JSON.parse(body) as typeof event;
    } catch (error) {
      if (error instanceof SyntaxError) throw new WebhookSignatureError('Webhook body is not JSON.');
      throw error;
    }
    if (typeof event.id !== 'string' || typeof event.type !== 'string') throw new WebhookSignatureError('Webhook body is not an event.');
    return { id: event.id, type: event.type, object: (event.data?.object ?? {}) as Record<string, unknown> };
  }
}
