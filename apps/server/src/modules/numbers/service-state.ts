/**
 * Whether a company's numbers are in service (spec 002 §3 "Account status"; docs/accounts.md
 * "Account status"): an *active* account (0) is served; a *parked* (1) or *deactivated* (2) one
 * keeps its numbers but its numbers stop service — an inbound call hears {@link OUT_OF_SERVICE_TEXT}
 * and is ended, an inbound message is answered 200 to the carrier and dropped (logged), outbound
 * messages, calls and campaign sends are refused ({@link assertCompanyInService}, 422 with a
 * message), and due scheduled messages and campaign jobs skip. Reactivation (status 0) restores
 * service for the next call within 3 s (the voice fast path's cache) and at once elsewhere.
 *
 * The numbers module publishes this because every flow that uses a number (calls, messaging,
 * campaigns) sits above it; the state itself is the companies module's `companyServiceState`.
 */
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { CALL_FLOW_CACHE_TTL_MS, readCache } from '../../platform/db/read-cache.js';
import { AppError } from '../../platform/http/errors.js';
import { companyServiceState, type CompanyServiceState } from '../companies/accounts.service.js';

export type { CompanyServiceState };

/** What an inbound call to a parked or deactivated account hears before it is ended. */
export const OUT_OF_SERVICE_TEXT = 'This number is not in service at the moment. Thank you for calling.';

/** Refusals of outbound work for an account out of service (422, `{message}`), by what was refused. */
export const OUT_OF_SERVICE_MESSAGES = {
  message: 'This account is parked: messages are not sent.',
  call: 'This account is parked: calls are not placed.',
  campaign: 'This account is parked: campaigns are not sent.',
} as const;

/** What was refused, for the message. */
export type OutOfServiceWork = keyof typeof OUT_OF_SERVICE_MESSAGES;

const CACHE = 'numbers:company-service-state';

/**
 * True when the company serves calls and messages (account status 0). An unknown company (deleted
 * meanwhile) is not in service. `db`: the caller's transaction, if any. Read through the pool
 * (the voice webhook's fast path, docs/architecture.md "The voice webhook's hot path") the answer
 * is cached for {@link CALL_FLOW_CACHE_TTL_MS} ms, so a status change reaches new calls within 3 s;
 * inside a transaction it is always read fresh.
 */
export async function isCompanyInService(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<boolean> {
  if (db !== ctx.db) return (await companyServiceState(ctx, companyId, db)) === 'active';
  const state = await readCache<number, CompanyServiceState | 'unknown'>(ctx.db, CACHE, CALL_FLOW_CACHE_TTL_MS).get(
    companyId,
    async () => (await companyServiceState(ctx, companyId)) ?? 'unknown',
  );
  return state === 'active';
}

/** Forgets the cached service states of this app (after a status change this process made or saw). */
export function forgetCompanyServiceStates(ctx: AppContext): void {
  readCache<number, CompanyServiceState | 'unknown'>(ctx.db, CACHE, CALL_FLOW_CACHE_TTL_MS).invalidate();
}

/**
 * Refuses outbound `work` (a message, a call, a campaign send) for a company that is parked or
 * deactivated. @throws AppError 422 `{message}` ({@link OUT_OF_SERVICE_MESSAGES}).
 */
export async function assertCompanyInService(ctx: AppContext, companyId: number, work: OutOfServiceWork, db: DbOrTx = ctx.db): Promise<void> {
  if (!(await isCompanyInService(ctx, companyId, db))) throw new AppError(422, OUT_OF_SERVICE_MESSAGES[work]);
}
