/**
 * Minimal types for `oidc-provider` v9 (a development dependency: the local OpenID provider the OIDC sign-in tests run
 * against, modules/auth/oidc.test-provider.ts; the package ships none). Only what the tests use.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export type ClaimsResult = Record<string, unknown> & { sub: string };
  export type Account = { accountId: string; claims: (use: string, scope: string) => Promise<ClaimsResult> | ClaimsResult };
  export type ProviderConfiguration = {
    clients?: Array<Record<string, unknown>>;
    findAccount?: (ctx: unknown, id: string) => Promise<Account | undefined> | Account | undefined;
    claims?: Record<string, string[]>;
    cookies?: { keys?: string[] };
    pkce?: { required?: () => boolean };
    features?: Record<string, { enabled: boolean }>;
    [key: string]: unknown;
  };
  export default class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
