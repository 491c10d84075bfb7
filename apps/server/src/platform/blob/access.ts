/**
 * Who may read a blob (docs/operations.md "Files"): every blob belongs to the company named in
 * its key, and `/files/{key}` (serve.ts) serves it only
 * - to a signed-in user of that company (session cookie or bearer token), or
 * - to whoever holds a short-lived signed URL `/files/{key}?expires={unix s}&signature={hmac}`
 *   (the carrier fetching a `<Play>` greeting or MMS media, an e-mail's recording link).
 *
 * New keys are `c/{companyId}/{kind}/…` with 128 unguessable bits: random (`newKey`) or, where a
 * key must be recomputed from an id (a voicemail's recording, an inbound MMS copy), an HMAC of
 * the id under the server secret (`derivedKey`). Keys written before this rule
 * (`recordings/{companyId}/…`, `mms/{companyId}/…`, `exports/contacts/{companyId}/…` …) keep
 * their company from the same segment. A key with no company (the sandbox carrier's own
 * copies) is served only through a signed URL.
 *
 * The secret is SECRET_KEY, else a random key generated once and kept in the database
 * (`app_secrets`), so every node signs and verifies alike (secret.ts).
 */
import crypto from 'node:crypto';
import { blobUrl } from './types.js';

/** Lifetime of URLs handed to the carrier (TwiML `<Play>`, MMS media), ms. */
export const CARRIER_URL_TTL_MS = 10 * 60_000;
/** Lifetime of file links in e-mails (a voicemail alert's recording), ms. */
export const EMAIL_URL_TTL_MS = 7 * 24 * 3600_000;

const LEGACY_OWNER = /^(?:(?:recordings|greetings|mms|campaigns)|(?:exports|imports)\/contacts)\/(\d{1,15})\//;
const OWNER = /^c\/(\d{1,15})\//;

/** The company owning `key`, or null when the key names none (served only through a signed URL). */
export function ownerOfKey(key: string): number | null {
  const m = OWNER.exec(key) ?? LEGACY_OWNER.exec(key);
  return m ? Number(m[1]) : null;
}

/** `kind` and suffix fragments must stay inside one safe key segment. */
function segment(value: string, what: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(value)) throw new Error(`invalid blob ${what}: ${JSON.stringify(value).slice(0, 120)}`);
  return value;
}
function suffixOf(suffix: string): string {
  if (suffix === '') return '';
  // Appended inside the key's last segment (after the random part), so dots cannot form `..`.
  if (!/^[A-Za-z0-9._-]{1,120}$/.test(suffix)) throw new Error(`invalid blob suffix: ${JSON.stringify(suffix).slice(0, 120)}`);
  return suffix;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * Key naming, URL signing and verification for a blob store; shared by both stores
 * (local.ts, s3.ts). Signing needs `setSecret` first (done once at start, serve.ts).
 */
export abstract class BlobAccess {
  private urlKey: Buffer | null = null;
  private nameKey: Buffer | null = null;

  constructor(public publicUrl: string) {}

  /** Sets the server secret (SECRET_KEY or the stored random one). */
  setSecret(secret: string): void {
    if (!secret) throw new Error('empty blob signing secret');
    this.urlKey = crypto.createHmac('sha256', secret).update('switchboard/blob-url').digest();
    this.nameKey = crypto.createHmac('sha256', secret).update('switchboard/blob-name').digest();
  }

  /** True once `setSecret` ran. */
  get canSign(): boolean {
    return this.urlKey !== null;
  }

  private keys(): { urlKey: Buffer; nameKey: Buffer } {
    if (!this.urlKey || !this.nameKey) throw new Error('the blob signing secret is not loaded yet');
    return { urlKey: this.urlKey, nameKey: this.nameKey };
  }

  /** `${publicUrl}/files/{key}`: served to signed-in users of the owning company. */
  url(key: string): string {
    return blobUrl(this.publicUrl, key);
  }

  /** A fresh key `c/{companyId}/{kind}/{32 random hex}{suffix}` (suffix e.g. `.wav`, `-map.jpg`). */
  newKey(companyId: number, kind: string, suffix = ''): string {
    return `c/${companyId}/${segment(kind, 'kind')}/${crypto.randomBytes(16).toString('hex')}${suffixOf(suffix)}`;
  }

  /**
   * The key of `name` (an id, e.g. a voicemail's) that anyone holding the secret recomputes and no
   * one else guesses: `c/{companyId}/{kind}/{name}-{HMAC 128 bits}{suffix}`.
   */
  derivedKey(companyId: number, kind: string, name: string, suffix = ''): string {
    const base = `c/${companyId}/${segment(kind, 'kind')}/${segment(name, 'name')}`;
    const mac = crypto.createHmac('sha256', this.keys().nameKey).update(base).digest('hex').slice(0, 32);
    return `${base}-${mac}${suffixOf(suffix)}`;
  }

  /** HMAC-SHA256 (base64url) over the key and the expiry. */
  private signature(key: string, expires: number): string {
    return crypto.createHmac('sha256', this.keys().urlKey).update(`${key}\n${expires}`).digest('base64url');
  }

  /** A URL anyone may fetch until `ttlMs` from now: `…/files/{key}?expires={unix s}&signature=…`. */
  signedUrl(key: string, ttlMs: number, now = Date.now()): string {
    const expires = Math.ceil((now + ttlMs) / 1000);
    return `${this.url(key)}?expires=${expires}&signature=${this.signature(key, expires)}`;
  }

  /** Checks a signed URL's `expires` (unix s) and `signature` for `key`. */
  verify(key: string, expires: unknown, signature: unknown, now = Date.now()): SignatureCheck {
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires) || !this.canSign) return 'invalid';
    const want = Buffer.from(this.signature(key, Number(expires)));
    const got = Buffer.from(signature);
    if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) return 'invalid';
    return Number(expires) * 1000 < now ? 'expired' : 'valid';
  }

  /** The key behind one of our `/files/` URLs (signed or not), else null. */
  keyOf(url: string): string | null {
    const prefix = `${this.publicUrl}/files/`;
    if (!url.startsWith(prefix)) return null;
    const pathPart = url.slice(prefix.length).split(/[?#]/)[0]!;
    try {
      return pathPart.split('/').map(decodeURIComponent).join('/');
    } catch (error) {
      if (error instanceof URIError) return null; // a malformed escape: not one of ours
      throw error;
    }
  }

  /**
   * For a URL handed to the carrier: one of our `/files/` URLs becomes a signed URL valid for
   * `ttlMs` (default CARRIER_URL_TTL_MS); any other URL is returned as is.
   */
  carrierUrl(url: string, ttlMs = CARRIER_URL_TTL_MS): string {
    const key = this.keyOf(url);
    return key ? this.signedUrl(key, ttlMs) : url;
  }
}
