/**
 * Consumer app-store subscription routes (docs/consumer-area.md "Store subscriptions"). HTTP only.
 *
 * Webhooks (`access.webhook()`: public, authenticated by the store's own signature):
 * - `POST /api/caddy/stores/apple/notifications` — App Store Server Notifications V2 `{signedPayload}`; a payload
 *   whose JWS does not verify answers 401 and changes nothing.
 * - `POST /api/caddy/stores/google/notifications` — Google Cloud Pub/Sub push of Google Play real-time developer
 *   notifications; the push's OIDC token (`Authorization: Bearer`) is checked before the body is read (401).
 * Both answer 200 `{received, duplicate, applied, status}` once taken (a replay: `duplicate`, nothing changed), 404 when
 * the store is not configured here, 5xx when the store cannot be reached to verify (the store retries).
 *
 * Sandbox store (CADDY_STORES=sandbox only; a consumer session, `consumer('account')`): `POST
 * /api/caddy/stores/sandbox/subscribe`, `…/cancel`, `…/notifications` make the sandbox store change the account's
 * subscription and post the store's signed notification to the webhook above, through the whole HTTP stack, as the
 * store would; they answer the webhook's answer and the account's subscription after it.
 */
import {
  CaddyAppleNotificationInput,
  CaddyPubSubPushInput,
  CaddySandboxAnswer,
  CaddySandboxCancelInput,
  CaddySandboxNotificationInput,
  CaddySandboxSubscribeInput,
  CaddyStoreWebhookAnswer,
  ErrorBody,
  errorResponses,
  type CaddyPlan,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { AppError, UnauthenticatedError, ValidationError } from '../../platform/http/errors.js';
import { accountOfToken } from './caddy.accounts.js';
import { caddyRepository, type CaddyAccountRow } from './caddy.repository.js';
import { consumer, type ConsumerAccess } from './caddy.routes.js';
import {
  APPLE_WEBHOOK_PATH,
  caddyStores,
  GOOGLE_WEBHOOK_PATH,
  StoreNotConfiguredError,
  StoreSignatureError,
  type CaddyStores,
  type SandboxStore,
} from './stores/index.js';
import { SANDBOX_APPLE_TYPES, SANDBOX_GOOGLE_TYPES, type StoreDelivery } from './stores/sandbox/sandbox-store.js';
import { appleNotice, applyNotice, googleNotice, subscriptionOf } from './stores/subscriptions.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The consumer area's app stores of this app (caddy.stores.routes.ts): the sandbox store's deliveries in tests. */
    caddyStores?: ReturnType<typeof caddyStores>;
  }
}

const tags = ['caddy'];
type PaidPlan = Exclude<CaddyPlan, 'starter'>;
const WebhookAnswers = { 200: CaddyStoreWebhookAnswer, ...errorResponses };

/** Store errors in the spec's error shape: a signature that does not verify 401, a store not configured 404. */
function storeError(error: unknown): never {
  if (error instanceof StoreSignatureError) throw new AppError(401, error.message);
  if (error instanceof StoreNotConfiguredError) throw new AppError(404, error.message);
  throw error;
}

/** Registers the store webhooks and, in sandbox mode, the sandbox store's calls (in a scope with the consumer guard). */
export async function registerCaddyStoreRoutes(app: App, ctx: AppContext): Promise<void> {
  const stores = caddyStores(ctx);
  app.decorate('caddyStores', stores);
  if (stores.sandbox) {
    const sandbox = stores.sandbox;
    // The test chain is made off the request path (key pairs in the thread pool) once the server is up.
    app.addHook('onReady', async () => {
      void sandbox.warm().catch((e: unknown) => ctx.log.warn({ err: e }, 'caddy: sandbox store keys'));
    });
  }
  await app.register(async (scope) => {
    const s = scope as unknown as App;
    s.addHook('onRoute', (route) => {
      const who = (route.config as { consumer?: ConsumerAccess } | undefined)?.consumer;
      const schema = route.schema as { description?: string } | undefined;
      if (!schema) return;
      if (!who) {
        // The store webhooks: public, the store's own signature is the authentication (the consumer area's wording).
        route.schema = {
          ...route.schema,
          description: (schema.description ?? '').replace(
            'Access: signed carrier callbacks.',
            "Access: anyone (consumer area: the store's signature or push token authenticates the call; no session).",
          ),
        } as typeof route.schema;
        return;
      }
      if (who !== 'account') return;
      route.schema = {
        ...route.schema,
        'x-access': { kind: 'consumer-account' },
        description: (schema.description ?? '').replace(
          'Access: anyone, signed in or not.',
          'Access: a consumer session (`Authorization: Bearer <token>` of `POST /caddy/auth/login`); sandbox store only (CADDY_STORES=sandbox).',
        ),
      } as typeof route.schema;
    });
    // The consumer guard of the sandbox calls (the same rule as caddy.routes.ts: consumer sessions only).
    s.addHook('onRequest', async (request) => {
      if (request.routeOptions.config?.consumer !== 'account') return;
      const header = request.headers.authorization;
      const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
      const found = bearer ? await accountOfToken(ctx, bearer) : null;
      if (!found) throw new UnauthenticatedError();
      request.caddy = found;
    });
    registerWebhooks(s, ctx, stores);
    if (stores.sandbox) registerSandbox(s, ctx, stores.sandbox);
  });
}

function registerWebhooks(app: App, ctx: AppContext, stores: CaddyStores): void {
  app.post(
    APPLE_WEBHOOK_PATH,
    {
      // A notification with both signed infos (three certificates each) is 10–15 K characters.
      config: { access: access.webhook(), maxTextLength: 65_536 },
      schema: {
        operationId: 'receiveCaddyAppleNotification',
        tags,
        summary: 'App Store Server Notifications V2 (signed JWS): updates the linked account’s subscription (401: signature does not verify)',
        body: CaddyAppleNotificationInput,
        response: WebhookAnswers,
      },
    },
    async (request) => {
      const notice = await appleNotice(stores, request.body.signedPayload).catch(storeError);
      return applyNotice(ctx, notice);
    },
  );
  app.post(
    GOOGLE_WEBHOOK_PATH,
    {
      config: { access: access.webhook(), maxTextLength: 65_536 },
      // The push's OIDC token first: a refused caller learns nothing from validation errors.
      onRequest: async (request: FastifyRequest) => {
        if (!stores.google) throw new AppError(404, new StoreNotConfiguredError('google').message);
        await stores.google.verifyPush(request.headers.authorization).catch(storeError);
      },
      schema: {
        operationId: 'receiveCaddyGoogleNotification',
        tags,
        summary: 'Google Play real-time developer notifications (Pub/Sub push with an OIDC token); the subscription is read back from the Play Developer API',
        body: CaddyPubSubPushInput,
        response: WebhookAnswers,
      },
    },
    async (request) => {
      const notice = await googleNotice(stores, request.body).catch(storeError);
      if (!notice) return { received: true as const, duplicate: false, applied: false, status: null };
      return applyNotice(ctx, notice);
    },
  );
}

/** Posts a store delivery to the product's own webhook (through the whole HTTP stack, as the store would). */
async function deliver(app: App, delivery: StoreDelivery): Promise<{ status: number; applied: boolean; duplicate: boolean }> {
  const res = await app.inject({ method: 'POST', url: delivery.url, headers: delivery.headers, payload: JSON.stringify(delivery.body) });
  const body = res.json<{ applied?: boolean; duplicate?: boolean; message?: string }>();
  if (res.statusCode !== 200) throw new AppError(502, `The webhook refused the sandbox store's notification (${res.statusCode}): ${body.message ?? ''}`);
  return { status: res.statusCode, applied: Boolean(body.applied), duplicate: Boolean(body.duplicate) };
}

function registerSandbox(app: App, ctx: AppContext, sandbox: SandboxStore): void {
  const me = (request: FastifyRequest): CaddyAccountRow => {
    if (!request.caddy) throw new UnauthenticatedError();
    return request.caddy.account;
  };
  const run = async (account: CaddyAccountRow, store: 'apple' | 'google', type: string, opts: Parameters<SandboxStore['simulate']>[3]) => {
    const delivery = await sandbox.simulate(account.iap_id, store, type, opts);
    const webhook = await deliver(app, delivery);
    const after = (await caddyRepository.findAccount(ctx.db, account.id)) ?? account;
    return {
      message: `The sandbox store sent ${type}.`,
      data: { notification: { store, type, id: delivery.notificationId }, webhook, subscription: subscriptionOf(after) },
    };
  };
  const answers = { 200: CaddySandboxAnswer, 409: ErrorBody, 502: ErrorBody, ...errorResponses };
  app.post(
    '/api/caddy/stores/sandbox/subscribe',
    {
      config: consumer('account'),
      schema: {
        operationId: 'subscribeCaddySandboxStore',
        tags,
        summary: 'Sandbox store: subscribe to a plan (the store posts SUBSCRIBED / SUBSCRIPTION_PURCHASED to the webhook)',
        body: CaddySandboxSubscribeInput,
        response: answers,
      },
    },
    async (request) => {
      const { store, plan } = request.body as { store: 'apple' | 'google'; plan: PaidPlan };
      return run(me(request), store, store === 'apple' ? 'SUBSCRIBED' : 'SUBSCRIPTION_PURCHASED', { plan });
    },
  );
  app.post(
    '/api/caddy/stores/sandbox/cancel',
    {
      config: consumer('account'),
      schema: {
        operationId: 'cancelCaddySandboxStore',
        tags,
        summary: 'Sandbox store: cancel (turn auto-renew off); service continues until the expiry',
        body: CaddySandboxCancelInput,
        response: answers,
      },
    },
    async (request) => {
      const account = me(request);
      const store = request.body.store ?? (account.subscription_store === 'google' ? 'google' : 'apple');
      return store === 'apple'
        ? run(account, store, 'DID_CHANGE_RENEWAL_STATUS', { subtype: 'AUTO_RENEW_DISABLED' })
        : run(account, store, 'SUBSCRIPTION_CANCELED', {});
    },
  );
  app.post(
    '/api/caddy/stores/sandbox/notifications',
    {
      config: consumer('account'),
      schema: {
        operationId: 'sendCaddySandboxStoreNotification',
        tags,
        summary: 'Sandbox store: send any of the store’s notification types about your subscription (renew, fail, expire, refund…)',
        body: CaddySandboxNotificationInput,
        response: answers,
      },
    },
    async (request) => {
      const { store, type, subtype, plan } = request.body as {
        store: 'apple' | 'google';
        type: string;
        subtype?: string;
        plan?: PaidPlan;
      };
      const known: readonly string[] = store === 'apple' ? SANDBOX_APPLE_TYPES : SANDBOX_GOOGLE_TYPES;
      if (!known.includes(type))
        throw new ValidationError({ type: [`The sandbox ${store === 'apple' ? 'App Store' : 'Google Play'} sends ${known.join(', ')}.`] });
      if (plan === undefined && (type === 'SUBSCRIBED' || type === 'SUBSCRIPTION_PURCHASED' || type === 'SUBSCRIPTION_PENDING_PURCHASE_CANCELED')) {
        throw new ValidationError({ plan: ['The plan is required to subscribe.'] });
      }
      return run(me(request), store, type, { subtype: subtype ?? null, plan });
    },
  );
}
