/**
 * Building a {@link ProviderConnection} for an integration (docs/integrations.md "Provider port"): the decrypted access
 * token (refreshed through `oauth.ts` when it expires within the provider's leeway, default 5 min), the config and
 * decrypted secrets, the app settings, the base URL (adapter's, or `INTEGRATIONS_<ID>_BASE_URL`), and a fetch that
 * goes to the provider's sandbox (`INTEGRATIONS=sandbox`) or the network, with a 20 s timeout, recording every
 * exchange (tokens and secrets removed, bodies cut at 8 KB) for the delivery log.
 *
 * A grant the provider refuses (`invalid_grant` on refresh, 401 after a fresh token) makes the integration
 * `needs_reconnect`: deliveries wait, the card says so, and the company's owners are e-mailed once per episode.
 */
import type { AppContext } from '../../context.js';
import { findUser } from '../users/users.service.js';
import { listActiveMembers } from '../companies/companies.service.js';
import { seal, unseal } from './crypto.js';
import { integrationsRepository, type IntegrationRow } from './integrations.repository.js';
import { refreshGrant } from './oauth.js';
import type { FetchLike, ProviderAdapter, ProviderConnection, ProviderId } from './providers/provider.js';
import { ReconnectNeededError } from './providers/provider.js';
import { providerSandbox } from './registry.js';

/** One recorded HTTP exchange. */
export type Exchange = { method: string; url: string; requestBody: unknown; status: number; responseBody: unknown; at: string; ms: number };

const MAX_BODY = 8_000;
const SECRET_PARAMS = /^(api_secret|access_token|client_secret|key|token)$/i;

/** The signature of our signed file links (recordings): the log shows the link, not a working one. */
const LINK_SIGNATURE = /([?&](?:amp;)?signature=)[A-Za-z0-9_-]+/g;

function clip(text: string): unknown {
  const redacted = text.replace(LINK_SIGNATURE, '$1[redacted]');
  const t = redacted.length > MAX_BODY ? `${redacted.slice(0, MAX_BODY)}…` : redacted;
  try {
    return JSON.parse(t) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) return t;
    throw error;
  }
}

function safeUrl(u: string): string {
  try {
    const url = new URL(u);
    for (const k of [...url.searchParams.keys()]) if (SECRET_PARAMS.test(k)) url.searchParams.set(k, '[redacted]');
    return url.href;
  } catch (error) {
    if (error instanceof TypeError) return u;
    throw error;
  }
}

/** The aad binding a sealed value to its integration. */
export function aadOf(id: number): string {
  return `integration:${id}`;
}

/** A fetch to the provider (sandbox or network) that records exchanges into `log` when given. */
export function providerFetch(ctx: AppContext, provider: ProviderId, log?: Exchange[]): FetchLike {
  const sandbox = ctx.config.integrations.mode === 'sandbox' ? providerSandbox(provider) : undefined;
  return async (input, init) => {
    const request = new Request(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(20_000) });
    const started = Date.now();
    const requestText = request.body ? await request.clone().text() : '';
    const res = sandbox ? await sandbox.fetch(request) : await fetch(request);
    if (log) {
      const text = await res.clone().text();
      log.push({
        method: request.method,
        url: safeUrl(request.url),
        requestBody: requestText ? clip(requestText) : null,
        status: res.status,
        responseBody: text ? clip(text) : null,
        at: new Date(started).toISOString(),
        ms: Date.now() - started,
      });
    }
    return res;
  };
}

/** The base URL of the provider's API in this configuration. */
function baseUrlOf(ctx: AppContext, adapter: ProviderAdapter): string {
  return (ctx.config.integrations.env[`INTEGRATIONS_${adapter.id.toUpperCase()}_BASE_URL`] || adapter.apiBaseUrl).replace(/\/+$/, '');
}

/**
 * App settings the adapter declared, from the environment. In sandbox mode an unset one (other than the `…_URL`
 * overrides) is `sandbox-<name>`: the sandboxes refuse requests without e.g. Microsoft's developer token or HighLevel's
 * conversation provider id, as the providers do, and `npm start` sets none.
 */
function appSettingsOf(ctx: AppContext, adapter: ProviderAdapter): Record<string, string> {
  const env = ctx.config.integrations.env;
  const sandbox = ctx.config.integrations.mode === 'sandbox';
  return Object.fromEntries(adapter.appSettings.map((k) => [k, env[k] || (sandbox && !k.endsWith('_URL') ? `sandbox-${k.toLowerCase()}` : '')]));
}

/** Marks the integration as needing a reconnect and tells the owners by e-mail (once per episode). */
export async function markNeedsReconnect(ctx: AppContext, row: IntegrationRow, adapter: ProviderAdapter, reason: string): Promise<void> {
  const first = row.state !== 'needs_reconnect';
  await integrationsRepository.update(ctx.db, row.id, {
    state: 'needs_reconnect',
    last_error: reason.slice(0, 500),
    ...(first ? { reconnect_notified_at: new Date() } : {}),
  });
  if (!first) return;
  const owners = (await listActiveMembers(ctx, row.company_id)).filter((m) => m.role === 'owner');
  for (const o of owners) {
    const user = await findUser(ctx, o.userId);
    if (!user?.email) continue;
    await ctx.mailer.send({
      to: user.email,
      subject: `Reconnect ${adapter.displayName}: calls are not being sent`,
      text: `${adapter.displayName} no longer accepts Switchboard's access (${reason}).\n\nCalls and conversions are kept and will be sent once you reconnect: ${ctx.config.publicUrl}/integrations\n`,
    });
  }
  ctx.log.warn({ integrationId: row.id, provider: row.provider, reason }, 'integration needs reconnect');
}

/**
 * The connection for `row` (refreshing its token first when due).
 * @throws ReconnectNeededError when the grant is gone (the integration is marked), RetryableProviderError when the token endpoint is unreachable.
 */
export async function connectionOf(ctx: AppContext, row: IntegrationRow, adapter: ProviderAdapter, log?: Exchange[]): Promise<ProviderConnection> {
  let accessToken = '';
  const aad = aadOf(row.id);
  if (adapter.oauth) {
    if (!row.access_token_sealed) throw new ReconnectNeededError('not connected');
    accessToken = await unseal(ctx, row.access_token_sealed, aad);
    const leewayMs = (adapter.oauth.refreshLeewayS ?? 300) * 1000;
    if (row.token_expires_at && new Date(row.token_expires_at).getTime() - leewayMs <= Date.now()) {
      if (!row.refresh_token_sealed) {
        await markNeedsReconnect(ctx, row, adapter, 'the access expired and cannot be renewed');
        throw new ReconnectNeededError('access expired');
      }
      try {
        const grant = await refreshGrant(ctx, row.provider as ProviderId, adapter.oauth, await unseal(ctx, row.refresh_token_sealed, aad));
        accessToken = grant.access_token;
        await integrationsRepository.update(ctx.db, row.id, {
          access_token_sealed: await seal(ctx, grant.access_token, aad),
          ...(grant.refresh_token ? { refresh_token_sealed: await seal(ctx, grant.refresh_token, aad) } : {}),
          token_expires_at: grant.expires_in ? new Date(Date.now() + grant.expires_in * 1000) : null,
        });
      } catch (error) {
        if (error instanceof ReconnectNeededError) await markNeedsReconnect(ctx, row, adapter, error.message);
        throw error;
      }
    }
  }
  const secrets: Record<string, string> = row.secrets_sealed ? (JSON.parse(await unseal(ctx, row.secrets_sealed, aad)) as Record<string, string>) : {};
  return {
    integrationId: row.id,
    companyId: row.company_id,
    provider: row.provider as ProviderId,
    accessToken,
    config: row.config ?? {},
    secrets,
    app: appSettingsOf(ctx, adapter),
    fetch: providerFetch(ctx, row.provider as ProviderId, log),
    baseUrl: baseUrlOf(ctx, adapter),
    appOrigin: ctx.config.publicUrl,
    sendMail: async (m) => {
      const attached = (m.attachments ?? []).map((a) => `\n\n--- ${a.filename} (${a.contentType}) ---\n${a.content}`).join('');
      for (const to of m.to) await ctx.mailer.send({ to, subject: m.subject, text: `${m.text}${attached}` });
    },
    now: () => new Date(),
  };
}
