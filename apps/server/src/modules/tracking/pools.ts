/**
 * DNI pools, static tracking numbers (sources) and the company's tracking settings (spec 002 "DNI":
 * `/companies/{companyId}/dniPools`, `.../dniSources`; docs/tracking.md "Pools", "Sources").
 * Reads need any active role of the company, writes the owner or an administrator. Another
 * company's pool or source answers 404, another company's id 403.
 *
 * A pool's numbers are company numbers (at most one pool each, never a static source), or numbers
 * bought for it through the numbers module's bulk purchase (its job and live progress): they join
 * the pool when the batch finishes (`number.batch-finished`) or when the pool is read meanwhile.
 */
import crypto from 'node:crypto';
import {
  TRAFFIC_SOURCE_LABELS,
  TRAFFIC_SOURCES,
  type DniPool,
  type DniPoolRouting,
  type DniPoolRoutingInput,
  type DniPoolHealth,
  type DniPoolInput,
  type DniPoolUpdateInput,
  type DniSettings,
  type DniStaticSource,
  type EavAttributeValueOut,
  type TrafficSource,
} from '@switchboard/contracts';
import { EAV_ENTITY_TYPES, defaultSchedule, type RouteEntry, type Schedule } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { NotFoundError, ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { MANAGER_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { deleteEavValuesOf, getEavValuesMany, setEavValues } from '../custom-fields/custom-fields.service.js';
import {
  applyRoutingToNumbers,
  companyMainRouting,
  companyTimezone,
  getCompanyNumber,
  getCompanyNumbers,
  invalidateRoutingCache,
  numbersWithRouting,
  routesReachSomeone,
  validateRoutes,
} from '../numbers/numbers.service.js';
import { getTemplate } from '../number-templates/number-templates.service.js';
import type { StoredPoolRouting } from '../../platform/db/schema-tracking.js';
import { getBatch, startBulkPurchase, startRelease } from '../numbers/numbers-batches.service.js';
import { normaliseNumbers, recommendedPoolSize } from './classify.js';
import { invalidatePublicCache } from './public-cache.js';
import { trackingRepository, type PoolNumberState, type PoolRow, type SettingsRow, type StaticSourceRow } from './tracking.repository.js';

const DAY_MS = 86_400_000;

// ---------------------------------------------------------------- settings

/** A new public company key: 20 lowercase letters and digits (not a secret; contracts `DniPublicKeyParams`). */
function newKey(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(crypto.randomBytes(20), (b) => alphabet[b % alphabet.length]).join('');
}

/** The company's tracking settings, created with a fresh key on first use. No access check. */
export async function ensureSettings(ctx: AppContext, companyId: number, db: DbOrTx = ctx.db): Promise<SettingsRow> {
  return (await trackingRepository.settingsOf(db, companyId)) ?? trackingRepository.ensureSettings(db, companyId, newKey());
}

export function toSettingsDto(s: SettingsRow): DniSettings {
  return { key: s.key, wait_for_consent: s.wait_for_consent, first_party_host: s.first_party_host };
}

/**
 * `PUT .../trackingNumbers/settings` (owner/administrator): wait for consent, first-party host.
 * @returns the settings after the change.
 */
export async function updateSettings(
  ctx: AppContext,
  userId: number,
  companyId: number,
  input: { wait_for_consent?: boolean; first_party_host?: string | null },
): Promise<DniSettings> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  await ensureSettings(ctx, companyId);
  const row = await trackingRepository.updateSettings(ctx.db, companyId, {
    ...(input.wait_for_consent !== undefined ? { wait_for_consent: input.wait_for_consent } : {}),
    ...(input.first_party_host !== undefined ? { first_party_host: input.first_party_host } : {}),
  });
  invalidatePublicCache(ctx, row.key);
  return toSettingsDto(row);
}

// ---------------------------------------------------------------- pools: views

/** The pool's health now (contracts `DniPoolHealth`; docs/tracking.md "Pool health"). */
export function poolHealth(
  pool: Pick<PoolRow, 'session_duration_minutes' | 'cool_down_minutes' | 'exhausted_since'>,
  numbers: PoolNumberState[],
  stats: { episodes: number; fallbackSessions: number; lastStartedAt: Date | null; peak: number },
): DniPoolHealth {
  const size = numbers.length;
  const inUse = numbers.filter((n) => n.state === 'in_use').length;
  const cooling = numbers.filter((n) => n.state === 'cooling_down').length;
  const utilisation = size ? (inUse + cooling) / size : 0;
  const exhaustedNow = size === 0 || inUse + cooling >= size;
  const status =
    exhaustedNow && (size === 0 || pool.exhausted_since !== null || inUse + cooling >= size)
      ? 'exhausted'
      : utilisation >= 0.8 || stats.episodes > 0
        ? 'warning'
        : 'healthy';
  return {
    size,
    in_use: inUse,
    cooling_down: cooling,
    free: size - inUse - cooling,
    utilisation: Math.round(utilisation * 1000) / 1000,
    status,
    exhaustion_count_7d: stats.episodes,
    fallback_sessions_7d: stats.fallbackSessions,
    last_exhausted_at: stats.lastStartedAt?.toISOString() ?? null,
    peak_concurrent_7d: stats.peak,
    recommended_size: recommendedPoolSize(stats.peak, pool.session_duration_minutes, pool.cool_down_minutes),
  };
}

/** The API shape of pools (one set of statements for the list). */
async function poolViews(ctx: AppContext, userId: number, companyId: number, pools: PoolRow[]): Promise<DniPool[]> {
  const ids = pools.map((p) => p.id);
  if (!ids.length) return [];
  await reconcilePurchases(ctx, userId, companyId, ids);
  await syncNumbers(ctx, companyId, await trackingRepository.poolNumbers(ctx.db, ids));
  const now = new Date();
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const held = await trackingRepository.poolNumbers(ctx.db, ids);
  const [numbers, routed, exhaustion, peaks, purchases, eav, fallbacks] = await Promise.all([
    held,
    numbersWithRouting(
      ctx,
      companyId,
      held.map((n) => n.number_id),
    ),
    trackingRepository.exhaustionStats(ctx.db, ids, weekAgo),
    trackingRepository.peakConcurrent(ctx.db, ids, weekAgo, now),
    trackingRepository.pendingPurchases(ctx.db, ids),
    getEavValuesMany(ctx, EAV_ENTITY_TYPES.TrackingPool, ids),
    getCompanyNumbers(
      ctx,
      companyId,
      pools.map((p) => p.fallback_number_id).filter((x): x is number => x !== null),
    ),
  ]);
  const fallbackById = new Map(fallbacks.map((n) => [n.id, n.number]));
  return pools.map((p) => {
    const own = numbers.filter((n) => n.pool_id === p.id);
    const ex = exhaustion.find((e) => e.pool_id === p.id);
    return {
      id: p.id,
      company_id: p.company_id,
      name: p.name,
      active: p.active,
      priority: p.priority,
      source_rules: p.source_rules as DniPool['source_rules'],
      target_numbers: p.target_numbers,
      session_duration_minutes: p.session_duration_minutes,
      cool_down_minutes: p.cool_down_minutes,
      fallback_number_id: p.fallback_number_id,
      fallback_number: p.fallback_number_id !== null ? (fallbackById.get(p.fallback_number_id) ?? null) : null,
      routing: routingDto(p),
      numbers: own.map((n) => ({
        number_id: n.number_id,
        number: n.number,
        state: n.state,
        session_id: n.session_id,
        last_assigned_at: n.last_assigned_at?.toISOString() ?? null,
        available_at: n.available_at?.toISOString() ?? null,
        has_routing: routed.has(n.number_id),
      })),
      health: poolHealth(p, own, {
        episodes: Number(ex?.episodes ?? 0),
        fallbackSessions: Number(ex?.fallback_sessions ?? 0),
        lastStartedAt: ex?.last_started_at ?? null,
        peak: peaks.get(p.id) ?? 0,
      }),
      pending_purchase_batch_id: purchases.find((x) => x.pool_id === p.id)?.batch_id ?? null,
      eavAttributeValues: (eav.get(p.id) ?? []) as EavAttributeValueOut[],
      created_at: p.created_at.toISOString(),
      updated_at: p.updated_at.toISOString(),
    };
  });
}

/** `GET .../dniPools` (any member): the company's pools by priority, with numbers and health. */
export async function listPools(ctx: AppContext, userId: number, companyId: number, search?: string): Promise<{ data: DniPool[] }> {
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: await poolViews(ctx, userId, companyId, await trackingRepository.listPools(ctx.db, companyId, search)) };
}

async function poolOf(ctx: AppContext, companyId: number, poolId: number): Promise<PoolRow> {
  const p = await trackingRepository.findPool(ctx.db, companyId, poolId);
  if (!p) throw new NotFoundError('Pool');
  return p;
}

/** `GET .../dniPools/{poolId}` (any member). @throws NotFoundError 404 (also another company's pool). */
export async function getPool(ctx: AppContext, userId: number, companyId: number, poolId: number): Promise<{ data: DniPool }> {
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: (await poolViews(ctx, userId, companyId, [await poolOf(ctx, companyId, poolId)]))[0]! };
}

// ---------------------------------------------------------------- pools: writes

/** A routing target resolved for storing (dni_pools' routing columns; migration 0052). */
type ResolvedRouting = {
  routing_type: 'number' | 'template' | 'forward';
  routing_number_id: number | null;
  routing_template_id: number | null;
  routing_forward: string | null;
  routing: StoredPoolRouting;
};

type Checked = { targets?: string[]; numbers?: Array<{ id: number; number: string }>; routing?: ResolvedRouting };

/** The API shape of a pool's routing target (contracts `DniPoolRouting`), null when none was chosen. */
function routingDto(p: PoolRow): DniPoolRouting | null {
  if (!p.routing_type || !p.routing) return null;
  return {
    type: p.routing_type,
    number_id: p.routing_number_id,
    template_id: p.routing_template_id,
    number: p.routing_type === 'forward' ? p.routing_forward : (p.routing.number ?? null),
    label: p.routing.label ?? '',
  };
}

/** A schedule as stored, without the API's display blocks (templates answer `scheduleView`s). */
function storedSchedule(s: Schedule & { blocks?: unknown }): Schedule {
  const { blocks: _blocks, ...rest } = s;
  return rest;
}

/**
 * Resolves a pool's routing target (docs/tracking.md "Routing target") to the routes and schedule it
 * stands for: a company number's routing (it must reach someone), a number template (read as `userId`),
 * or a forward to a phone number (one extension ringing it, voicemail when unanswered, the company's
 * time zone, always open).
 * Adds field errors `routing.number_id`, `routing.template_id`, `routing.number` to `errors`.
 */
async function resolveRouting(
  ctx: AppContext,
  userId: number,
  companyId: number,
  input: DniPoolRoutingInput,
  errors: FieldErrors,
): Promise<ResolvedRouting | undefined> {
  const none = { routing_number_id: null, routing_template_id: null, routing_forward: null };
  if (input.type === 'number') {
    const n = await getCompanyNumber(ctx, companyId, input.number_id).catch((e: unknown) => {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    });
    if (!n) errors['routing.number_id'] = ['The selected number is invalid.'];
    else if (!routesReachSomeone(n.routes as RouteEntry[])) errors['routing.number_id'] = ['The selected number has no routing to copy.'];
    if (!n || errors['routing.number_id']) return undefined;
    return {
      ...none,
      routing_type: 'number',
      routing_number_id: n.id,
      routing: { routes: n.routes as RouteEntry[], schedule: n.schedule as Schedule, label: n.label, number: n.number },
    };
  }
  if (input.type === 'template') {
    const t = await getTemplate(ctx, userId, companyId, input.template_id).catch((e: unknown) => {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    });
    if (!t) {
      errors['routing.template_id'] = ['The selected template is invalid.'];
      return undefined;
    }
    const routes = (t.routes as Array<RouteEntry & { schedule: Schedule & { blocks?: unknown } }>).map((r) => ({ ...r, schedule: storedSchedule(r.schedule) }));
    if (!routesReachSomeone(routes)) {
      errors['routing.template_id'] = ['The selected template has no routing that reaches anyone.'];
      return undefined;
    }
    return {
      ...none,
      routing_type: 'template',
      routing_template_id: t.id,
      routing: {
        routes,
        schedule: storedSchedule(t.schedule as Schedule & { blocks?: unknown }),
        label: t.name,
        number: null,
        record: t.record,
        call_transcription_enabled: t.call_transcription_enabled,
        ai_eav_enabled: t.ai_eav_enabled,
      },
    };
  }
  const [e164] = normaliseNumbers([input.number]).numbers;
  if (!e164) {
    errors['routing.number'] = ['The number is not a valid phone number.'];
    return undefined;
  }
  const tz = await companyTimezone(ctx, userId, companyId);
  const routes = validateRoutes([{ extension: 1, label: 'Forward', type: 'standard', forwards: [{ number: e164 }], voicemail_enabled: true }], tz);
  return { ...none, routing_type: 'forward', routing_forward: e164, routing: { routes, schedule: defaultSchedule(tz), label: '', number: e164 } };
}

/**
 * Gives the pool's numbers among `numberIds` (active numbers of the company) the pool's routing: its
 * routes and schedule, and a template's call settings (recording, transcription, AI custom fields).
 * Through the numbers module (one transaction; routing caches dropped). No-op without routing or numbers.
 */
async function applyPoolRouting(ctx: AppContext, companyId: number, routing: StoredPoolRouting | null, numberIds: number[]): Promise<void> {
  if (!routing || !numberIds.length) return;
  const active = (await getCompanyNumbers(ctx, companyId, numberIds)).map((n) => n.id);
  if (!active.length) return;
  await applyRoutingToNumbers(ctx, null, companyId, active, {
    routes: routing.routes as RouteEntry[],
    schedule: routing.schedule as Schedule,
    record: routing.record,
    call_transcription_enabled: routing.call_transcription_enabled,
    ai_eav_enabled: routing.ai_eav_enabled,
  });
}

/**
 * What a tracking number whose routes reach no one rings at call time (registered with the numbers
 * module's `emptyRoutingFallback` hook; issue 23 item 1): a pool number its pool's routing target;
 * a number of a pool without a target, or a static tracking number, the company's main routing (the
 * pool's fallback number first). Other numbers: undefined (their own routing stands). Reads through `db`.
 */
export async function trackingNumberFallbackRouting(
  ctx: AppContext,
  number: { id: number; company_id: number },
  db: DbOrTx,
): Promise<{ routes: RouteEntry[]; schedule: Schedule } | undefined> {
  const pool = await trackingRepository.poolRoutingOfNumber(db, number.id);
  if (pool?.routing && routesReachSomeone(pool.routing.routes as RouteEntry[])) {
    return { routes: pool.routing.routes as RouteEntry[], schedule: pool.routing.schedule as Schedule };
  }
  if (!pool && !(await trackingRepository.staticSourceOfNumber(db, number.id))) return undefined;
  const main = await companyMainRouting(ctx, number.company_id, { preferredId: pool?.fallback_number_id ?? null, exceptId: number.id }, db);
  return main ? { routes: main.routes, schedule: main.schedule } : undefined;
}

/**
 * Checks a pool's input against the company: target numbers are phone numbers, the fallback and
 * pool numbers are the company's active numbers, pool numbers are in no other pool and no static
 * source, the fallback is not one of the pool's own numbers; a routing target is given (or the pool
 * has one) and resolves ({@link resolveRouting}).
 * @throws ValidationError 422 on `routing`, `routing.*`, `target_numbers.{i}`, `fallback_number_id`, `number_ids.{i}`, `purchase.{i}.number`.
 */
async function checkPoolInput(ctx: AppContext, userId: number, companyId: number, input: DniPoolUpdateInput, current: PoolRow | null): Promise<Checked> {
  const poolId = current?.id ?? null;
  const errors: FieldErrors = {};
  const out: Checked = {};
  if (input.routing !== undefined) out.routing = await resolveRouting(ctx, userId, companyId, input.routing, errors);
  else if (!current?.routing_type) errors.routing = ["Choose where the pool's calls ring."];
  if (input.target_numbers !== undefined) {
    const { numbers, invalid } = normaliseNumbers(input.target_numbers);
    for (const i of invalid) errors[`target_numbers.${i}`] = ['The number is not a valid phone number.'];
    out.targets = numbers;
  }
  if (input.number_ids !== undefined) {
    const ids = [...new Set(input.number_ids)];
    const found = new Map((await getCompanyNumbers(ctx, companyId, ids)).map((n) => [n.id, n]));
    const taken = new Set(await trackingRepository.numbersTaken(ctx.db, companyId, ids, poolId));
    input.number_ids.forEach((id, i) => {
      if (!found.has(id)) errors[`number_ids.${i}`] = ['The selected number is invalid.'];
      else if (taken.has(id)) errors[`number_ids.${i}`] = ['The number is already in another pool or is a static tracking number.'];
    });
    out.numbers = ids.filter((id) => found.has(id)).map((id) => ({ id, number: found.get(id)!.number }));
  }
  if (input.fallback_number_id !== undefined && input.fallback_number_id !== null) {
    const [n] = await getCompanyNumbers(ctx, companyId, [input.fallback_number_id]);
    if (!n) errors.fallback_number_id = ['The selected fallback number is invalid.'];
    else if (input.number_ids?.includes(n.id)) errors.fallback_number_id = ['The fallback number cannot be one of the pool numbers.'];
  }
  input.purchase?.forEach((p, i) => {
    if (!normaliseNumbers([p.number]).numbers.length) errors[`purchase.${i}.number`] = ['The number is not a valid phone number.'];
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return out;
}

/** Starts the bulk purchase of numbers for a pool; the numbers module's 422 fields are renamed to `purchase.*`. */
async function startPurchase(
  ctx: AppContext,
  userId: number,
  companyId: number,
  purchase: Array<{ number: string; provider_id: number }>,
): Promise<string | null> {
  if (!purchase.length) return null;
  try {
    const batch = await startBulkPurchase(ctx, userId, { company_id: companyId, numbers: purchase });
    return batch.id;
  } catch (e) {
    if (e instanceof ValidationError && e.errors) {
      throw new ValidationError(Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k.replace(/^numbers/, 'purchase'), v])));
    }
    throw e;
  }
}

/** Adds company numbers to a pool (skipping any another pool or a static source has taken meanwhile). */
async function addBought(ctx: AppContext, companyId: number, poolId: number, batchId: string, numberIds: number[], finished: boolean): Promise<void> {
  const rows = await getCompanyNumbers(ctx, companyId, numberIds);
  const taken = new Set(
    await trackingRepository.numbersTaken(
      ctx.db,
      companyId,
      rows.map((r) => r.id),
      poolId,
    ),
  );
  const joining = rows.filter((r) => !taken.has(r.id));
  await trackingRepository.addPoolNumbers(ctx.db, poolId, companyId, joining);
  // Bought numbers ring where the pool's calls go (they come with a default entry that reaches no one). The purchase
  // is closed only after that, so a pool whose purchase shows finished has its numbers routed (a crash in between
  // leaves it open: the next delivery or read adds and routes them again, idempotently).
  const pool = await trackingRepository.findPool(ctx.db, companyId, poolId);
  if (pool)
    await applyPoolRouting(
      ctx,
      companyId,
      pool.routing,
      joining.map((r) => r.id),
    );
  if (finished) await trackingRepository.finishPurchase(ctx.db, batchId);
  invalidatePublicCacheOfCompany(ctx, companyId);
}

/**
 * Adds the numbers bought so far by the pools' running bulk purchases (read through the numbers
 * service as `userId`, who may read the company); closes a purchase whose batch finished.
 * Idempotent: called on every read of a pool with a running purchase.
 */
async function reconcilePurchases(ctx: AppContext, userId: number, companyId: number, poolIds: number[]): Promise<void> {
  for (const p of await trackingRepository.pendingPurchases(ctx.db, poolIds)) {
    if (p.company_id !== companyId) continue;
    const batch = await getBatch(ctx, userId, companyId, p.batch_id);
    const bought = batch.items.filter((i) => i.status === 'done' && typeof i.number_id === 'number').map((i) => i.number_id!);
    await addBought(ctx, companyId, p.pool_id, p.batch_id, bought, batch.finished_at !== null);
  }
}

/**
 * Keeps the pool numbers in step with the numbers module: a released number leaves its pool, a
 * rotated one (same id, new E.164) is renamed. Run on every read of pools (cheap: one statement).
 */
async function syncNumbers(ctx: AppContext, companyId: number, held: Array<{ number_id: number; number: string }>): Promise<void> {
  if (!held.length) return;
  const current = new Map(
    (
      await getCompanyNumbers(
        ctx,
        companyId,
        held.map((n) => n.number_id),
      )
    ).map((n) => [n.id, n.number]),
  );
  const gone = held.filter((n) => !current.has(n.number_id)).map((n) => n.number_id);
  const renamed = held.filter((n) => current.has(n.number_id) && current.get(n.number_id) !== n.number);
  if (!gone.length && !renamed.length) return;
  await ctx.db.transaction().execute(async (tx) => {
    await trackingRepository.dropNumbers(tx, companyId, gone);
    for (const n of renamed) await trackingRepository.renamePoolNumber(tx, n.number_id, current.get(n.number_id)!);
  });
}

/**
 * On `number.batch-finished`: a purchase's bought numbers join the pool that asked for them; a
 * release's numbers leave their pools and static sources at once (no visitor gets a released
 * number). Idempotent.
 */
export async function onNumberBatchFinished(ctx: AppContext, e: { companyId: number; batchId: string; kind: string; numberIds: number[] }): Promise<void> {
  if (e.kind === 'release') {
    await trackingRepository.dropNumbers(ctx.db, e.companyId, e.numberIds);
    return;
  }
  if (e.kind !== 'purchase') return;
  const p = await trackingRepository.purchaseOfBatch(ctx.db, e.batchId);
  if (!p || p.company_id !== e.companyId || p.finished_at) return;
  await addBought(ctx, e.companyId, p.pool_id, e.batchId, e.numberIds, true);
}

/** The dni_pools columns of a resolved routing target (none: nothing to store). */
function routingColumns(r: ResolvedRouting | undefined) {
  if (!r) return {};
  return {
    routing_type: r.routing_type,
    routing_number_id: r.routing_number_id,
    routing_template_id: r.routing_template_id,
    routing_forward: r.routing_forward,
    routing: JSON.stringify(r.routing),
  };
}

/**
 * `POST .../dniPools` (owner/administrator): a pool with its rules, numbers, routing target and custom
 * fields; `purchase` starts a bulk purchase whose numbers join the pool as it completes. The pool's
 * numbers (given, bought, added later) get the target's routing (docs/tracking.md "Routing target").
 * @returns the pool and the purchase batch id (null without purchase).
 * @throws ValidationError 422 (see checkPoolInput; custom fields `eavAttributeValues.{i}.*`; the number limit on `purchase`).
 */
export async function createPool(
  ctx: AppContext,
  userId: number,
  companyId: number,
  input: DniPoolInput,
): Promise<{ message: string; data: DniPool; batchId: string | null }> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const checked = await checkPoolInput(ctx, userId, companyId, input, null);
  await ensureSettings(ctx, companyId);
  const batchId = await startPurchase(ctx, userId, companyId, input.purchase);
  const pool = await ctx.db.transaction().execute(async (tx) => {
    const row = await trackingRepository.insertPool(tx, {
      company_id: companyId,
      name: input.name,
      active: input.active,
      priority: input.priority,
      source_rules: JSON.stringify(input.source_rules),
      target_numbers: JSON.stringify(checked.targets ?? []),
      session_duration_minutes: input.session_duration_minutes,
      cool_down_minutes: input.cool_down_minutes,
      fallback_number_id: input.fallback_number_id,
      ...routingColumns(checked.routing),
    });
    await trackingRepository.setPoolNumbers(tx, row.id, companyId, checked.numbers ?? []);
    if (input.eavAttributeValues?.length) await setEavValues(ctx, EAV_ENTITY_TYPES.TrackingPool, row.id, companyId, input.eavAttributeValues, tx);
    if (batchId) await trackingRepository.insertPurchase(tx, { batch_id: batchId, pool_id: row.id, company_id: companyId });
    return row;
  });
  await applyPoolRouting(
    ctx,
    companyId,
    pool.routing,
    (checked.numbers ?? []).map((n) => n.id),
  );
  invalidateRoutingCache(ctx);
  invalidatePublicCacheOfCompany(ctx, companyId);
  return { message: 'Pool created.', data: (await poolViews(ctx, userId, companyId, [pool]))[0]!, batchId };
}

/**
 * `PUT .../dniPools/{poolId}` (owner/administrator): any field; `number_ids` replaces the pool's
 * numbers (removed ones stay in the company; a session holding a removed number keeps showing it
 * until it ends, and its calls are then not attributed to a pool). A new `routing` target is given to
 * every pool number; numbers joining the pool get the pool's routing. A pool without a target (saved
 * before targets existed) must be given one (422 `routing`).
 * @throws NotFoundError 404; ValidationError 422.
 */
export async function updatePool(
  ctx: AppContext,
  userId: number,
  companyId: number,
  poolId: number,
  input: DniPoolUpdateInput,
): Promise<{ message: string; data: DniPool; batchId: string | null }> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const current = await poolOf(ctx, companyId, poolId);
  const fallbackCheck =
    input.fallback_number_id === undefined && input.number_ids !== undefined ? { ...input, fallback_number_id: current.fallback_number_id } : input;
  const checked = await checkPoolInput(ctx, userId, companyId, fallbackCheck, current);
  const before = new Set(await trackingRepository.poolNumberIds(ctx.db, poolId));
  const batchId = await startPurchase(ctx, userId, companyId, input.purchase ?? []);
  const pool = await ctx.db.transaction().execute(async (tx) => {
    const row = await trackingRepository.updatePool(tx, poolId, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      ...(input.priority !== undefined ? { priority: input.priority } : {}),
      ...(input.source_rules !== undefined ? { source_rules: JSON.stringify(input.source_rules) } : {}),
      ...(checked.targets !== undefined ? { target_numbers: JSON.stringify(checked.targets) } : {}),
      ...(input.session_duration_minutes !== undefined ? { session_duration_minutes: input.session_duration_minutes } : {}),
      ...(input.cool_down_minutes !== undefined ? { cool_down_minutes: input.cool_down_minutes } : {}),
      ...(input.fallback_number_id !== undefined ? { fallback_number_id: input.fallback_number_id } : {}),
      ...(checked.routing ? routingColumns(checked.routing) : {}),
    });
    if (checked.numbers !== undefined) await trackingRepository.setPoolNumbers(tx, poolId, companyId, checked.numbers);
    if (input.eavAttributeValues?.length) await setEavValues(ctx, EAV_ENTITY_TYPES.TrackingPool, poolId, companyId, input.eavAttributeValues, tx);
    if (batchId) await trackingRepository.insertPurchase(tx, { batch_id: batchId, pool_id: poolId, company_id: companyId });
    return row;
  });
  // A new target: every pool number rings it; the same target: the numbers that joined now do.
  const now = await trackingRepository.poolNumberIds(ctx.db, poolId);
  await applyPoolRouting(ctx, companyId, pool.routing, checked.routing ? now : now.filter((id) => !before.has(id)));
  invalidateRoutingCache(ctx);
  invalidatePublicCacheOfCompany(ctx, companyId);
  return { message: 'Pool updated.', data: (await poolViews(ctx, userId, companyId, [pool]))[0]!, batchId };
}

/**
 * `DELETE .../dniPools/{poolId}?shouldDeleteNumbers=0|1` (owner/administrator): deletes the pool
 * and its custom-field values; with 1 its numbers are released through the numbers module's
 * release batch (live progress `release progress` on the company channel), with 0 they stay.
 * Past sessions and calls keep their facts (their pool reference becomes null).
 * @returns a message and the release batch id (null when the numbers were kept).
 */
export async function deletePool(
  ctx: AppContext,
  userId: number,
  companyId: number,
  poolId: number,
  shouldDeleteNumbers: boolean,
): Promise<{ message: string; batchId: string | null }> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  await poolOf(ctx, companyId, poolId);
  const numberIds = await trackingRepository.poolNumberIds(ctx.db, poolId);
  await ctx.db.transaction().execute(async (tx) => {
    await deleteEavValuesOf(ctx, EAV_ENTITY_TYPES.TrackingPool, [poolId], tx);
    await trackingRepository.deletePool(tx, poolId);
  });
  invalidatePublicCacheOfCompany(ctx, companyId);
  let batchId: string | null = null;
  if (shouldDeleteNumbers && numberIds.length) batchId = (await startRelease(ctx, userId, numberIds)).id;
  return { message: shouldDeleteNumbers ? 'Pool deleted; its numbers are being released.' : 'Pool deleted; its numbers were kept.', batchId };
}

// ---------------------------------------------------------------- sources

function toStaticDto(s: StaticSourceRow, calls30d = 0): DniStaticSource {
  return {
    id: s.id,
    company_id: s.company_id,
    name: s.name,
    number_id: s.number_id,
    number: s.number,
    traffic_source: s.traffic_source as TrafficSource,
    source: s.source,
    medium: s.medium,
    campaign: s.campaign,
    keyword: s.keyword,
    calls_30d: calls30d,
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

/** `GET .../dniSources` (any member): the traffic sources with 30-day counts and the static tracking numbers. */
export async function listSources(ctx: AppContext, userId: number, companyId: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  const [counts, statics] = await Promise.all([trackingRepository.sourceCounts30d(ctx.db, companyId), trackingRepository.listStaticSources(ctx.db, companyId)]);
  return {
    traffic_sources: TRAFFIC_SOURCES.map((value) => ({
      value,
      label: TRAFFIC_SOURCE_LABELS[value],
      sessions_30d: counts.sessions.get(value) ?? 0,
      calls_30d: counts.calls.get(value) ?? 0,
    })),
    data: statics.map((s) => toStaticDto(s, Number(s.calls_30d ?? 0))),
  };
}

type StaticInput = {
  name?: string;
  number_id?: number;
  traffic_source?: TrafficSource;
  source?: string | null;
  medium?: string | null;
  campaign?: string | null;
  keyword?: string | null;
};

/** The number of a static source: the company's, in no pool, no other static source. @throws ValidationError 422 `number_id`. */
async function staticNumber(ctx: AppContext, companyId: number, numberId: number, exceptSourceId: number | null): Promise<{ id: number; number: string }> {
  const [n] = await getCompanyNumbers(ctx, companyId, [numberId]);
  if (!n) throw new ValidationError({ number_id: ['The selected number is invalid.'] });
  const inPool = await trackingRepository.numbersTaken(ctx.db, companyId, [numberId], null);
  const other = await trackingRepository.staticSourceOfNumber(ctx.db, numberId);
  if ((inPool.length && (!other || other.id !== exceptSourceId)) || (other && other.id !== exceptSourceId)) {
    throw new ValidationError({ number_id: ['The number is already in a pool or is another static tracking number.'] });
  }
  return n;
}

/** `POST .../dniSources` (owner/administrator): a static tracking number. @throws ValidationError 422. */
export async function createStaticSource(ctx: AppContext, userId: number, companyId: number, input: Required<StaticInput>) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const n = await staticNumber(ctx, companyId, input.number_id, null);
  const row = await trackingRepository.insertStaticSource(ctx.db, {
    company_id: companyId,
    name: input.name,
    number_id: n.id,
    number: n.number,
    traffic_source: input.traffic_source,
    source: input.source,
    medium: input.medium,
    campaign: input.campaign,
    keyword: input.keyword,
  });
  return { message: 'Source created.', data: toStaticDto(row) };
}

/** `PUT .../dniSources/{sourceId}` (owner/administrator). @throws NotFoundError 404; ValidationError 422. */
export async function updateStaticSource(ctx: AppContext, userId: number, companyId: number, sourceId: number, input: StaticInput) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const current = await trackingRepository.findStaticSource(ctx.db, companyId, sourceId);
  if (!current) throw new NotFoundError('Source');
  const n = input.number_id !== undefined && input.number_id !== current.number_id ? await staticNumber(ctx, companyId, input.number_id, sourceId) : null;
  const row = await trackingRepository.updateStaticSource(ctx.db, sourceId, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(n ? { number_id: n.id, number: n.number } : {}),
    ...(input.traffic_source !== undefined ? { traffic_source: input.traffic_source } : {}),
    ...(input.source !== undefined ? { source: input.source } : {}),
    ...(input.medium !== undefined ? { medium: input.medium } : {}),
    ...(input.campaign !== undefined ? { campaign: input.campaign } : {}),
    ...(input.keyword !== undefined ? { keyword: input.keyword } : {}),
  });
  return { message: 'Source updated.', data: toStaticDto(row) };
}

/** `DELETE .../dniSources/{sourceId}` (owner/administrator): the number stays in the company; past calls keep their facts. */
export async function deleteStaticSource(ctx: AppContext, userId: number, companyId: number, sourceId: number) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const current = await trackingRepository.findStaticSource(ctx.db, companyId, sourceId);
  if (!current) throw new NotFoundError('Source');
  await trackingRepository.deleteStaticSource(ctx.db, sourceId);
  return { message: 'Source deleted.' };
}

/** Drops the public path's cached pools of a company (this node; other nodes expire within seconds). */
function invalidatePublicCacheOfCompany(ctx: AppContext, companyId: number): void {
  void trackingRepository
    .settingsOf(ctx.db, companyId)
    .then((s) => {
      if (s) invalidatePublicCache(ctx, s.key);
    })
    .catch((e: unknown) => ctx.log.warn({ err: e }, 'tracking: could not drop the public cache'));
}
