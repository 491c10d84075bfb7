/** The liveness check behind `GET /api/health` (the database answers, or it does not). */
import type { AppContext } from '../../context.js';
import { healthRepository } from './health.repository.js';

/** What the health check answers: ok, or unavailable with the database's error message. */
export type HealthStatus = { status: 'ok' } | { status: 'unavailable'; message: string };

/**
 * Pings the database (`select 1`). Any failure to answer — a connection refused, the pool's
 * acquire deadline, a query error — is what this check reports, so it answers `unavailable` with
 * the error's message instead of throwing.
 */
export async function checkHealth(ctx: AppContext): Promise<HealthStatus> {
  try {
    await healthRepository.ping(ctx.db);
    return { status: 'ok' };
  } catch (e) {
    return { status: 'unavailable', message: e instanceof Error ? e.message : String(e) };
  }
}
