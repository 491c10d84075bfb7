/**
 * The sandbox authorization server (`INTEGRATIONS=sandbox`; docs/integrations.md "Sandbox"): what a provider's OAuth
 * server does, offline, for every provider — a consent page (`GET /api/integrations/sandbox-oauth/{provider}/authorize`,
 * Allow / Deny), single-use codes bound to the redirect URI and PKCE challenge (S256 verified on exchange), access
 * tokens `sandbox-<provider>-…` (1 h) with refresh tokens, and revocation. Token answers take the provider's own shape
 * where it differs (Slack's `oauth.v2.access`: `ok`, `token_type: "bot"`, `team`; Salesforce `instance_url`;
 * HighLevel `locationId`). State is per process (in memory): a restart forgets pending codes, like an expired code.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../context.js';

export const SANDBOX_CLIENT_ID = 'sandbox-client';
export const SANDBOX_CLIENT_SECRET = 'sandbox-client-secret';
const CODE_TTL_MS = 5 * 60_000;
const TOKEN_TTL_S = 3600;

type PendingCode = { provider: string; redirectUri: string; challenge: string | null; scope: string; expiresAt: number };

function random(prefix: string): string {
  return `${prefix}${crypto.randomBytes(18).toString('base64url')}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

/** Provider-specific extras of a token answer (the shapes the real providers send). */
function shaped(provider: string, tokens: { access_token: string; refresh_token: string; scope: string }): Record<string, unknown> {
  const base = { ...tokens, token_type: 'Bearer', expires_in: TOKEN_TTL_S };
  switch (provider) {
    case 'slackbot':
      // oauth.v2.access (docs.slack.dev, 2026): a bot token without expiry unless token rotation is on.
      return {
        ok: true,
        app_id: 'A0SANDBOX',
        access_token: tokens.access_token,
        token_type: 'bot',
        scope: tokens.scope,
        bot_user_id: 'U0SANDBOXBOT',
        team: { id: 'T0SANDBOX', name: 'Sandbox workspace' },
        enterprise: null,
        authed_user: { id: 'U0SANDBOXUSR' },
      };
    case 'salesforce':
      return { ...base, instance_url: 'https://sandbox-org.my.salesforce.com', id: 'https://login.salesforce.com/id/00D000000000001/005000000000001' };
    case 'gohighlevel':
      return { ...base, userType: 'Location', locationId: 'sbxLoc0001MotorsAAA', companyId: 'sandboxCompany01' };
    case 'hubspot':
      return { ...base, hub_id: 20001 };
    default:
      return base;
  }
}

/** One process's sandbox authorization server. */
class SandboxAuthServer {
  private readonly codes = new Map<string, PendingCode>();
  private readonly refresh = new Map<string, { provider: string; scope: string }>();
  private readonly revoked = new Set<string>();

  /** The consent page's HTML for an authorization request (query of the authorize URL). @returns null when the request is malformed. */
  consentPage(provider: string, providerName: string, q: Record<string, string | undefined>): string | null {
    if (q.client_id !== SANDBOX_CLIENT_ID || !q.redirect_uri || !q.state) return null;
    const approve = new URLSearchParams({ ...(q as Record<string, string>), decision: 'allow' });
    const deny = new URLSearchParams({ ...(q as Record<string, string>), decision: 'deny' });
    const scope = escapeHtml((q.scope ?? '').replace(/[, ]+/g, ', '));
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox ${escapeHtml(providerName)}: allow access</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}a{display:inline-block;margin:.5rem .5rem 0 0;padding:.6rem 1.2rem;border-radius:.4rem;text-decoration:none;border:1px solid #555;color:#1a1a1a}a.allow{background:#1d4ed8;border-color:#1d4ed8;color:#fff}</style></head>
<body><main><h1>Sandbox ${escapeHtml(providerName)}</h1><p>This is the offline stand-in of ${escapeHtml(providerName)}'s sign-in. Switchboard asks for: ${scope || 'basic access'}.</p>
<p><a class="allow" href="approve?${escapeHtml(approve.toString())}">Allow</a><a href="approve?${escapeHtml(deny.toString())}">Deny</a></p></main></body></html>`;
  }

  /** The redirect after the person's decision (code or `access_denied`). @returns null when the request is malformed. */
  decide(provider: string, q: Record<string, string | undefined>): string | null {
    if (q.client_id !== SANDBOX_CLIENT_ID || !q.redirect_uri || !q.state) return null;
    const to = new URL(q.redirect_uri);
    to.searchParams.set('state', q.state);
    if (q.decision !== 'allow') {
      to.searchParams.set('error', 'access_denied');
      return to.href;
    }
    const code = random('sandbox-code-');
    this.codes.set(code, {
      provider,
      redirectUri: q.redirect_uri,
      challenge: q.code_challenge_method === 'S256' && q.code_challenge ? q.code_challenge : null,
      scope: q.scope ?? '',
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    to.searchParams.set('code', code);
    return to.href;
  }

  /** Marks an access token revoked (tests: a revoked grant). */
  revoke(token: string): void {
    this.revoked.add(token);
    this.refresh.delete(token);
  }

  /** Whether the sandbox revoked `token`. */
  isRevoked(token: string): boolean {
    return this.revoked.has(token);
  }

  /** The token and revocation endpoints (called in-process through the OAuth library's fetch). */
  async fetch(_ctx: AppContext, request: Request): Promise<Response> {
    const url = new URL(request.url);
    const m = /\/api\/integrations\/sandbox-oauth\/([a-z0-9]+)\/(token|revoke)$/.exec(url.pathname);
    if (!m || request.method !== 'POST') return json(404, { error: 'not_found' });
    const provider = m[1]!;
    const form = new URLSearchParams(await request.text());
    const basic = request.headers.get('authorization');
    const [id, secret] = basic?.startsWith('Basic ')
      ? Buffer.from(basic.slice(6), 'base64').toString().split(':').map(decodeURIComponent)
      : [form.get('client_id'), form.get('client_secret')];
    if (id !== SANDBOX_CLIENT_ID || secret !== SANDBOX_CLIENT_SECRET) return json(401, { error: 'invalid_client' });
    if (m[2] === 'revoke') {
      const token = form.get('token') ?? '';
      this.revoke(token);
      return new Response(null, { status: 200 });
    }
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = form.get('code') ?? '';
      const pending = this.codes.get(code);
      this.codes.delete(code);
      if (!pending || pending.provider !== provider || pending.expiresAt < Date.now() || pending.redirectUri !== form.get('redirect_uri')) {
        return provider === 'slackbot' ? json(200, { ok: false, error: 'invalid_code' }) : json(400, { error: 'invalid_grant' });
      }
      if (pending.challenge) {
        const verifier = form.get('code_verifier') ?? '';
        if (crypto.createHash('sha256').update(verifier).digest('base64url') !== pending.challenge) {
          return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
        }
      }
      const tokens = { access_token: random(`sandbox-${provider}-`), refresh_token: random('sandbox-refresh-'), scope: pending.scope };
      this.refresh.set(tokens.refresh_token, { provider, scope: pending.scope });
      return json(200, shaped(provider, tokens));
    }
    if (grant === 'refresh_token') {
      const old = form.get('refresh_token') ?? '';
      const known = this.refresh.get(old);
      if (!known || known.provider !== provider || this.revoked.has(old)) return json(400, { error: 'invalid_grant' });
      const tokens = { access_token: random(`sandbox-${provider}-`), refresh_token: old, scope: known.scope };
      return json(200, shaped(provider, tokens));
    }
    return json(400, { error: 'unsupported_grant_type' });
  }
}

/** The process's sandbox authorization server. */
export const sandboxAuthServer = new SandboxAuthServer();
