/**
 * The Stripe adapter of the payment-gateway port (docs/billing.md "Payment gateway"): the only file importing the
 * official `stripe` package. Cards are saved with a SetupIntent (off-session usage; 3-D Secure answered by the
 * browser's `stripe.confirmCardSetup`), charged with a confirmed off-session PaymentIntent (idempotency key per
 * attempt), and webhooks verified with `stripe.webhooks.constructEvent` (STRIPE_WEBHOOK_SECRET).
 */
import Stripe from 'stripe';
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

function cardOf(pm: Stripe.PaymentMethod): CardSummary {
  const c = pm.card;
  return { paymentMethodId: pm.id, brand: c?.brand ?? 'unknown', last4: c?.last4 ?? '', expMonth: c?.exp_month ?? 0, expYear: c?.exp_year ?? 0 };
}

function isCardError(error: unknown): error is Stripe.errors.StripeCardError {
  return error instanceof Stripe.errors.StripeCardError;
}

/**
 * Stripe behind the port. `clientOptions` are the `stripe` client's own (`host`, `port`, `protocol`,
 * `maxNetworkRetries`…): unset in production (api.stripe.com); the tests point them at a local stand-in of Stripe's
 * API (`stripe.test.ts`).
 */
export class StripeGateway implements PaymentGateway {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    secretKey: string,
    private readonly publishableKey: string,
    private readonly webhookSecret: string,
    clientOptions?: Stripe.StripeConfig,
  ) {
    this.stripe = new Stripe(secretKey, clientOptions);
  }

  browserConfig(): BrowserGatewayConfig {
    return { gateway: 'stripe', publishableKey: this.publishableKey, tokenizeUrl: null };
  }

  async createCustomer(input: { email: string | null; name: string; companyId: number }): Promise<string> {
    const c = await this.stripe.customers.create({ email: input.email ?? undefined, name: input.name, metadata: { company_id: String(input.companyId) } });
    return c.id;
  }

  async setupCard(customerId: string, paymentMethodId: string): Promise<SetupResult> {
    try {
      const si = await this.stripe.setupIntents.create({
        customer: customerId,
        payment_method: paymentMethodId,
        usage: 'off_session',
        confirm: true,
      });
      if (si.status === 'requires_action') return { status: 'requires_action', setupIntentId: si.id, clientSecret: si.client_secret ?? '' };
      if (si.status !== 'succeeded')
        throw new CardDeclinedError(si.last_setup_error?.code ?? 'setup_failed', si.last_setup_error?.message ?? 'Your card could not be saved.');
      return { status: 'succeeded', card: cardOf(await this.stripe.paymentMethods.retrieve(paymentMethodId)) };
    } catch (error) {
      if (isCardError(error)) throw new CardDeclinedError(error.decline_code ?? error.code ?? 'card_declined', error.message);
      throw error;
    }
  }

  async completeSetup(customerId: string, setupIntentId: string): Promise<CardSummary> {
    const si = await this.stripe.setupIntents.retrieve(setupIntentId);
    const pmId = typeof si.payment_method === 'string' ? si.payment_method : si.payment_method?.id;
    if (si.customer !== customerId || si.status !== 'succeeded' || !pmId)
      throw new CardDeclinedError('authentication_required', 'Your card was not authenticated.');
    return cardOf(await this.stripe.paymentMethods.retrieve(pmId));
  }

  async charge(input: {
    customerId: string;
    paymentMethodId: string;
    amountCents: number;
    description: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<ChargeResult> {
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: 'usd',
          customer: input.customerId,
          payment_method: input.paymentMethodId,
          off_session: true,
          confirm: true,
          description: input.description,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (pi.status === 'succeeded') return { status: 'succeeded', paymentId: pi.id };
      return {
        status: 'failed',
        code: pi.last_payment_error?.code ?? pi.status,
        message: pi.last_payment_error?.message ?? 'The payment did not go through.',
        paymentId: pi.id,
      };
    } catch (error) {
      if (isCardError(error)) return { status: 'failed', code: error.decline_code ?? error.code ?? 'card_declined', message: error.message, paymentId: null };
      throw error;
    }
  }

  parseWebhook(rawBody: string | Buffer, signatureHeader: string | undefined): GatewayEvent {
    try {
      const event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader ?? '', this.webhookSecret);
      return { id: event.id, type: event.type, object: event.data.object as unknown as Record<string, unknown> };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new WebhookSignatureError(error.message);
      throw error;
    }
  }
}
