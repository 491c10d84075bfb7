/**
 * A local OpenID Connect provider for the OIDC sign-in tests: `oidc-provider` (the real protocol: discovery, code
 * flow with PKCE, signed ID tokens, UserInfo) on a loopback port, with its development login and consent pages, and a
 * `signInAtProvider` helper that plays the browser at the provider (follows redirects by hand, keeps cookies, submits
 * the login and consent forms) until the provider redirects back to the relying party.
 * Test-only: never imported by product code (the server tests and e2e/tests/oidc.spec.ts use it).
 */
/// <reference path="../../platform/oidc/oidc-provider.d.ts" />
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person at the provider: the claims it asserts about them. */
export type ProviderAccount = { email?: string; email_verified?: boolean; name?: string };

export type TestOidcProvider = {
  /** The issuer URL (`http://127.0.0.1:<port>`). */
  issuer: string;
  /** Accounts by subject (`sub`); add or change them at any time. */
  accounts: Map<string, ProviderAccount>;
  /** Registers the relying party's clients (id → redirect URIs); call once, after the server under test has its URL. */
  registerClients(clients: Array<{ clientId: string; clientSecret: string; redirectUris: string[] }>): void;
  close(): Promise<void>;
};

/**
 * Starts the provider's HTTP server on 127.0.0.1 (`port` 0 = any free port; the provider itself answers once
 * `registerClients` was called, 503 before).
 */
export async function startTestOidcProvider(port = 0): Promise<TestOidcProvider> {
  const accounts = new Map<string, ProviderAccount>();
  let handler: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | undefined;
  const server = http.createServer((req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    accounts,
    registerClients(clients) {
      const provider = new Provider(issuer, {
        clients: clients.map((c) => ({
          client_id: c.clientId,
          client_secret: c.clientSecret,
          redirect_uris: c.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        })),
        findAccount: (_ctx, id) => {
          const a = accounts.get(id);
          if (!a) return undefined;
          return { accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) };
        },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        cookies: { keys: ['switchboard-test-oidc-provider'] },
        pkce: { required: () => true },
        features: { devInteractions: { enabled: true } },
        // Lifetimes (seconds) set explicitly, as the library asks.
        ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/**
 * Plays the browser at the provider from `authorizationUrl`: follows redirects, signs in as `subject` on the login
 * page (or cancels there with `cancel`), confirms the consent page, and stops at the first redirect to a URL starting
 * with `returnPrefix` (the relying party's callback).
 * @returns that callback URL (with `code` and `state`, or `error`).
 * @throws Error when the provider answers anything unexpected.
 */
export async function signInAtProvider(authorizationUrl: string, subject: string, returnPrefix: string, options: { cancel?: boolean } = {}): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      cookies.set(pair!.slice(0, i).trim(), pair!.slice(i + 1).trim());
    }
    method = 'GET';
    body = undefined;
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (next.href.startsWith(returnPrefix)) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`provider answered ${res.status} at ${url.pathname}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no interaction form at ${url.pathname}`);
    if (prompt === 'login' && options.cancel) {
      const abort = /href="([^"]*abort[^"]*)"/.exec(html)?.[1];
      if (!abort) throw new Error('no abort link on the login page');
      url = new URL(abort.replaceAll('&amp;', '&'), url);
      continue;
    }
    method = 'POST';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login: subject, password: 'any' } : { prompt }).toString();
    url = new URL(action.replaceAll('&amp;', '&'), url);
  }
  throw new Error('too many redirects at the provider');
}
