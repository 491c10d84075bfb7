/**
 * The billing module's entry: plans, subscriptions, cards through the payment-gateway port, usage, invoices and
 * dunning (spec 001 "Billing", 002 "Subscription"; docs/billing.md). See `platform/module.ts`.
 * - routes: billing, subscription, usage, invoices, the gateway webhook, the sandbox gateway's endpoints, the ticker;
 * - jobs: `billing.tick`;
 * - setup: usage from `call.changed`, `message.received`, `message.status-changed`, `number.batch-finished`,
 *   `fax.changed`, `caller-id.looked-up`, `transcript.changed`, `sms-verification.submitted` (registration fees), and the
 *   numbers module's number-limit hook (the plan's limit).
 */
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import type { App } from '../../platform/http/app-type.js';
import type { ModuleEntry } from '../../platform/module.js';
import { registerBillingJobs, registerBillingTicker } from './billing.jobs.js';
import { registerBillingRoutes } from './billing.routes.js';
import { planNumberLimitOf } from './billing.service.js';
import {
  onCallsChanged,
  onCallerIdLookedUp,
  onFaxChanged,
  onMessagesReceived,
  onMessagesStatus,
  onNumbersChanged,
  onSmsVerificationSubmitted,
  onTranscriptChanged,
} from './billing.usage.js';

async function routes(app: App, ctx: AppContext): Promise<void> {
  await registerBillingRoutes(app, ctx);
  registerBillingTicker(app, ctx);
}

function setup(ctx: AppContext): void {
  events.consumeBatch('billing.usage', 'call.changed', onCallsChanged);
  events.consumeBatch('billing.usage', 'message.received', onMessagesReceived);
  events.consumeBatch('billing.usage', 'message.status-changed', onMessagesStatus);
  events.consume('billing.usage', 'number.batch-finished', onNumbersChanged);
  events.consume('billing.usage', 'fax.changed', onFaxChanged);
  events.consume('billing.usage', 'caller-id.looked-up', onCallerIdLookedUp);
  events.consume('billing.usage', 'transcript.changed', onTranscriptChanged);
  events.consume('billing.usage', 'sms-verification.submitted', onSmsVerificationSubmitted);
  ctx.hooks.provide('numberLimit', planNumberLimitOf);
}

export const billingModule: ModuleEntry[] = [{ name: 'billing', routes, jobs: registerBillingJobs, setup }];
