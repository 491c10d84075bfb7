/**
 * The payment-gateway port (docs/billing.md "Payment gateway"): what the billing module asks of a card processor.
 * Two adapters: `stripe.ts` (the official `stripe` package, the only file importing it) and `sandbox.ts` (offline,
 * behaving like Stripe's test mode). Card numbers never reach the product: the browser tokenizes the card with the
 * gateway (Stripe's Payment Element, or the sandbox's tokenization endpoint) and hands the billing routes a
 * payment-method id (`pm_…`). Amounts are integer cents (USD).
 */

/** What the browser needs to tokenize a card (`GET /chargify/security-token`). */
export type BrowserGatewayConfig = {
  gateway: 'sandbox' | 'stripe';
  publishableKey: string;
  /** The sandbox's tokenization endpoint (absolute path), null with Stripe (stripe-js talks to Stripe). */
  tokenizeUrl: string | null;
};

/** A card as the gateway describes it: all the product ever stores of it. */
export type CardSummary = { paymentMethodId: string; brand: string; last4: string; expMonth: number; expYear: number };

/** The outcome of saving a card for later off-session charges. */
export type SetupResult =
  | { status: 'succeeded'; card: CardSummary }
  /** 3-D Secure needed: the browser confirms `clientSecret` (stripe.confirmCardSetup, or the sandbox's authenticate endpoint), then the card is saved with `completeSetup(setupIntentId)`. */
  | { status: 'requires_action'; setupIntentId: string; clientSecret: string };

/** The outcome of one charge attempt. */
export type ChargeResult = { status: 'succeeded'; paymentId: string } | { status: 'failed'; code: string; message: string; paymentId: string | null };

/** A gateway event received by webhook, after its signature was verified. */
export type GatewayEvent = { id: string; type: string; object: Record<string, unknown> };

/** A card the gateway refused (declined, expired, incorrect number…): the person should contact the card issuer. */
export class CardDeclinedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CardDeclinedError';
  }
}

/** A webhook whose signature does not verify (missing, wrong secret, altered body, too old). */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** The port. Every method may throw the gateway's transport errors (they surface as 5xx). */
export interface PaymentGateway {
  readonly kind: 'sandbox' | 'stripe';
  browserConfig(): BrowserGatewayConfig;
  /** Creates the gateway's customer for a company. @returns its id. */
  createCustomer(input: { email: string | null; name: string; companyId: number }): Promise<string>;
  /** Attaches a tokenized card to the customer for off-session use. @throws CardDeclinedError. */
  setupCard(customerId: string, paymentMethodId: string): Promise<SetupResult>;
  /** Finishes a setup that needed authentication. @throws CardDeclinedError when it was not authenticated. */
  completeSetup(customerId: string, setupIntentId: string): Promise<CardSummary>;
  /** Charges `amountCents` off-session; `idempotencyKey` makes a repeated call charge once. Declines are results, not errors. */
  charge(input: {
    customerId: string;
    paymentMethodId: string;
    amountCents: number;
    description: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<ChargeResult>;
  /** Verifies a webhook (Stripe's `Stripe-Signature` scheme) and parses its event. @throws WebhookSignatureError. */
  parseWebhook(rawBody: string | Buffer, signatureHeader: string | undefined): GatewayEvent;
}
