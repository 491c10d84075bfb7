/**
 * Slack (spec 002 §3 OAuth provider `slackbot`; docs/integrations.md "Slack"): an OAuth v2 install with a bot token
 * (`chat:write`, `chat:write.public`, `channels:read`, `groups:read`), a channel picker (`conversations.list`), and
 * a message per chosen event (missed call, voicemail with transcript, new lead, text, call, outcome) with a link back
 * to the call (`chat.postMessage`). Web API as documented at docs.slack.dev (methods oauth.v2.access, auth.revoke,
 * conversations.list, conversations.info, chat.postMessage; read 2026-11). Slack answers HTTP 200 `{ ok: false,
 * error }` for most failures and 429 with `Retry-After` (seconds) when rate limited; chat.postMessage allows about one
 * message per second per channel (rateLimit below). Slack has no deduplication key for bot messages: each delivery is
 * sent once and recorded (a replay posts again).
 */
import type { DeliveryItem, LookupResult, ProviderAdapter, ProviderConnection, ProviderModule, ProviderSandbox } from '../provider.js';
import { PermanentProviderError, RateLimitedError, ReconnectNeededError, RetryableProviderError, retryAfterMs } from '../provider.js';
import { jsonResponse, readBody, send } from '../http.js';

const API = 'https://slack.com/api';
/** Slack errors that mean the install is gone. */
const RECONNECT = new Set(['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive', 'missing_scope', 'invalid_refresh_token']);

/** Calls one Web API method (form-encoded POST or GET) and maps Slack's answers to the port's errors. */
async function call(conn: ProviderConnection, method: string, args: Record<string, unknown>, verb: 'GET' | 'POST' = 'POST'): Promise<Record<string, unknown>> {
  const url = new URL(`${conn.baseUrl}/${method}`);
  const init: RequestInit = { method: verb, headers: { authorization: `Bearer ${conn.accessToken}` } };
  if (verb === 'GET') for (const [k, v] of Object.entries(args)) url.searchParams.set(k, String(v));
  else {
    init.headers = { ...init.headers, 'content-type': 'application/json; charset=utf-8' };
    init.body = JSON.stringify(args);
  }
  const res = await send(conn.fetch, url.href, init);
  const body = await readBody(res);
  if (res.status === 429) throw new RateLimitedError(retryAfterMs(res.headers, 1_000, conn.now()), `${method}: ratelimited`);
  if (res.status >= 500) throw new RetryableProviderError(`${method}: HTTP ${res.status}`, res.status);
  if (body.ok === true) return body;
  const error = typeof body.error === 'string' ? body.error : `HTTP ${res.status}`;
  if (error === 'ratelimited') throw new RateLimitedError(retryAfterMs(res.headers, 1_000, conn.now()), `${method}: ratelimited`);
  if (RECONNECT.has(error)) throw new ReconnectNeededError(`${method}: ${error}`);
  if (error === 'internal_error' || error === 'fatal_error' || error === 'service_unavailable' || error === 'request_timeout')
    throw new RetryableProviderError(`${method}: ${error}`);
  throw new PermanentProviderError(`${method}: ${error}`, res.status);
}

function fmtDuration(s: number): string {
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

/** The message text (mrkdwn) of one delivery. Plain text fallback for notifications is the first line. */
export function slackMessage(item: DeliveryItem): { text: string; blocks: unknown[] } {
  const c = item.call;
  const who = item.contact.name || item.contact.phone || c?.callerNumber || item.text?.from || 'Unknown caller';
  const source = item.attribution.source ? ` from ${item.attribution.source}${item.attribution.campaign ? ` / ${item.attribution.campaign}` : ''}` : '';
  const title: Record<DeliveryItem['kind'], string> = {
    'missed-call': `:telephone_receiver: Missed call from ${who}`,
    voicemail: `:mailbox_with_mail: Voicemail from ${who}`,
    lead: `:sparkles: New lead: ${who}`,
    text: `:speech_balloon: Text from ${who}`,
    call: `:telephone_receiver: Call from ${who}`,
    outcome: `:white_check_mark: Call outcome: ${c?.outcome ?? 'unknown'} (${who})`,
    'outcome-adjustment': `:pencil2: Call outcome changed to ${c?.outcome ?? 'unknown'} (${who})`,
  };
  const lines = [`*${title[item.kind]}*${source}`];
  if (c) {
    lines.push(`To ${c.trackingNumberName ? `${c.trackingNumberName} (${c.trackingNumber})` : c.trackingNumber} · ${fmtDuration(c.durationS)}`);
    if (c.departmentType) lines.push(`Department: ${c.departmentType}`);
    if (item.kind === 'voicemail' && c.transcript) lines.push(`> ${c.transcript.slice(0, 1500).replace(/\n/g, '\n> ')}`);
    else if (c.summary) lines.push(`> ${c.summary.slice(0, 800)}`);
    else if (c.transcript) lines.push(`> ${c.transcript.slice(0, 600).replace(/\n/g, '\n> ')}`);
    if (c.recordingUrl) lines.push(`<${c.recordingUrl}|Listen to the recording>`);
  }
  if (item.text) lines.push(`> ${item.text.body.slice(0, 1500)}`);
  const link = c?.url;
  const text = lines.join('\n');
  const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text } }];
  if (link) blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open the call' }, url: link }] });
  return { text: link ? `${text}\n<${link}|Open the call>` : text, blocks };
}

const adapter: ProviderAdapter = {
  id: 'slackbot',
  displayName: 'Slack',
  apiBaseUrl: API,
  oauth: {
    authorizationEndpoint: 'https://slack.com/oauth/v2/authorize',
    tokenEndpoint: 'https://slack.com/api/oauth.v2.access',
    revocationEndpoint: null,
    scopes: ['chat:write', 'chat:write.public', 'channels:read', 'groups:read'],
    scopeSeparator: ',',
    pkce: true,
    clientAuth: 'client_secret_basic',
    envPrefix: 'SLACK',
    normalizeTokenResponse(status, body) {
      if (body.ok === false) {
        const error = String(body.error ?? 'invalid_request');
        const grantGone = ['invalid_code', 'code_already_used', 'invalid_refresh_token', 'token_revoked', 'bad_redirect_uri', 'invalid_grant_type'];
        return { status: 400, body: { error: grantGone.includes(error) ? 'invalid_grant' : error, error_description: error } };
      }
      return { status, body: { ...body, token_type: 'bearer' } };
    },
  },
  appSettings: [],
  secretFields: [],
  kinds: ['missed-call', 'voicemail', 'lead', 'text', 'call', 'outcome', 'outcome-adjustment'],
  callMedia: true,
  maxBatch: 1,
  rateLimit: { requests: 1, perMs: 1_000, scope: 'integration' },
  lookups: {
    /** Public and private channels the app can see (conversations.list, cursor-paginated, ≤ 1,000). */
    async channels(conn): Promise<LookupResult> {
      const items: LookupResult['items'] = [];
      let cursor = '';
      for (let page = 0; page < 5; page++) {
        const body = await call(
          conn,
          'conversations.list',
          { types: 'public_channel,private_channel', exclude_archived: 'true', limit: '200', ...(cursor ? { cursor } : {}) },
          'GET',
        );
        for (const ch of (body.channels as Array<Record<string, unknown>>) ?? []) {
          items.push({ id: String(ch.id), name: `#${String(ch.name)}`, detail: { is_private: Boolean(ch.is_private), is_member: Boolean(ch.is_member) } });
        }
        cursor = String((body.response_metadata as Record<string, unknown> | undefined)?.next_cursor ?? '');
        if (!cursor) break;
      }
      return { items };
    },
  },
  async identify(_conn, grant) {
    const team = (grant?.team as { id?: string; name?: string } | undefined) ?? {};
    if (!team.id) throw new PermanentProviderError('Slack did not say which workspace was connected');
    return {
      externalAccountId: team.id,
      accountName: team.name ?? team.id,
      config: { teamId: team.id, teamName: team.name ?? null, botUserId: grant?.bot_user_id ?? null },
    };
  },
  async verify(conn) {
    const channel = String(conn.config.channelId ?? '');
    if (!channel) throw new PermanentProviderError('Choose a channel');
    const body = await call(conn, 'conversations.info', { channel }, 'GET');
    const ch = body.channel as { name?: string; is_archived?: boolean } | undefined;
    if (ch?.is_archived) throw new PermanentProviderError('That channel is archived');
    return `Messages will be posted to #${ch?.name ?? channel}.`;
  },
  async deliver(conn, items) {
    const channel = String(conn.config.channelId ?? '');
    if (!channel) throw new PermanentProviderError('No channel chosen');
    const out = [];
    for (const item of items) {
      const { text, blocks } = slackMessage(item);
      const body = await call(conn, 'chat.postMessage', { channel, text, blocks, unfurl_links: false });
      out.push({ deliveryKey: item.deliveryKey, result: 'delivered' as const, providerRef: typeof body.ts === 'string' ? body.ts : null, message: null });
    }
    return { items: out };
  },
  dedupKey: (item) => item.deliveryKey,
  async revoke(conn) {
    await call(conn, 'auth.revoke', {});
  },
};

/** Offline Slack: a workspace with three channels; chat.postMessage keeps the messages and enforces 1 msg/s per channel. */
function sandbox(): ProviderSandbox {
  const channels = [
    { id: 'C0SALES', name: 'sales-calls', is_private: false, is_member: true, is_archived: false },
    { id: 'C0LEADS', name: 'new-leads', is_private: false, is_member: false, is_archived: false },
    { id: 'G0MGMT', name: 'managers', is_private: true, is_member: true, is_archived: false },
  ];
  const messages: Array<{ at: string; summary: string; body: unknown }> = [];
  const lastPost = new Map<string, number>();
  const revoked = new Set<string>();
  return {
    sent: () => messages,
    async fetch(request) {
      const url = new URL(request.url);
      const method = url.pathname.replace(/^.*\/api\//, '');
      const token = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');
      if (!token.startsWith('sandbox-') || revoked.has(token)) return jsonResponse(200, { ok: false, error: 'invalid_auth' });
      const args: Record<string, unknown> =
        request.method === 'GET' ? Object.fromEntries(url.searchParams) : ((await request.json().catch(() => ({}))) as Record<string, unknown>);
      switch (method) {
        case 'conversations.list':
          return jsonResponse(200, { ok: true, channels, response_metadata: { next_cursor: '' } });
        case 'conversations.info': {
          const ch = channels.find((c) => c.id === args.channel);
          return ch ? jsonResponse(200, { ok: true, channel: ch }) : jsonResponse(200, { ok: false, error: 'channel_not_found' });
        }
        case 'chat.postMessage': {
          const ch = channels.find((c) => c.id === args.channel);
          if (!ch) return jsonResponse(200, { ok: false, error: 'channel_not_found' });
          const now = Date.now();
          if (now - (lastPost.get(ch.id) ?? 0) < 900) return jsonResponse(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' });
          lastPost.set(ch.id, now);
          const ts = `${Math.floor(now / 1000)}.${String(messages.length).padStart(6, '0')}`;
          messages.push({
            at: new Date(now).toISOString(),
            summary: `#${ch.name}: ${String(args.text).split('\n')[0]}`,
            body: { channel: ch.id, text: args.text },
          });
          return jsonResponse(200, { ok: true, channel: ch.id, ts, message: { type: 'message', text: args.text, bot_id: 'B0SANDBOX', ts } });
        }
        case 'auth.revoke':
          revoked.add(token);
          return jsonResponse(200, { ok: true, revoked: true });
        default:
          return jsonResponse(200, { ok: false, error: 'unknown_method' });
      }
    },
  };
}

export const slackProvider: ProviderModule = { adapter, sandbox };
