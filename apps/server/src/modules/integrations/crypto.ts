/**
 * Secrets at rest (docs/integrations.md "Secrets"): OAuth tokens, PKCE verifiers and API secrets are sealed with
 * AES-256-GCM (node:crypto) under a key derived with HKDF-SHA-256 from INTEGRATIONS_ENCRYPTION_KEY, else SECRET_KEY,
 * else a random key generated once and kept in `app_secrets` (name `integrations_sealing`). Sealed text:
 * `v1.<iv b64url>.<tag b64url>.<ciphertext b64url>`; the integration id is the associated data where given, so a
 * token copied to another row does not open.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../context.js';
import { secretsRepository } from '../../platform/blob/secret.js';

/** The sealing key of this deployment (32 bytes; derived on each use: HKDF is cheap, the stored key one indexed read). */
async function keyOf(ctx: AppContext): Promise<Buffer> {
  const configured = ctx.config.integrations.encryptionKey || ctx.config.secretKey;
  const material = configured || (await secretsRepository.getOrCreate(ctx.db, 'integrations_sealing', crypto.randomBytes(32).toString('base64url')));
  return Buffer.from(crypto.hkdfSync('sha256', material, 'switchboard-integrations', 'sealing-v1', 32));
}

/** Seals `plain` (UTF-8) for storage; `aad` binds it to a context (e.g. `integration:12`). */
export async function seal(ctx: AppContext, plain: string, aad = ''): Promise<string> {
  const key = await keyOf(ctx);
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** Opens what {@link seal} made. @throws Error when altered, sealed under another key or another `aad`. */
export async function unseal(ctx: AppContext, sealed: string, aad = ''): Promise<string> {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('Not a sealed value');
  const decipher = crypto.createDecipheriv('aes-256-gcm', await keyOf(ctx), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** SHA-256 hex of `text` (state lookups). */
export function sha256Hex(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}
