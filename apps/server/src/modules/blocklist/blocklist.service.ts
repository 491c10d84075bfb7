/**
 * Blocked callers (spec 001 "Blocks": `GET /blocks/{companyId}`, `POST /blocks`, `DELETE /blocks/{id}`).
 * A block stops a caller (E.164 `target`) for the whole company (`global`) or on one of its
 * numbers: the call flow rejects the call (status 13 Blocked, calls module) and the inbox shows
 * the party's texts as read (conversations, messaging).
 *
 * The blocklist owns the `blocks` table and imports only companies. Whether a number belongs to
 * the company (for a block on one number) is asked through a check the numbers side registers
 * (the `numberOfCompany` hook, `ctx.hooks`), since numbers sit above this module.
 *
 * Reads for the hot paths (every inbound call and text) go through a short-lived in-process cache
 * of the company's blocks (platform/db/read-cache.ts; one statement per company on a miss),
 * invalidated by `createBlock`/`deleteBlock` (docs/architecture.md "The voice webhook's hot path").
 */
import { BLOCKED, UNBLOCKED, parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { readCache } from '../../platform/db/read-cache.js';
import { NotFoundError, fieldError, deniedAsNotFound } from '../../platform/http/errors.js';
import { pageMeta } from '../../platform/http/page.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { blocklistRepository, type BlockRow } from './blocklist.repository.js';

/** Most blocks of one company kept in memory; a company with more is checked with a query. */
const MAX_CACHED_BLOCKS = 20_000;
/** Per company: blocked targets → 'global' or the number ids they are blocked on; null = too many, query. */
type CompanyBlocks = Map<string, { global: boolean; numbers: Set<number> }> | null;
const blocksCache = (ctx: AppContext) => readCache<number, CompanyBlocks>(ctx.db, 'blocklist.blocks');

/** The company's blocks from the cache (one statement through `db` on a miss); null when the company has too many to cache. */
async function companyBlocks(ctx: AppContext, companyId: number, db: DbOrTx): Promise<CompanyBlocks> {
  return blocksCache(ctx).get(companyId, async () => {
    const rows = await blocklistRepository.companyBlocks(db, companyId, MAX_CACHED_BLOCKS + 1);
    if (rows.length > MAX_CACHED_BLOCKS) return null;
    const m = new Map<string, { global: boolean; numbers: Set<number> }>();
    for (const r of rows) {
      let b = m.get(r.target);
      if (!b) m.set(r.target, (b = { global: false, numbers: new Set() }));
      if (r.global) b.global = true;
      if (r.number_id !== null) b.numbers.add(r.number_id);
    }
    return m;
  });
}

/**
 * Whether `party` (E.164) is blocked for the company globally or on `numberId` (the call flow:
 * reject; the inbox: a blocked caller's texts arrive read). `db`: the caller's transaction, if any
 * (a cache miss reads through it).
 */
export async function isPartyBlocked(ctx: AppContext, companyId: number, numberId: number, party: string, db: DbOrTx = ctx.db): Promise<boolean> {
  const blocks = await companyBlocks(ctx, companyId, db);
  if (!blocks) return blocklistRepository.isBlocked(db, companyId, numberId, party);
  const b = blocks.get(party);
  return Boolean(b && (b.global || b.numbers.has(numberId)));
}

/**
 * The batched form of {@link isPartyBlocked} for a page of rows (one statement at most: the
 * company's cache fill, or the query of every pair when the company has too many blocks to cache).
 * @returns the blocked pairs, each keyed `${numberId}:${party}`.
 */
export async function blockedParties(
  ctx: AppContext,
  companyId: number,
  pairs: Array<{ numberId: number; party: string }>,
  db: DbOrTx = ctx.db,
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const blocks = await companyBlocks(ctx, companyId, db);
  if (!blocks) return new Set(await blocklistRepository.blockedAmong(db, companyId, pairs));
  const out = new Set<string>();
  for (const p of pairs) {
    const b = blocks.get(p.party);
    if (b && (b.global || b.numbers.has(p.numberId))) out.add(`${p.numberId}:${p.party}`);
  }
  return out;
}

/** Throws NotFoundError('Number') unless `numberId` is one of the company's numbers. */
export type NumberOfCompanyCheck = HookFn<'numberOfCompany'>;

function blockDto(b: BlockRow) {
  return {
    id: b.id,
    company_id: b.company_id,
    number_id: b.number_id,
    target: b.target,
    global: b.global,
    action: b.action,
    created_at: b.created_at.toISOString(),
  };
}

/**
 * GET /api/blocks/{companyId} and GET /api/blocks?company_id: the company's blocks, newest first,
 * page-numbered (`page` 1-based). @throws ForbiddenError 403 for non-members.
 */
export async function listBlocks(ctx: AppContext, userId: number, companyId: number, page: number, perPage: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  const { rows, total } = await blocklistRepository.list(ctx.db, companyId, perPage, (page - 1) * perPage);
  return { data: rows.map(blockDto), meta: pageMeta(page, perPage, total) };
}

/**
 * POST /api/blocks: blocks a caller (target stored E.164) globally or on one of the company's numbers.
 * @throws ValidationError 422 (target not a phone number, number_id needed when not global),
 *   ForbiddenError 403, NotFoundError 404 (number not the company's).
 */
export async function createBlock(
  ctx: AppContext,
  userId: number,
  input: { company_id: number; target: string; number_id?: number | null; global: boolean; action: string },
) {
  await assertCompanyAccess(ctx, userId, input.company_id, AGENT_ROLES);
  const target = parsePhone(input.target);
  if (!target) throw fieldError('target', 'The number is not a valid phone number.');
  if (input.number_id) {
    // The numbers module provides the check (its setup); none is a wiring error (HookWiringError).
    await ctx.hooks.ask('numberOfCompany', ctx, input.company_id, input.number_id);
  } else if (!input.global) throw fieldError('number_id', 'Choose the number to block the caller on, or block globally.');
  const row = await blocklistRepository.insert(ctx.db, {
    company_id: input.company_id,
    target,
    number_id: input.number_id ?? null,
    global: input.global,
    action: input.action,
  });
  blocksCache(ctx).invalidate();
  return { message: BLOCKED(target), data: blockDto(row) };
}

/** DELETE /api/blocks/{id}. @throws NotFoundError 404 (unknown, or another company's block). */
export async function deleteBlock(ctx: AppContext, userId: number, id: number) {
  const b = await blocklistRepository.find(ctx.db, id);
  if (!b) throw new NotFoundError('Block');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, b.company_id, AGENT_ROLES), 'Block');
  await blocklistRepository.delete(ctx.db, id);
  blocksCache(ctx).invalidate();
  return { message: UNBLOCKED(b.target) };
}
