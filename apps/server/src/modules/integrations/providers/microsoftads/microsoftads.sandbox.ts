/**
 * Microsoft Advertising sandbox (docs/integrations-providers.md "Microsoft Ads"): an in-process emulation of the Bing
 * Ads API v13 REST operations the adapter uses (`User/Query`, `CustomersInfo/Query`, `Accounts/Search`,
 * `OfflineConversions/Apply`, `OfflineConversionAdjustments/Apply`), answering in Microsoft's shapes: `{ Errors:
 * [{ Code, ErrorCode, Message }], TrackingId, Type }` faults (401 for 109 AuthenticationTokenExpired), HTTP 429 with
 * 117 CallRateExceeded past its own limit (100 calls per minute per account), `{ PartialErrors: [BatchError] }` for
 * per-item refusals (unknown goal name, click id, time outside 90 days or in the future, more than 1,000 items).
 * Repeats of (MicrosoftClickId, ConversionName, ConversionTime) are ignored, as Microsoft does. State is per instance.
 */
import crypto from 'node:crypto';
import type { ProviderSandbox } from '../provider.js';
import { MAX_CONVERSION_AGE_MS } from './microsoftads.adapter.js';

const CUSTOMERS = [
  { Id: 251000111, Name: 'Sandbox Motors (manager)' },
  { Id: 251000222, Name: 'Sandbox Agency (manager)' },
];
const ACCOUNTS = [
  { Id: 180001001, Name: 'Sandbox Motors – Search', Number: 'F120ABCD', ParentCustomerId: 251000111, CurrencyCode: 'USD', AccountLifeCycleStatus: 'Active' },
  { Id: 180001002, Name: 'Sandbox Motors – Audience', Number: 'F120ABCE', ParentCustomerId: 251000111, CurrencyCode: 'USD', AccountLifeCycleStatus: 'Active' },
  { Id: 180002001, Name: 'Client – Sandbox Dental', Number: 'F120ABCF', ParentCustomerId: 251000222, CurrencyCode: 'USD', AccountLifeCycleStatus: 'Active' },
];
/** Offline conversion goals that exist in every sandbox account. */
export const SANDBOX_GOALS = ['Phone call', 'Qualified call', 'Appointment booked', 'Vehicle ordered', 'Lead'];
const LIMIT = 100;

/** A Microsoft REST fault. */
function fault(status: number, code: number, errorCode: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json(
    { Errors: [{ Code: code, ErrorCode: errorCode, Message: message }], TrackingId: crypto.randomUUID(), Type: 'AdApiFaultDetail' },
    { status, headers },
  );
}

/** Creates a fresh Microsoft Advertising sandbox. */
export function microsoftAdsSandbox(): ProviderSandbox {
  const received: Array<{ at: string; summary: string; body: unknown }> = [];
  const applied = new Map<string, { value: number | null; retracted: boolean }>();
  const calls = new Map<string, number[]>();

  async function handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const token = (request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
    if (!token.startsWith('sandbox-'))
      return fault(401, 109, 'AuthenticationTokenExpired', 'Authentication token expired. Please renew it or obtain a new token.');
    if (!request.headers.get('developertoken'))
      return fault(400, 105, 'InvalidCredentials', 'Authentication failed. Either supplied credentials are invalid or the account is inactive.');
    const body = ((await request.json().catch(() => null)) ?? {}) as Record<string, unknown>;
    const account = request.headers.get('customeraccountid') ?? 'user';
    const now = Date.now();
    const recent = (calls.get(account) ?? []).filter((t) => now - t < 60_000);
    recent.push(now);
    calls.set(account, recent);
    if (recent.length > LIMIT)
      return fault(429, 117, 'CallRateExceeded', 'You have exceeded the number of calls that you are allowed to make in a given time period.');

    if (request.method !== 'POST') return fault(405, 0, 'MethodNotAllowed', 'Use POST.');
    if (path === '/CustomerManagement/v13/User/Query') {
      return Response.json({
        User: {
          Id: 141000999,
          UserName: 'sandbox.marketer@example.com',
          ContactInfo: { Email: 'sandbox.marketer@example.com' },
          Name: { FirstName: 'Sandbox', LastName: 'Marketer' },
        },
        CustomerRoles: CUSTOMERS.map((c) => ({ RoleId: 41, CustomerId: c.Id, AccountIds: null, LinkedAccountIds: null })),
      });
    }
    if (path === '/CustomerManagement/v13/CustomersInfo/Query') return Response.json({ CustomersInfo: CUSTOMERS });
    if (path === '/CustomerManagement/v13/Accounts/Search') {
      const p = ((body.Predicates ?? []) as Array<{ Field: string; Value: string }>)[0];
      const rows = p?.Field === 'CustomerId' ? ACCOUNTS.filter((a) => String(a.ParentCustomerId) === p.Value) : ACCOUNTS;
      return Response.json({ Accounts: rows });
    }
    const isApply = path === '/CampaignManagement/v13/OfflineConversions/Apply';
    const isAdjust = path === '/CampaignManagement/v13/OfflineConversionAdjustments/Apply';
    if (!isApply && !isAdjust) return fault(404, 0, 'NotFound', `No operation at ${path}`);
    if (!request.headers.get('customerid') || !request.headers.get('customeraccountid'))
      return fault(400, 1102, 'InvalidAccountId', 'CustomerId and CustomerAccountId headers are required.');
    const list = (body[isApply ? 'OfflineConversions' : 'OfflineConversionAdjustments'] ?? []) as Array<Record<string, unknown>>;
    if (!Array.isArray(list) || list.length === 0)
      return fault(400, 3700, 'OfflineConversionsNullOrEmpty', 'The list of offline conversions cannot be null or empty.');
    if (list.length > 1000) return fault(400, 3701, 'OfflineConversionsLimitExceeded', 'You can add a maximum of 1,000 offline conversions per request.');
    const PartialErrors: Array<Record<string, unknown>> = [];
    list.forEach((c, Index) => {
      const when = Date.parse(String(c.ConversionTime ?? ''));
      const bad = (Code: number, ErrorCode: string, Message: string) =>
        PartialErrors.push({ Code, ErrorCode, Message, Index, FieldPath: null, Details: null, Type: 'BatchError' });
      if (!c.MicrosoftClickId) return bad(3702, 'OfflineConversionMicrosoftClickIdInvalid', 'The MicrosoftClickId is invalid.');
      if (!SANDBOX_GOALS.includes(String(c.ConversionName)))
        return bad(3703, 'OfflineConversionNameInvalid', `No offline conversion goal named "${String(c.ConversionName)}".`);
      if (!Number.isFinite(when) || when > now + 60_000 || now - when > MAX_CONVERSION_AGE_MS)
        return bad(3704, 'OfflineConversionTimeInvalid', 'ConversionTime must be within the last 90 days.');
      const key = `${account}|${String(c.MicrosoftClickId)}|${String(c.ConversionName)}|${new Date(when).toISOString()}`;
      if (isApply) {
        if (applied.has(key)) return; // the first instance is used, the others are ignored
        applied.set(key, { value: typeof c.ConversionValue === 'number' ? c.ConversionValue : null, retracted: false });
        received.push({ at: new Date(now).toISOString(), summary: `${String(c.ConversionName)} ← ${String(c.MicrosoftClickId)}`, body: c });
        return;
      }
      const prior = applied.get(key);
      if (!prior) return bad(3705, 'OfflineConversionAdjustmentNotFound', 'No offline conversion matches this adjustment.');
      if (c.AdjustmentType === 'Retract') prior.retracted = true;
      else if (c.AdjustmentType === 'Restate') prior.value = typeof c.AdjustmentValue === 'number' ? c.AdjustmentValue : prior.value;
      else return bad(3706, 'OfflineConversionAdjustmentTypeInvalid', 'AdjustmentType must be Restate or Retract.');
      received.push({
        at: new Date(now).toISOString(),
        summary: `${String(c.AdjustmentType)} ${String(c.ConversionName)} ← ${String(c.MicrosoftClickId)}`,
        body: c,
      });
    });
    return Response.json({ PartialErrors }, { headers: { trackingid: crypto.randomUUID() } });
  }

  return { fetch: handle, sent: () => received.slice() };
}
