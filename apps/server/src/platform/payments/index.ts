/**
 * The configured payment gateway (PAYMENTS=sandbox|stripe; docs/billing.md "Configuration"), one per process
 * configuration. The sandbox signs its ids with SECRET_KEY (or a fixed development key) and its webhooks with
 * STRIPE_WEBHOOK_SECRET (or {@link SANDBOX_WEBHOOK_SECRET}).
 */
import type { Config } from '../config.js';
import type { PaymentGateway } from './payments.port.js';
import { SANDBOX_WEBHOOK_SECRET, SandboxGateway } from './sandbox.js';
import { StripeGateway } from './stripe.js';

export * from './payments.port.js';
export { SANDBOX_BASE, SANDBOX_PUBLISHABLE_KEY, SANDBOX_WEBHOOK_SECRET, SandboxCardFieldError, SandboxGateway, signSandboxWebhook } from './sandbox.js';

const gateways = new WeakMap<Config, PaymentGateway>();

/** The gateway for `config` (created once per config object). */
export function paymentGateway(config: Config): PaymentGateway {
  let g = gateways.get(config);
  if (!g) {
    g =
      config.payments === 'stripe'
        ? new StripeGateway(config.stripeSecretKey, config.stripePublishableKey, config.stripeWebhookSecret)
        : new SandboxGateway(config.secretKey || 'sandbox-payments-development-key', config.stripeWebhookSecret || SANDBOX_WEBHOOK_SECRET);
    gateways.set(config, g);
  }
  return g;
}
