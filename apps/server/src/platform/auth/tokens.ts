/** Random opaque tokens and their stored SHA-256 hashes (sessions, bearer tokens, reset links). */
import crypto from 'node:crypto';

/** A URL-safe random token of `bytes` bytes (default 32). */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}
/** Hex SHA-256 of a token; only this is stored. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && crypto.timingSafeEqual(ba, bb);
}
