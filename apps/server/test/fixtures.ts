/**
 * Shared test fixtures built on the public API (so they exercise the same code a person does).
 *
 * `createAccount(server)` signs a new person up through `POST /api/client/signup/create`
 * (user + company, the person is the company's `owner`) and hands back an ApiClient that is
 * signed in with a session cookie and carries the XSRF cookie.
 */
import crypto from 'node:crypto';
import { ApiClient, type TestServer } from './harness.js';

export type Account = {
  /** Signed-in browser-like client (session cookie + XSRF). */
  client: ApiClient;
  userId: number;
  companyId: number;
  email: string;
  password: string;
};

export type AccountOptions = { email?: string; password?: string; companyName?: string; firstName?: string; lastName?: string; timezone?: string };

/** A unique e-mail address for tests (`prefix+random@example.test`). */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}+${crypto.randomBytes(5).toString('hex')}@example.test`;
}

/**
 * Signs up a new account (owner of a new company) through the public signup API.
 * @throws Error unless the signup answers 201.
 */
export async function createAccount(server: Pick<TestServer, 'url'>, options: AccountOptions = {}): Promise<Account> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct-horse-battery';
  const client = new ApiClient(server.url);
  await client.get('/api/csrf-cookie');
  const r = await client.post('/api/client/signup/create', {
    first_name: options.firstName ?? 'Test',
    last_name: options.lastName ?? 'User',
    email,
    password,
    company_name: options.companyName ?? `Company ${crypto.randomBytes(3).toString('hex')}`,
    ...(options.timezone ? { timezone: options.timezone } : {}),
  });
  if (r.status !== 201) throw new Error(`signup failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { client, userId: r.body.user.id, companyId: r.body.company.id, email, password };
}
