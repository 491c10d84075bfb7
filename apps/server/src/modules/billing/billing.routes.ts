/**
 * Billing HTTP routes (docs/billing.md "Routes"). Spec paths where the spec gives them (spec 001 §7 "Company billing",
 * spec 002 "Billing": `GET /company/{companyId}/invoices`); the subscription paths are not shown in the spec and are
 * chosen under `/company/{companyId}/subscription…`. Reading needs `billing.read`, changing `billing.manage` (owner and
 * billing roles). Also the gateway's webhook `POST /webhooks/stripe` (Stripe-Signature verified, exactly once per
 * event id) and, with the sandbox gateway, its own tokenization and 3-D Secure endpoints under `/sandbox-payments/v1`.
 */
import {
  ErrorBody,
  CancelInput,
  CompanyBillingAnswer,
  CompanyBillingInput,
  CompanyParams,
  CustomerUpdateInput,
  FeatureToggleInput,
  IdParams,
  InvoiceList,
  InvoiceParams,
  MigrateApplyInput,
  MigrateInput,
  MigrationAnswer,
  MigrationPreview,
  NumberPriceAnswer,
  NumberPriceQuery,
  PlanList,
  RetryAnswer,
  SecurityToken,
  SubscriptionAnswer,
  SubscriptionUpdateInput,
  UpcomingInvoiceAnswer,
  UsageAnswer,
  YearlyOfferList,
  BILLING_MESSAGES,
  errorResponses,
} from '@switchboard/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { AppError, ValidationError } from '../../platform/http/errors.js';
import { handleOnce } from '../../platform/http/webhooks.js';
import {
  paymentGateway,
  SANDBOX_BASE,
  SANDBOX_PUBLISHABLE_KEY,
  SandboxCardFieldError,
  SandboxGateway,
  WebhookSignatureError,
} from '../../platform/payments/index.js';
import { billingRepository } from './billing.repository.js';
import {
  applyInvoicePayment,
  auditReactivation,
  invoicePdf,
  listInvoices,
  migrateSubscription,
  recordGatewayFailure,
  retryOutstanding,
  retryRoute,
  upcomingInvoice,
} from './billing.invoices.js';
import {
  cancelSubscription,
  clearPendingCancel,
  ensureBilling,
  getCompanyBilling,
  getSubscription,
  listPlans,
  numberPrice,
  planMigration,
  revertPendingChange,
  scheduleProductChange,
  securityToken,
  toggleFeature,
  updateCompanyBilling,
  updateCustomer,
  yearlyOffers,
} from './billing.service.js';
import { currentUsage } from './billing.usage.js';
import { fileAnswer, textAnswer } from '../../platform/http/openapi.js';

const CompanyIdParams = IdParams;

/** Registers the billing routes, the gateway webhook and (sandbox) the gateway's own endpoints. */
export async function registerBillingRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['billing'];
  const read = access.company('billing.read', { from: ['params.id'] });
  const manage = access.company('billing.manage', { from: ['params.id'] });

  app.get(
    '/api/company/:id/billing',
    { config: { access: read }, schema: { tags, params: CompanyIdParams, response: { 200: CompanyBillingAnswer, ...errorResponses } } },
    async (request) => ({ data: await getCompanyBilling(ctx, request.params.id, request.auth!.userId) }),
  );
  app.post(
    '/api/company/:id/billing',
    {
      config: { access: manage },
      schema: { tags, params: CompanyIdParams, body: CompanyBillingInput, response: { 200: CompanyBillingAnswer, ...errorResponses } },
    },
    async (request) => updateCompanyBilling(ctx, request.params.id, request.auth!.userId, request.body, retryOutstanding),
  );
  app.post(
    '/api/company/:id/billing/retry',
    { config: { access: manage }, schema: { tags, params: CompanyIdParams, response: { 200: RetryAnswer, ...errorResponses } } },
    async (request) => {
      const { paid } = await retryRoute(ctx, request.params.id, request.auth!.userId);
      const data = await getCompanyBilling(ctx, request.params.id, request.auth!.userId);
      if (!paid) throw new AppError(422, data.pastDueMessage ?? BILLING_MESSAGES.cardProcessingIssue, { billing: [BILLING_MESSAGES.cardProcessingIssue] });
      return { message: BILLING_MESSAGES.paymentSucceeded, data };
    },
  );
  app.get(
    '/api/chargify/security-token',
    { config: { access: access.signedIn() }, schema: { tags, response: { 200: SecurityToken, ...errorResponses } } },
    async () => securityToken(ctx),
  );
  app.get('/api/billing/plans', { config: { access: access.signedIn() }, schema: { tags, response: { 200: PlanList, ...errorResponses } } }, async () => ({
    data: await listPlans(ctx),
  }));

  const c = { read: access.company('billing.read'), manage: access.company('billing.manage') };
  app.get(
    '/api/company/:companyId/subscription',
    { config: { access: c.read }, schema: { tags, params: CompanyParams, response: { 200: SubscriptionAnswer, ...errorResponses } } },
    async (request) => ({ data: await getSubscription(ctx, request.params.companyId, request.auth!.userId) }),
  );
  app.post(
    '/api/company/:companyId/subscription/cancel',
    { config: { access: c.manage }, schema: { tags, params: CompanyParams, body: CancelInput, response: { 200: SubscriptionAnswer, ...errorResponses } } },
    async (request) => cancelSubscription(ctx, request.params.companyId, request.auth!.userId, request.body.downsell_plan_id),
  );
  app.post(
    '/api/company/:companyId/subscription/clear-pending-cancel',
    { config: { access: c.manage }, schema: { tags, params: CompanyParams, response: { 200: SubscriptionAnswer, ...errorResponses } } },
    async (request) => clearPendingCancel(ctx, request.params.companyId, request.auth!.userId),
  );
  app.post(
    '/api/company/:companyId/subscription/revert-product-change',
    { config: { access: c.manage }, schema: { tags, params: CompanyParams, response: { 200: SubscriptionAnswer, ...errorResponses } } },
    async (request) => revertPendingChange(ctx, request.params.companyId, request.auth!.userId),
  );
  app.post(
    '/api/company/:companyId/subscription/migrate/preview',
    {
      config: { access: c.read },
      schema: { tags, params: CompanyParams, body: MigrateInput, response: { 200: z.object({ data: MigrationPreview }), ...errorResponses } },
    },
    async (request) => ({ data: (await planMigration(ctx, request.params.companyId, request.auth!.userId, request.body.plan_id)).preview }),
  );
  app.post(
    '/api/company/:companyId/subscription/migrate',
    {
      config: { access: c.manage },
      schema: { tags, params: CompanyParams, body: MigrateApplyInput, response: { 200: MigrationAnswer, ...errorResponses } },
    },
    async (request) =>
      migrateSubscription(ctx, request.params.companyId, request.auth!.userId, request.body.plan_id, {
        expectedAmountCents: request.body.expected_amount_cents,
        prorationDate: request.body.proration_date ? new Date(request.body.proration_date) : undefined,
      }),
  );
  app.put(
    '/api/company/:companyId/subscription',
    {
      config: { access: c.manage },
      schema: { tags, params: CompanyParams, body: SubscriptionUpdateInput, response: { 200: SubscriptionAnswer, ...errorResponses } },
    },
    async (request) => scheduleProductChange(ctx, request.params.companyId, request.auth!.userId, request.body.plan_id),
  );
  app.put(
    '/api/company/:companyId/subscription/customer',
    {
      config: { access: c.manage },
      schema: { tags, params: CompanyParams, body: CustomerUpdateInput, response: { 200: SubscriptionAnswer, ...errorResponses } },
    },
    async (request) => updateCustomer(ctx, request.params.companyId, request.auth!.userId, request.body),
  );
  app.post(
    '/api/company/:companyId/subscription/features',
    {
      config: { access: c.manage },
      schema: { tags, params: CompanyParams, body: FeatureToggleInput, response: { 200: SubscriptionAnswer, ...errorResponses } },
    },
    async (request) => toggleFeature(ctx, request.params.companyId, request.auth!.userId, request.body.feature, request.body.enabled),
  );
  app.get(
    '/api/company/:companyId/subscription/yearly-offers',
    { config: { access: c.read }, schema: { tags, params: CompanyParams, response: { 200: YearlyOfferList, ...errorResponses } } },
    async (request) => ({ data: await yearlyOffers(ctx, request.params.companyId, request.auth!.userId) }),
  );
  app.get(
    '/api/company/:companyId/usage',
    { config: { access: c.read }, schema: { tags, params: CompanyParams, response: { 200: UsageAnswer, ...errorResponses } } },
    async (request) => {
      const { subscription } = await ensureBilling(ctx, request.params.companyId, request.auth!.userId);
      const plan = (await billingRepository.plan(ctx.db, subscription.plan_id))!;
      return { data: await currentUsage(ctx, request.params.companyId, plan, subscription.current_period_start, subscription.current_period_end) };
    },
  );
  app.get(
    '/api/company/:companyId/invoices',
    { config: { access: c.read }, schema: { tags, params: CompanyParams, response: { 200: InvoiceList, ...errorResponses } } },
    async (request) => {
      await ensureBilling(ctx, request.params.companyId, request.auth!.userId);
      return { data: await listInvoices(ctx, request.params.companyId) };
    },
  );
  app.get(
    '/api/company/:companyId/invoices/upcoming',
    { config: { access: c.read }, schema: { tags, params: CompanyParams, response: { 200: UpcomingInvoiceAnswer, ...errorResponses } } },
    async (request) => ({ data: await upcomingInvoice(ctx, request.params.companyId, request.auth!.userId) }),
  );
  // The buy dialog's price (roles that may buy numbers; the billing role cannot buy and the administrator cannot read billing).
  app.get(
    '/api/company/:companyId/billing/number-price',
    {
      config: { access: access.company('numbers.purchase') },
      schema: { tags, params: CompanyParams, querystring: NumberPriceQuery, response: { 200: NumberPriceAnswer, ...errorResponses } },
    },
    async (request) => ({ data: await numberPrice(ctx, request.params.companyId, request.query.count) }),
  );
  app.get(
    '/api/company/:companyId/invoices/:invoiceId/pdf',
    {
      config: { access: c.read },
      schema: { tags, params: InvoiceParams, response: { 200: fileAnswer('application/pdf', 'The invoice as a PDF file (attachment)'), ...errorResponses } },
    },
    async (request, reply) => {
      const { filename, pdf } = await invoicePdf(ctx, request.params.companyId, request.params.invoiceId);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  // The gateway's webhook: the raw body is kept for the signature (Stripe signs the exact bytes).
  await app.register(async (child) => {
    child.removeContentTypeParser('application/json');
    child.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    const answers = { 200: textAnswer('application/json', 'Received'), 400: ErrorBody, 422: ErrorBody };
    child.post('/webhooks/stripe', { config: { access: access.webhook() }, schema: { tags, response: answers } }, async (request, reply) => {
      let event;
      try {
        event = paymentGateway(ctx.config).parseWebhook(String(request.body ?? ''), request.headers['stripe-signature'] as string | undefined);
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw new AppError(400, `Invalid webhook signature: ${error.message}`);
        throw error;
      }
      let after: (() => Promise<void>) | undefined;
      await handleOnce(ctx, reply, `stripe:${event.id}`, async (tx) => {
        const invoiceId = Number((event.object.metadata as Record<string, string> | undefined)?.invoice_id);
        const known = Number.isSafeInteger(invoiceId) && invoiceId > 0;
        if (event.type === 'payment_intent.payment_failed' && known) {
          const error = (event.object.last_payment_error as { message?: unknown } | undefined)?.message;
          await recordGatewayFailure(tx, invoiceId, typeof error === 'string' ? error : 'The payment did not go through.');
        }
        // Applied in the receipt's transaction: a failure rolls back the payment and the claim together, so the
        // gateway's redelivery applies it (once) instead of being answered as a duplicate.
        if (event.type === 'payment_intent.succeeded' && known) {
          const paymentId = typeof event.object.id === 'string' ? event.object.id : null;
          const applied = await applyInvoicePayment(ctx, tx, invoiceId, paymentId);
          if (applied?.reactivated) after = () => auditReactivation(ctx, applied.companyId);
        }
        // The saved card changed at the gateway (docs/billing.md "Routes"): the card updater's new expiry or number,
        // or the card removed (the next charge then fails until a card is added).
        const pm = typeof event.object.id === 'string' && event.object.id.startsWith('pm_') ? event.object.id : null;
        if (pm && (event.type === 'payment_method.updated' || event.type === 'payment_method.automatically_updated')) {
          const card = event.object.card as { brand?: unknown; last4?: unknown; exp_month?: unknown; exp_year?: unknown } | undefined;
          if (card && typeof card.last4 === 'string' && Number.isInteger(card.exp_month) && Number.isInteger(card.exp_year))
            await billingRepository.updateAccountsByPaymentMethod(tx, pm, {
              card_brand: typeof card.brand === 'string' ? card.brand : null,
              card_last4: card.last4,
              card_exp_month: card.exp_month as number,
              card_exp_year: card.exp_year as number,
            });
        }
        if (pm && event.type === 'payment_method.detached')
          await billingRepository.updateAccountsByPaymentMethod(tx, pm, {
            payment_method_id: null,
            card_brand: null,
            card_last4: null,
            card_exp_month: null,
            card_exp_year: null,
          });
        return { response: { contentType: 'application/json', body: JSON.stringify({ received: true }) }, afterCommit: after };
      });
      return reply;
    });
  });

  const gateway = paymentGateway(ctx.config);
  if (gateway instanceof SandboxGateway) registerSandboxGateway(app, gateway);
}

const TokenizeBody = z.object({
  number: z.string().max(30),
  exp_month: z.coerce.number(),
  exp_year: z.coerce.number(),
  cvc: z.string().max(4),
});

/** The sandbox gateway's own endpoints (not the product's: card numbers reach only these, never the billing routes). */
function registerSandboxGateway(app: App, gateway: SandboxGateway): void {
  const tags = ['sandbox-payments'];
  app.post(
    `${SANDBOX_BASE}/payment_methods`,
    {
      config: { access: access.public() },
      schema: { tags, body: TokenizeBody, response: { 200: z.record(z.string(), z.unknown()), 401: ErrorBody, 422: ErrorBody } },
    },
    async (request, reply) => {
      if (request.headers.authorization !== `Bearer ${SANDBOX_PUBLISHABLE_KEY}`) return reply.status(401).send({ message: 'Invalid API key provided.' });
      try {
        return { object: 'payment_method', type: 'card', ...gateway.tokenize(request.body) };
      } catch (error) {
        if (error instanceof SandboxCardFieldError) throw new ValidationError({ [error.param]: [error.message] }, error.message);
        throw error;
      }
    },
  );
  app.post(
    `${SANDBOX_BASE}/setup_intents/authenticate`,
    {
      config: { access: access.public() },
      schema: {
        tags,
        body: z.object({ setup_intent: z.string().max(4000) }),
        response: { 200: z.object({ id: z.string(), status: z.string() }), 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request, reply) => {
      const id = gateway.authenticate(request.body.setup_intent);
      if (!id) return reply.status(404).send({ message: 'No such setup intent.' });
      return { id, status: 'succeeded' };
    },
  );
}
