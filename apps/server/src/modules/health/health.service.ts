/**
 * The checks behind `GET /api/health` (docs/operations.md "Health and readiness"): whether the
 * database answers (`status`), and whether the process is ready for users (`ready`: migrations
 * and the first-start seed done).
 */
import type { AppContext } from '../../context.js';
import { healthRepository } from './health.repository.js';

/**
 * What the health check answers: `ok`, or `degraded` with the database's error while it does not
 * answer (the process keeps running and recovers by itself once it is back); `ready` either way.
 */
export type HealthStatus = { status: 'ok'; ready: boolean } | { status: 'degraded'; ready: boolean; message: string };

/** Longest wait for the database's answer to the health ping, ms. */
const PING_TIMEOUT_MS = 2_000;

/**
 * Pings the database (`select 1`) within {@link PING_TIMEOUT_MS}. Any failure to answer (a
 * connection refused, the pool's acquire deadline, a query error, the deadline) is reported as
 * `degraded` with the error's message instead of thrown.
 */
export async function checkHealth(ctx: AppContext): Promise<HealthStatus> {
  const ready = ctx.readiness.ready;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      healthRepository.ping(ctx.db),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the database did not answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok', ready };
  } catch (e) {
    return { status: 'degraded', ready, message: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}
