/**
 * The integrations service (spec 002 §7 "Integrations"; docs/integrations.md): provider cards, GA4 and ADF CRUD, the
 * OAuth integrations (list, get, delete, redirect, callback, activate, sync, deactivate, update), lookups, the delivery
 * log with retry and replay, and a call's deliveries. Tenant checks are the routes' declarations; every query here is
 * scoped by the company of the request.
 */
import type { AdDelivery, AdIntegration, AdProvider } from '@switchboard/contracts';
import { AD_INTEGRATION_MESSAGES, AD_PROVIDERS, AD_PROVIDER_NAMES } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { fieldError, NotFoundError } from '../../platform/http/errors.js';
import { findUser } from '../users/users.service.js';
import { callsInWindow } from './backfill.js';
import { aadOf, connectionOf, markNeedsReconnect } from './connection.js';
import { seal, sha256Hex, unseal } from './crypto.js';
import { buildItem, enqueueCallDeliveries, scheduleSend } from './deliveries.js';
import { integrationsRepository, type DeliveryRow, type IntegrationRow } from './integrations.repository.js';
import { exchangeCode, revokeToken, startAuthorization } from './oauth.js';
import type { DeliveryItem, IntegrationSettings, ProviderAdapter, ProviderId } from './providers/provider.js';
import { PermanentProviderError, RateLimitedError, ReconnectNeededError, RetryableProviderError } from './providers/provider.js';
import { providerModule } from './registry.js';
import { settingsOf } from './settings.js';

const STATE_TTL_MS = 10 * 60_000;

/** An answer the routes turn into 422 with the provider's message (a refused config, an unknown lookup). */
export class IntegrationSetupError extends Error {}

function adapterOf(provider: string): ProviderAdapter {
  const m = providerModule(provider as ProviderId);
  if (!m) throw fieldError('provider', AD_INTEGRATION_MESSAGES.notAvailable);
  return m.adapter;
}

/** The API shape of an integration row (no secrets, no tokens). */
export async function toApi(ctx: AppContext, row: IntegrationRow): Promise<AdIntegration> {
  const by = row.connected_by ? await findUser(ctx, row.connected_by) : undefined;
  const config = { ...(row.config ?? {}) };
  if (row.secrets_sealed) config.hasApiSecret = true;
  return {
    id: Number(row.id),
    company_id: Number(row.company_id),
    provider: row.provider as AdProvider,
    name: row.name || AD_PROVIDER_NAMES[row.provider as AdProvider],
    state: row.state,
    account_name: row.account_name,
    external_account_id: row.external_account_id,
    config,
    settings: settingsOf(row) as AdIntegration['settings'],
    backfill_days: row.backfill_days,
    connected_at: row.connected_at ? new Date(row.connected_at).toISOString() : null,
    connected_by_name: by ? `${by.first_name} ${by.last_name}`.trim() || by.email : null,
    last_delivery_at: row.last_delivery_at ? new Date(row.last_delivery_at).toISOString() : null,
    last_delivery_result: row.last_delivery_result,
    last_error: row.last_error,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** The cards of the Integrations page: every provider, whether this server has it, and the company's integrations. */
export async function listProviderCards(ctx: AppContext, companyId: number) {
  const rows = await integrationsRepository.list(ctx.db, companyId);
  const data = [];
  for (const provider of AD_PROVIDERS) {
    const adapter = providerModule(provider)?.adapter;
    data.push({
      provider,
      name: AD_PROVIDER_NAMES[provider],
      auth: provider === 'ga4' ? ('secret' as const) : provider === 'adf' ? ('email' as const) : ('oauth' as const),
      kinds: [...(adapter?.kinds ?? [])],
      lookups: Object.keys(adapter?.lookups ?? {}),
      available: Boolean(adapter),
      integrations: await Promise.all(rows.filter((r) => r.provider === provider).map((r) => toApi(ctx, r))),
    });
  }
  return { data, mode: ctx.config.integrations.mode };
}

async function mustFind(ctx: AppContext, companyId: number, id: number, providers?: readonly string[]): Promise<IntegrationRow> {
  const row = await integrationsRepository.find(ctx.db, companyId, id);
  if (!row || (providers && !providers.includes(row.provider))) throw new NotFoundError('Integration');
  return row;
}

async function mustFindProvider(ctx: AppContext, companyId: number, provider: string): Promise<IntegrationRow> {
  const row = await integrationsRepository.findByProvider(ctx.db, companyId, provider);
  if (!row) throw fieldError('provider', AD_INTEGRATION_MESSAGES.notConnected);
  return row;
}

// ─── OAuth integrations ──────────────────────────────────────────────────────────────────────────────────────

const OAUTH_LIST = ['googleads', 'microsoftads', 'metaads', 'slackbot', 'salesforce', 'gohighlevel', 'hubspot'] as const;

export async function listOauthIntegrations(ctx: AppContext, companyId: number) {
  return { data: await Promise.all((await integrationsRepository.list(ctx.db, companyId, OAUTH_LIST)).map((r) => toApi(ctx, r))) };
}
export async function getIntegration(ctx: AppContext, companyId: number, id: number, providers?: readonly string[]) {
  return { data: await toApi(ctx, await mustFind(ctx, companyId, id, providers)) };
}

/** Deletes an integration (its log goes with it), revoking its grant first (best effort). */
export async function deleteIntegration(ctx: AppContext, companyId: number, id: number, providers?: readonly string[]) {
  const row = await mustFind(ctx, companyId, id, providers);
  await revokeOf(ctx, row);
  await integrationsRepository.remove(ctx.db, row.id);
  return { message: AD_INTEGRATION_MESSAGES.deleted };
}

/** `POST …/{provider}/redirect` (Slack: GET): the provider's consent URL, with `state` bound to this user and company. */
export async function startRedirect(ctx: AppContext, userId: number, companyId: number, provider: ProviderId) {
  const adapter = adapterOf(provider);
  if (!adapter.oauth) throw fieldError('provider', AD_INTEGRATION_MESSAGES.notAvailable);
  let start;
  try {
    start = await startAuthorization(ctx, provider, adapter.oauth);
  } catch (error) {
    throw fieldError('provider', `${adapter.displayName} is not configured on this server: ${(error as Error).message}`);
  }
  await integrationsRepository.saveState(ctx.db, {
    state_hash: sha256Hex(start.state),
    company_id: companyId,
    user_id: userId,
    provider,
    code_verifier_sealed: await seal(ctx, start.codeVerifier, `state:${provider}`),
    redirect_uri: start.url,
    expires_at: new Date(Date.now() + STATE_TTL_MS),
  });
  return { url: start.url };
}

/**
 * `GET /oauth-integrations/{provider}/callback`: checks the `state` (known, unexpired, same provider and the same
 * signed-in user that started it), exchanges the code (PKCE), stores the sealed tokens, asks the adapter who got
 * connected. @returns the app path to send the browser to (with `connected=` or `error=`).
 */
export async function handleCallback(ctx: AppContext, userId: number, provider: ProviderId, query: Record<string, string>): Promise<string> {
  const back = (params: Record<string, string>) => `/integrations?${new URLSearchParams({ provider, ...params }).toString()}`;
  const adapter = providerModule(provider)?.adapter;
  if (!adapter?.oauth || !query.state) return back({ error: 'state' });
  const pending = await integrationsRepository.takeState(ctx.db, sha256Hex(query.state));
  if (!pending || pending.provider !== provider || Number(pending.user_id) !== userId || new Date(pending.expires_at).getTime() < Date.now()) {
    ctx.log.warn({ provider, userId }, 'integrations: OAuth callback with an unknown, expired or foreign state refused');
    return back({ error: 'state' });
  }
  if (query.error) return back({ error: query.error === 'access_denied' ? 'denied' : 'provider' });
  const companyId = Number(pending.company_id);
  try {
    const codeVerifier = await unseal(ctx, pending.code_verifier_sealed, `state:${provider}`);
    const grant = await exchangeCode(ctx, provider, adapter.oauth, query, { state: query.state, codeVerifier });
    let row = await integrationsRepository.upsertOauth(ctx.db, companyId, provider, {
      state: 'connected',
      connected_by: userId,
      connected_at: new Date(),
      last_error: null,
      reconnect_notified_at: null,
    });
    const aad = aadOf(row.id);
    row = await integrationsRepository.update(ctx.db, row.id, {
      access_token_sealed: await seal(ctx, grant.access_token, aad),
      refresh_token_sealed: grant.refresh_token ? await seal(ctx, grant.refresh_token, aad) : row.refresh_token_sealed,
      token_expires_at: grant.expires_in ? new Date(Date.now() + Number(grant.expires_in) * 1000) : null,
      scopes: typeof grant.scope === 'string' ? grant.scope : null,
    });
    const who = await adapter.identify(await connectionOf(ctx, row, adapter), grant);
    const wasActive = Boolean((row.config as Record<string, unknown>).activatedAt);
    row = await integrationsRepository.update(ctx.db, row.id, {
      external_account_id: who.externalAccountId,
      account_name: who.accountName,
      config: { ...(row.config ?? {}), ...(who.config ?? {}) },
      // A reconnect of an integration that was sending resumes it; its waiting deliveries go again.
      state: wasActive ? 'active' : 'connected',
    });
    if (wasActive) {
      await integrationsRepository.requeue(ctx.db, row.id, { states: ['waiting'] });
      await scheduleSend(ctx, row.id);
    }
    return back({ connected: String(row.id) });
  } catch (error) {
    ctx.log.warn({ provider, err: error }, 'integrations: OAuth code exchange failed');
    return back({ error: error instanceof ReconnectNeededError ? 'refused' : 'provider' });
  }
}

/** A sample item for `verify` (a call from the sandbox caller, now). */
function sampleItem(row: IntegrationRow, settings: IntegrationSettings): DeliveryItem {
  const now = new Date().toISOString();
  return {
    kind: 'call',
    deliveryKey: `${row.id}:verify`,
    occurredAt: now,
    call: {
      id: 0,
      direction: 'inbound',
      callerNumber: '+15555550100',
      trackingNumber: '+15555550199',
      trackingNumberName: 'Test',
      startedAt: now,
      durationS: 60,
      status: 'connected',
      answered: true,
      recordingUrl: null,
      transcript: null,
      summary: 'A test call from Switchboard.',
      outcome: null,
      departmentType: null,
      qualification: null,
      valueCents: settings.conversions.call?.valueCents ?? null,
      currency: settings.conversions.call?.currency ?? 'USD',
      url: '',
    },
    text: null,
    attribution: {
      source: 'google',
      medium: 'cpc',
      campaign: null,
      keyword: null,
      landingPage: null,
      referrer: null,
      gclid: 'TeSter-123',
      gbraid: null,
      wbraid: null,
      msclkid: null,
      fbclid: null,
      fbc: null,
      fbp: null,
      gaClientId: '1234567890.1700000000',
      gaSessionId: null,
      sessionStartedAt: null,
      clientIp: null,
      userAgent: null,
      firstTouch: null,
      lastTouch: null,
    },
    contact: { id: null, firstName: null, lastName: null, name: 'Test caller', email: null, phone: '+15555550100' },
    conversion: settings.conversions.call ?? null,
    previous: null,
    settings,
  };
}

function providerErrorToField(error: unknown, field = 'config'): never {
  if (error instanceof PermanentProviderError || error instanceof ReconnectNeededError) throw fieldError(field, error.message);
  if (error instanceof RateLimitedError || error instanceof RetryableProviderError)
    throw fieldError(field, `The provider did not answer: ${error.message}. Try again.`);
  throw error;
}

/**
 * `PUT …/{provider}/activate` (and Slack's `configure`): stores the choices, runs the provider's check (Google
 * `validateOnly`, Slack `conversations.info`…), makes the integration active and queues the backfill of the last N days.
 */
export async function activateIntegration(
  ctx: AppContext,
  companyId: number,
  provider: ProviderId,
  body: { config: Record<string, unknown>; settings?: IntegrationSettings; backfillDays?: number },
) {
  const adapter = adapterOf(provider);
  let row = await mustFindProvider(ctx, companyId, provider);
  if (row.state === 'needs_reconnect' || row.state === 'pending' || !row.access_token_sealed)
    throw fieldError('provider', AD_INTEGRATION_MESSAGES.notConnected);
  row = await integrationsRepository.update(ctx.db, row.id, {
    config: { ...(row.config ?? {}), ...body.config },
    ...(body.settings ? { settings: body.settings as unknown as Record<string, unknown> } : {}),
    ...(body.backfillDays !== undefined ? { backfill_days: body.backfillDays } : {}),
  });
  return finishActivation(ctx, row, adapter);
}

async function finishActivation(ctx: AppContext, row: IntegrationRow, adapter: ProviderAdapter) {
  let note: string;
  try {
    note = await adapter.verify(await connectionOf(ctx, row, adapter), sampleItem(row, settingsOf(row)));
  } catch (error) {
    if (error instanceof ReconnectNeededError) await markNeedsReconnect(ctx, row, adapter, error.message);
    providerErrorToField(error);
  }
  const first = !(row.config as Record<string, unknown>).activatedAt;
  row = await integrationsRepository.update(ctx.db, row.id, {
    state: 'active',
    last_error: null,
    config: { ...(row.config ?? {}), activatedAt: (row.config as Record<string, unknown>).activatedAt ?? new Date().toISOString() },
  });
  if (first && row.backfill_days > 0) await backfill(ctx, row);
  await scheduleSend(ctx, row.id);
  return { data: await toApi(ctx, row), message: note };
}

/** Queues deliveries of the company's finished calls of the last `backfill_days` days (first activation). */
async function backfill(ctx: AppContext, row: IntegrationRow): Promise<void> {
  const since = new Date(Date.now() - row.backfill_days * 86_400_000);
  for (const callId of await callsInWindow(ctx, row.company_id, since)) await enqueueCallDeliveries(ctx, [row], callId, 'backfill');
}

/** `PUT …/{provider}/sync`: asks the provider again who is connected (refreshing the token) and resumes waiting deliveries. */
export async function syncIntegration(ctx: AppContext, companyId: number, provider: ProviderId) {
  const adapter = adapterOf(provider);
  let row = await mustFindProvider(ctx, companyId, provider);
  try {
    const who = await adapter.identify(await connectionOf(ctx, row, adapter), null);
    row = await integrationsRepository.update(ctx.db, row.id, {
      account_name: who.accountName,
      external_account_id: who.externalAccountId,
      config: { ...(row.config ?? {}), ...(who.config ?? {}) },
    });
  } catch (error) {
    if (error instanceof ReconnectNeededError) await markNeedsReconnect(ctx, row, adapter, error.message);
    providerErrorToField(error, 'provider');
  }
  if (row.state === 'active') {
    await integrationsRepository.requeue(ctx.db, row.id, { states: ['waiting'] });
    await scheduleSend(ctx, row.id);
  }
  return { data: await toApi(ctx, row) };
}

async function revokeOf(ctx: AppContext, row: IntegrationRow): Promise<void> {
  const adapter = providerModule(row.provider as ProviderId)?.adapter;
  if (!adapter?.oauth || !row.access_token_sealed) return;
  const token = await unseal(ctx, row.access_token_sealed, aadOf(row.id)).catch(() => '');
  if (!token) return;
  if (adapter.revoke) {
    try {
      await adapter.revoke(await connectionOf(ctx, row, adapter));
    } catch (error) {
      ctx.log.warn({ err: error, provider: row.provider }, 'integrations: revoke failed');
    }
    return;
  }
  const err = await revokeToken(ctx, row.provider as ProviderId, adapter.oauth, token);
  if (err) ctx.log.warn({ provider: row.provider, err }, 'integrations: revoke failed');
}

/** `PUT …/{provider}/deactivate`: revokes the grant, forgets the tokens; the log and settings stay. */
export async function deactivateIntegration(ctx: AppContext, companyId: number, provider: ProviderId) {
  const row = await mustFindProvider(ctx, companyId, provider);
  await revokeOf(ctx, row);
  const updated = await integrationsRepository.update(ctx.db, row.id, {
    state: 'inactive',
    access_token_sealed: null,
    refresh_token_sealed: null,
    token_expires_at: null,
  });
  return { data: await toApi(ctx, updated), message: AD_INTEGRATION_MESSAGES.deactivated };
}

/** `PUT …/{provider}/update` and the GA4/ADF PUT: name, config, settings, backfill days. */
export async function updateIntegration(
  ctx: AppContext,
  row: IntegrationRow,
  body: { name?: string; config?: Record<string, unknown>; settings?: IntegrationSettings; backfillDays?: number },
  secrets?: Record<string, string>,
) {
  const updated = await integrationsRepository.update(ctx.db, row.id, {
    ...(body.name ? { name: body.name } : {}),
    ...(body.config ? { config: { ...(row.config ?? {}), ...body.config } } : {}),
    ...(body.settings ? { settings: body.settings as unknown as Record<string, unknown> } : {}),
    ...(body.backfillDays !== undefined ? { backfill_days: body.backfillDays } : {}),
    ...(secrets ? { secrets_sealed: await seal(ctx, JSON.stringify(secrets), aadOf(row.id)) } : {}),
  });
  return { data: await toApi(ctx, updated) };
}

export async function updateOauthIntegration(ctx: AppContext, companyId: number, provider: ProviderId, body: Parameters<typeof updateIntegration>[2]) {
  return updateIntegration(ctx, await mustFindProvider(ctx, companyId, provider), body);
}

/** A named lookup of the provider for the connected integration. */
export async function runLookup(ctx: AppContext, companyId: number, provider: ProviderId, lookup: string, params: Record<string, string | undefined>) {
  const adapter = adapterOf(provider);
  const fn = Object.hasOwn(adapter.lookups, lookup) ? adapter.lookups[lookup] : undefined;
  if (!fn) throw new NotFoundError('Lookup');
  const row = await mustFindProvider(ctx, companyId, provider);
  const clean = Object.fromEntries(Object.entries(params).filter((kv): kv is [string, string] => typeof kv[1] === 'string' && kv[1] !== ''));
  try {
    return { data: (await fn(await connectionOf(ctx, row, adapter), clean)).items };
  } catch (error) {
    if (error instanceof ReconnectNeededError) await markNeedsReconnect(ctx, row, adapter, error.message);
    providerErrorToField(error, 'provider');
  }
}

// ─── GA4 and ADF (no OAuth) ─────────────────────────────────────────────────────────────────────────────────

export async function listOf(ctx: AppContext, companyId: number, provider: 'ga4' | 'adf') {
  return { data: await Promise.all((await integrationsRepository.list(ctx.db, companyId, [provider])).map((r) => toApi(ctx, r))) };
}

/** `POST /ga4integrations`: stores the measurement id and the sealed API secret, validates at GA4's debug endpoint, activates. */
export async function createGa4(
  ctx: AppContext,
  companyId: number,
  userId: number,
  body: { name: string; measurementId: string; apiSecret: string; settings?: IntegrationSettings; backfillDays?: number },
) {
  let row = await integrationsRepository.insert(ctx.db, {
    company_id: companyId,
    provider: 'ga4',
    state: 'connected',
    name: body.name,
    config: { measurementId: body.measurementId },
    settings: (body.settings ?? {}) as Record<string, unknown>,
    backfill_days: body.backfillDays ?? 0,
    connected_by: userId,
    connected_at: new Date(),
    account_name: body.measurementId,
    external_account_id: body.measurementId,
  });
  row = await integrationsRepository.update(ctx.db, row.id, { secrets_sealed: await seal(ctx, JSON.stringify({ apiSecret: body.apiSecret }), aadOf(row.id)) });
  try {
    return await finishActivation(ctx, row, adapterOf('ga4'));
  } catch (error) {
    await integrationsRepository.remove(ctx.db, row.id);
    throw error;
  }
}

export async function updateGa4(
  ctx: AppContext,
  companyId: number,
  id: number,
  body: { name?: string; measurementId?: string; apiSecret?: string; settings?: IntegrationSettings; backfillDays?: number },
) {
  const row = await mustFind(ctx, companyId, id, ['ga4']);
  const out = await updateIntegration(
    ctx,
    row,
    {
      name: body.name,
      settings: body.settings,
      backfillDays: body.backfillDays,
      ...(body.measurementId ? { config: { measurementId: body.measurementId } } : {}),
    },
    body.apiSecret ? { apiSecret: body.apiSecret } : undefined,
  );
  if (body.measurementId) await integrationsRepository.update(ctx.db, row.id, { account_name: body.measurementId, external_account_id: body.measurementId });
  return { data: await toApi(ctx, (await integrationsRepository.findById(ctx.db, row.id))!), ...(out ? {} : {}) };
}

/** `POST /adf-integrations`: the dealer CRM's lead address (and an optional HTTPS POST endpoint). Active at once. */
export async function createAdf(
  ctx: AppContext,
  companyId: number,
  userId: number,
  body: { name: string; leadEmail: string; postUrl?: string | null; vendorName?: string; settings?: IntegrationSettings },
) {
  const row = await integrationsRepository.insert(ctx.db, {
    company_id: companyId,
    provider: 'adf',
    state: providerModule('adf') ? 'active' : 'connected',
    name: body.name,
    config: { leadEmail: body.leadEmail, postUrl: body.postUrl ?? null, vendorName: body.vendorName ?? null },
    settings: (body.settings ?? {}) as Record<string, unknown>,
    backfill_days: 0,
    connected_by: userId,
    connected_at: new Date(),
    account_name: body.leadEmail,
    external_account_id: body.leadEmail,
  });
  return { data: await toApi(ctx, row) };
}

export async function updateAdf(
  ctx: AppContext,
  companyId: number,
  id: number,
  body: { name?: string; leadEmail?: string; postUrl?: string | null; vendorName?: string; settings?: IntegrationSettings },
) {
  const row = await mustFind(ctx, companyId, id, ['adf']);
  const config: Record<string, unknown> = {};
  if (body.leadEmail) config.leadEmail = body.leadEmail;
  if (body.postUrl !== undefined) config.postUrl = body.postUrl;
  if (body.vendorName !== undefined) config.vendorName = body.vendorName;
  return updateIntegration(ctx, row, { name: body.name, settings: body.settings, config });
}

// ─── Delivery log ───────────────────────────────────────────────────────────────────────────────────────────

function deliveryToApi(d: DeliveryRow, provider: string): AdDelivery {
  return {
    id: Number(d.id),
    integration_id: Number(d.integration_id),
    provider: provider as AdProvider,
    kind: d.kind as AdDelivery['kind'],
    delivery_key: d.delivery_key,
    dedup_key: d.dedup_key,
    call_id: d.call_id === null ? null : Number(d.call_id),
    state: d.state,
    attempts: d.attempts,
    next_at: d.state === 'pending' ? new Date(d.next_at).toISOString() : null,
    sent_at: d.sent_at ? new Date(d.sent_at).toISOString() : null,
    provider_ref: d.provider_ref,
    message: d.message,
    source: d.source,
    created_at: new Date(d.created_at).toISOString(),
    exchanges: (d.exchanges ?? []) as AdDelivery['exchanges'],
  };
}

export async function listDeliveries(ctx: AppContext, companyId: number, id: number, q: { state?: string; page: number; per_page: number }) {
  const row = await mustFind(ctx, companyId, id);
  const { rows, total } = await integrationsRepository.page(ctx.db, row.id, q.state, (q.page - 1) * q.per_page, q.per_page);
  return {
    data: rows.map((d) => deliveryToApi(d, row.provider)),
    meta: { total, per_page: q.per_page, current_page: q.page, last_page: Math.max(1, Math.ceil(total / q.per_page)) },
  };
}

/** Sends one delivery again (any finished state; the same delivery key, so providers that deduplicate keep one). */
export async function retryDelivery(ctx: AppContext, companyId: number, id: number, deliveryId: number) {
  const row = await mustFind(ctx, companyId, id);
  const d = await integrationsRepository.delivery(ctx.db, row.id, deliveryId);
  if (!d) throw new NotFoundError('Delivery');
  await integrationsRepository.requeue(ctx.db, row.id, { id: d.id, states: ['failed', 'rejected', 'waiting', 'skipped', 'delivered', 'duplicate'] }, 'replay');
  await scheduleSend(ctx, row.id);
  return { message: AD_INTEGRATION_MESSAGES.retried };
}

/** Sends again every delivery created since `since` (≤ 30 days). */
export async function replayDeliveries(ctx: AppContext, companyId: number, id: number, since: Date) {
  const row = await mustFind(ctx, companyId, id);
  if (Date.now() - since.getTime() > 30 * 86_400_000) throw fieldError('since', 'Replay at most 30 days back.');
  const count = await integrationsRepository.requeue(
    ctx.db,
    row.id,
    { since, states: ['failed', 'rejected', 'waiting', 'skipped', 'delivered', 'duplicate'] },
    'replay',
  );
  await scheduleSend(ctx, row.id);
  return { message: AD_INTEGRATION_MESSAGES.replayQueued, count };
}

/** Where a call was sent (call detail). */
export async function deliveriesOfCall(ctx: AppContext, companyId: number, callId: number) {
  const rows = await integrationsRepository.ofCall(ctx.db, companyId, callId);
  return { data: rows.map((r) => ({ ...deliveryToApi(r, r.provider), integration_name: r.integration_name || AD_PROVIDER_NAMES[r.provider as AdProvider] })) };
}

/** Unused helper kept for tests: the item a delivery row would carry now. */
export async function previewItem(ctx: AppContext, companyId: number, id: number, deliveryId: number): Promise<DeliveryItem | null> {
  const row = await mustFind(ctx, companyId, id);
  const d = await integrationsRepository.delivery(ctx.db, row.id, deliveryId);
  return d ? buildItem(ctx, row, d, []) : null;
}
