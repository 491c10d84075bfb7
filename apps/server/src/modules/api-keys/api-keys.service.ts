/**
 * API keys (personal access tokens; spec 001 "API keys", docs/api-and-webhooks.md): a user's keys, each with a name,
 * scopes (contracts `API_KEY_SCOPES`) and an optional business unit. The secret `sbk_<43 base64url chars>` is
 * answered once by `createApiKey`; only its SHA-256 hash is stored (platform/auth `apiKeysRepository`). A key acts as
 * its user: the user's role in each company applies, narrowed by the key's scopes (platform/auth/api-key-scopes.ts)
 * and business unit. Keys are managed only from a signed-in session, never with a key.
 */
import { API_KEY_CREATED, API_KEY_DELETED, type ApiKey, type ApiKeyCreated, CreateApiKeyInput } from '@switchboard/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { apiKeysRepository, type ApiKeyRow } from '../../platform/auth/api-keys.repository.js';
import { hashToken, randomToken } from '../../platform/auth/tokens.js';
import { fieldError, NotFoundError } from '../../platform/http/errors.js';
import { listCompanySummaries } from '../companies/companies.service.js';

/** The text every API key starts with (so secret scanners and people can recognise one). */
export const API_KEY_PREFIX = 'sbk_';
/** How many characters of a key are kept to tell keys apart in lists (prefix included). */
const SHOWN_CHARS = 10;

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    business_unit_id: row.organization_id,
    prefix: row.token_prefix,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    last_used_ip: row.last_used_ip,
    expires_at: row.expires_at?.toISOString() ?? null,
  };
}

/** The user's API keys, newest first, with last use (never the secrets). */
export async function listApiKeys(ctx: AppContext, userId: number): Promise<{ data: ApiKey[] }> {
  return { data: (await apiKeysRepository.listForUser(ctx.db, userId)).map(toApiKey) };
}

/**
 * Creates a key for the user. `business_unit_id`, when given, must be a business unit one of the user's companies
 * belongs to.
 * @returns the spec's message and the key with its secret `token` (shown once).
 * @throws ValidationError (422) for a business unit the user does not reach.
 */
export async function createApiKey(
  ctx: AppContext,
  userId: number,
  input: z.output<typeof CreateApiKeyInput>,
): Promise<{ message: string; data: ApiKeyCreated }> {
  if (input.business_unit_id !== null) {
    const units = new Set((await listCompanySummaries(ctx, userId)).map((c) => c.organization_id).filter((id) => id !== null));
    if (!units.has(input.business_unit_id)) throw fieldError('business_unit_id', 'The selected business unit id is invalid.');
  }
  const token = API_KEY_PREFIX + randomToken(32);
  const row = await apiKeysRepository.create(ctx.db, {
    user_id: userId,
    name: input.name,
    token_hash: hashToken(token),
    token_prefix: token.slice(0, SHOWN_CHARS),
    scopes: [...new Set(input.scopes)].sort(),
    organization_id: input.business_unit_id,
    expires_at: input.expires_in_days === null ? null : new Date(Date.now() + input.expires_in_days * 86_400_000),
  });
  return { message: API_KEY_CREATED, data: { ...toApiKey(row), token } };
}

/**
 * Deletes one of the user's keys; requests with it answer 401 from then on.
 * @throws NotFoundError (404) for a key that is not the user's.
 */
export async function deleteApiKey(ctx: AppContext, userId: number, id: number): Promise<{ message: string }> {
  if (!(await apiKeysRepository.delete(ctx.db, userId, id))) throw new NotFoundError('API key not found.');
  return { message: API_KEY_DELETED };
}
