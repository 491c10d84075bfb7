/**
 * Integrations HTTP routes (spec 002 §7 "Integrations"; docs/integrations.md "Routes"; contracts `ad-integrations.ts`).
 * Everything is `integrations.manage` (owners and administrators) except a call's deliveries (`calls.read`), the
 * providers' return (`GET /api/oauth-integrations/{provider}/callback`: the signed-in person who started it; the
 * service checks the state is theirs) and the sandbox authorization server's consent page (public, sandbox only).
 */
import {
  AD_PROVIDER_NAMES,
  AdActivateInput,
  AdCallDeliveryList,
  AdCallParams,
  AdDeliveryList,
  AdDeliveryParams,
  AdDeliveryQuery,
  AdfIntegrationInput,
  AdfIntegrationUpdate,
  AdIntegrationAnswer,
  AdIntegrationList,
  AdIntegrationParams,
  AdLookupAnswer,
  AdLookupParams,
  AdLookupQuery,
  AdMessageAnswer,
  AdProviderCardList,
  AdProviderParams,
  AdRedirectAnswer,
  AdRedirectInput,
  AdReplayAnswer,
  AdReplayInput,
  AdUpdateInput,
  CompanyParams,
  Ga4IntegrationInput,
  Ga4IntegrationUpdate,
  OAUTH_PROVIDERS,
  errorResponses,
} from '@switchboard/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import { fileAnswer, redirectAnswer } from '../../platform/http/openapi.js';
import type { App } from '../../platform/http/app-type.js';
import type { IntegrationSettings, ProviderId } from './providers/provider.js';
import { sandboxAuthServer } from './sandbox-oauth.js';
import {
  activateIntegration,
  createAdf,
  createGa4,
  deactivateIntegration,
  deleteIntegration,
  deliveriesOfCall,
  getIntegration,
  handleCallback,
  listDeliveries,
  listOauthIntegrations,
  listOf,
  listProviderCards,
  replayDeliveries,
  retryDelivery,
  runLookup,
  startRedirect,
  syncIntegration,
  updateAdf,
  updateGa4,
  updateOauthIntegration,
} from './integrations.service.js';
import { addIntegrationExamples } from './integrations.openapi.js';

const C = '/api/companies/:companyId';
const AnswerWithMessage = AdIntegrationAnswer.extend({ message: z.string().optional() });
const OauthIdParams = AdIntegrationParams;
const CallbackParams = z.object({ provider: z.enum(OAUTH_PROVIDERS) });
const q = z.string().max(4000).optional();
/** What providers send back (RFC 6749 §4.1.2, RFC 9207 `iss`; Google adds scope/authuser/prompt/hd). */
const CallbackQuery = z.object({ code: q, state: q, error: q, error_description: q, scope: q, iss: q, authuser: q, prompt: q, hd: q });
const SandboxParams = z.object({ provider: z.enum(OAUTH_PROVIDERS) });
/** The authorization request's parameters the sandbox reads (others are ignored, as a provider would). */
const SandboxQuery = z.object({
  client_id: q,
  redirect_uri: q,
  state: q,
  scope: q,
  response_type: q,
  code_challenge: q,
  code_challenge_method: q,
  decision: z.enum(['allow', 'deny']).optional(),
});

/** Registers the integrations routes. */
export async function registerIntegrationRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['integrations'];
  // The examples of these operations in the OpenAPI document (integrations.openapi.ts), checked at registration.
  app.addHook('onRoute', addIntegrationExamples);
  const manage = { access: access.company('integrations.manage') };
  const settings = (s: unknown) => s as IntegrationSettings | undefined;

  app.get(
    `${C}/integration-providers`,
    {
      config: manage,
      schema: { tags, operationId: 'listIntegrationProviders', params: CompanyParams, response: { 200: AdProviderCardList, ...errorResponses } },
    },
    async (r) => listProviderCards(ctx, r.params.companyId),
  );

  // GA4 (spec: GET, POST /companies/{companyId}/ga4integrations; PUT, DELETE …/{id}).
  app.get(
    `${C}/ga4integrations`,
    { config: manage, schema: { tags, operationId: 'listGa4Integrations', params: CompanyParams, response: { 200: AdIntegrationList, ...errorResponses } } },
    async (r) => listOf(ctx, r.params.companyId, 'ga4'),
  );
  app.post(
    `${C}/ga4integrations`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'createGa4Integration',
        params: CompanyParams,
        body: Ga4IntegrationInput,
        response: { 200: AnswerWithMessage, ...errorResponses },
      },
    },
    async (r) => createGa4(ctx, r.params.companyId, r.auth!.userId, { ...r.body, settings: settings(r.body.settings) }),
  );
  app.put(
    `${C}/ga4integrations/:id`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'updateGa4Integration',
        params: AdIntegrationParams,
        body: Ga4IntegrationUpdate,
        response: { 200: AdIntegrationAnswer, ...errorResponses },
      },
    },
    async (r) => updateGa4(ctx, r.params.companyId, r.params.id, { ...r.body, settings: settings(r.body.settings) }),
  );
  app.delete(
    `${C}/ga4integrations/:id`,
    {
      config: manage,
      schema: { tags, operationId: 'deleteGa4Integration', params: AdIntegrationParams, response: { 200: AdMessageAnswer, ...errorResponses } },
    },
    async (r) => deleteIntegration(ctx, r.params.companyId, r.params.id, ['ga4']),
  );

  // OAuth integrations: generic list, get, delete.
  app.get(
    `${C}/oauth-integrations`,
    { config: manage, schema: { tags, operationId: 'listOauthIntegrations', params: CompanyParams, response: { 200: AdIntegrationList, ...errorResponses } } },
    async (r) => listOauthIntegrations(ctx, r.params.companyId),
  );
  app.get(
    `${C}/oauth-integrations/:id`,
    { config: manage, schema: { tags, operationId: 'getOauthIntegration', params: OauthIdParams, response: { 200: AdIntegrationAnswer, ...errorResponses } } },
    async (r) => getIntegration(ctx, r.params.companyId, r.params.id, OAUTH_PROVIDERS),
  );
  app.delete(
    `${C}/oauth-integrations/:id`,
    { config: manage, schema: { tags, operationId: 'deleteOauthIntegration', params: OauthIdParams, response: { 200: AdMessageAnswer, ...errorResponses } } },
    async (r) => deleteIntegration(ctx, r.params.companyId, r.params.id, OAUTH_PROVIDERS),
  );

  // Per provider: redirect (POST; Slack GET), activate, sync, deactivate, update.
  app.post(
    `${C}/oauth-integrations/:provider/redirect`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'startOauthIntegrationRedirect',
        params: AdProviderParams,
        body: AdRedirectInput,
        response: { 200: AdRedirectAnswer, ...errorResponses },
      },
    },
    async (r) => startRedirect(ctx, r.auth!.userId, r.params.companyId, r.params.provider),
  );
  app.get(
    `${C}/oauth-integrations/slackbot/redirect`,
    { config: manage, schema: { tags, operationId: 'startSlackRedirect', params: CompanyParams, response: { 200: AdRedirectAnswer, ...errorResponses } } },
    async (r) => startRedirect(ctx, r.auth!.userId, r.params.companyId, 'slackbot'),
  );
  app.put(
    `${C}/oauth-integrations/:provider/activate`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'activateOauthIntegration',
        params: AdProviderParams,
        body: AdActivateInput,
        response: { 200: AnswerWithMessage, ...errorResponses },
      },
    },
    async (r) => activateIntegration(ctx, r.params.companyId, r.params.provider, { ...r.body, settings: settings(r.body.settings) }),
  );
  app.put(
    `${C}/oauth-integrations/slackbot/configure`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'configureSlackIntegration',
        params: CompanyParams,
        body: AdActivateInput,
        response: { 200: AnswerWithMessage, ...errorResponses },
      },
    },
    async (r) => activateIntegration(ctx, r.params.companyId, 'slackbot', { ...r.body, settings: settings(r.body.settings) }),
  );
  app.put(
    `${C}/oauth-integrations/:provider/sync`,
    {
      config: manage,
      schema: { tags, operationId: 'syncOauthIntegration', params: AdProviderParams, response: { 200: AdIntegrationAnswer, ...errorResponses } },
    },
    async (r) => syncIntegration(ctx, r.params.companyId, r.params.provider),
  );
  app.put(
    `${C}/oauth-integrations/:provider/deactivate`,
    {
      config: manage,
      schema: { tags, operationId: 'deactivateOauthIntegration', params: AdProviderParams, response: { 200: AnswerWithMessage, ...errorResponses } },
    },
    async (r) => deactivateIntegration(ctx, r.params.companyId, r.params.provider),
  );
  app.put(
    `${C}/oauth-integrations/:provider/update`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'updateOauthIntegration',
        params: AdProviderParams,
        body: AdUpdateInput,
        response: { 200: AdIntegrationAnswer, ...errorResponses },
      },
    },
    async (r) => updateOauthIntegration(ctx, r.params.companyId, r.params.provider, { ...r.body, settings: settings(r.body.settings) }),
  );
  // Lookups: googleads accessible-customers|hierarchy|info|campaigns|conversion-actions, metaads business-managers|ad-accounts|pixels|conversions, microsoftads accounts|managers, slackbot channels.
  app.get(
    `${C}/oauth-integrations/:provider/:lookup`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'runOauthIntegrationLookup',
        params: AdLookupParams,
        querystring: AdLookupQuery,
        response: { 200: AdLookupAnswer, ...errorResponses },
      },
    },
    async (r) => runLookup(ctx, r.params.companyId, r.params.provider, r.params.lookup, r.query),
  );

  // The providers' return (Slack's "callback" too): a browser redirect, answered with a redirect to the app.
  app.get(
    '/api/oauth-integrations/:provider/callback',
    {
      config: { access: access.signedIn() },
      schema: {
        tags,
        operationId: 'completeOauthIntegration',
        params: CallbackParams,
        querystring: CallbackQuery,
        response: { 302: redirectAnswer('To the Integrations page with `connected={id}` or `error=state|denied|refused|provider`'), ...errorResponses },
      },
    },
    async (r, reply) =>
      reply.redirect(
        await handleCallback(
          ctx,
          r.auth!.userId,
          r.params.provider,
          Object.fromEntries(Object.entries(r.query).filter((kv): kv is [string, string] => typeof kv[1] === 'string')),
        ),
      ),
  );

  // ADF lead export (shape not shown in the spec: designed).
  app.get(
    `${C}/adf-integrations`,
    { config: manage, schema: { tags, operationId: 'listAdfIntegrations', params: CompanyParams, response: { 200: AdIntegrationList, ...errorResponses } } },
    async (r) => listOf(ctx, r.params.companyId, 'adf'),
  );
  app.post(
    `${C}/adf-integrations`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'createAdfIntegration',
        params: CompanyParams,
        body: AdfIntegrationInput,
        response: { 200: AdIntegrationAnswer, ...errorResponses },
      },
    },
    async (r) => createAdf(ctx, r.params.companyId, r.auth!.userId, { ...r.body, settings: settings(r.body.settings) }),
  );
  app.put(
    `${C}/adf-integrations/:id`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'updateAdfIntegration',
        params: AdIntegrationParams,
        body: AdfIntegrationUpdate,
        response: { 200: AdIntegrationAnswer, ...errorResponses },
      },
    },
    async (r) => updateAdf(ctx, r.params.companyId, r.params.id, { ...r.body, settings: settings(r.body.settings) }),
  );
  app.delete(
    `${C}/adf-integrations/:id`,
    {
      config: manage,
      schema: { tags, operationId: 'deleteAdfIntegration', params: AdIntegrationParams, response: { 200: AdMessageAnswer, ...errorResponses } },
    },
    async (r) => deleteIntegration(ctx, r.params.companyId, r.params.id, ['adf']),
  );

  // Delivery log, retry, replay; a call's deliveries.
  app.get(
    `${C}/integrations/:id/deliveries`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'listIntegrationDeliveries',
        params: AdIntegrationParams,
        querystring: AdDeliveryQuery,
        response: { 200: AdDeliveryList, ...errorResponses },
      },
    },
    async (r) => listDeliveries(ctx, r.params.companyId, r.params.id, r.query),
  );
  app.post(
    `${C}/integrations/:id/deliveries/:deliveryId/retry`,
    {
      config: manage,
      schema: { tags, operationId: 'retryIntegrationDelivery', params: AdDeliveryParams, response: { 200: AdMessageAnswer, ...errorResponses } },
    },
    async (r) => retryDelivery(ctx, r.params.companyId, r.params.id, r.params.deliveryId),
  );
  app.post(
    `${C}/integrations/:id/replay`,
    {
      config: manage,
      schema: {
        tags,
        operationId: 'replayIntegrationDeliveries',
        params: AdIntegrationParams,
        body: AdReplayInput,
        response: { 200: AdReplayAnswer, ...errorResponses },
      },
    },
    async (r) => replayDeliveries(ctx, r.params.companyId, r.params.id, new Date(r.body.since)),
  );
  app.get(
    `${C}/calls/:callId/integration-deliveries`,
    {
      config: { access: access.company('calls.read') },
      schema: { tags, operationId: 'listCallIntegrationDeliveries', params: AdCallParams, response: { 200: AdCallDeliveryList, ...errorResponses } },
    },
    async (r) => deliveriesOfCall(ctx, r.params.companyId, r.params.callId),
  );

  // The sandbox authorization server's consent page (INTEGRATIONS=sandbox only).
  if (ctx.config.integrations.mode === 'sandbox') {
    app.get(
      '/api/integrations/sandbox-oauth/:provider/authorize',
      {
        config: { access: access.public() },
        schema: {
          tags,
          operationId: 'showSandboxOauthConsent',
          params: SandboxParams,
          querystring: SandboxQuery,
          response: { 200: fileAnswer('text/html', 'The sandbox consent page'), 400: fileAnswer('text/plain', 'invalid_request'), ...errorResponses },
        },
      },
      async (r, reply) => {
        const html = sandboxAuthServer.consentPage(r.params.provider, AD_PROVIDER_NAMES[r.params.provider], r.query);
        if (!html) return reply.code(400).type('text/plain').send('invalid_request');
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
      },
    );
    app.get(
      '/api/integrations/sandbox-oauth/:provider/approve',
      {
        config: { access: access.public() },
        schema: {
          tags,
          operationId: 'answerSandboxOauthConsent',
          params: SandboxParams,
          querystring: SandboxQuery,
          response: {
            302: redirectAnswer('Back to the redirect URI with `code` or `error=access_denied`'),
            400: fileAnswer('text/plain', 'invalid_request'),
            ...errorResponses,
          },
        },
      },
      async (r, reply) => {
        const to = sandboxAuthServer.decide(r.params.provider, r.query);
        if (!to) return reply.code(400).type('text/plain').send('invalid_request');
        return reply.redirect(to);
      },
    );
  }
  void ({} as ProviderId);
}
