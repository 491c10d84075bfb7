/**
 * `GET /files/{key}` (and HEAD): streams a blob from the configured store (local folder or S3)
 * with the Content-Type of its extension, Content-Length, ETag/Last-Modified, and single byte
 * ranges (`Accept-Ranges: bytes`, 206 / 416) so audio players can seek. Missing blobs and keys
 * that are not safe relative paths (`..`, absolute, backslashes) answer 404 in the error shape
 * `{message}`.
 *
 * Who gets a file (access.ts, docs/operations.md "Files"): a valid, unexpired signed URL
 * (`?expires=…&signature=…`, the carrier and e-mail links), else a signed-in user (session cookie
 * or bearer token) of the company that owns the key. No user → 401; a user of another company
 * or a key with no company → 404 (nothing revealed); a bad or expired signature without such a
 * user → 403.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../http/app-type.js';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import { SESSION_COOKIE } from '../auth/auth.plugin.js';
import { ownerOfKey } from './access.js';
import { loadBlobSecret } from './secret.js';
import { contentTypeFor, isValidBlobKey, type BlobRange, type BlobStore } from './types.js';

/**
 * The byte range asked for by a `Range` header on a blob of `size` bytes: the inclusive range,
 * `'unsatisfiable'` (→ 416), or null to send the whole blob (no header, another unit, several
 * ranges or a malformed value, which RFC 9110 §14.2 lets a server ignore).
 */
export function parseRange(header: string | undefined, size: number): BlobRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null;
  const [, a, b] = m;
  if (a === '' && b === '') return null;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Number(b);
  if (b !== '' && end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

const notFound = { message: 'File not found.' };

/** How `/files/` learns who is asking (the companies module answers; wired in app.ts). */
export type FileReaders = {
  /** The signed-in user of a session cookie or bearer token (MFA completed), else null. */
  userOf: (sessionToken: string | undefined, bearer: string | undefined) => Promise<number | null>;
  /** Whether the user has an active membership in the company. */
  canRead: (userId: number, companyId: number) => Promise<boolean>;
};

type Access = 'ok' | { status: 401 | 403 | 404; message: string };

/** Decides whether `request` may read `key` (see the module comment). */
async function access(request: FastifyRequest, key: string, blobs: BlobStore, readers: FileReaders): Promise<Access> {
  const q = (request.query ?? {}) as Record<string, unknown>;
  const signed = q.signature !== undefined || q.expires !== undefined;
  const check = signed ? blobs.verify(key, q.expires, q.signature) : null;
  if (check === 'valid') return 'ok';
  const header = request.headers.authorization;
  const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  const user = await readers.userOf(request.cookies?.[SESSION_COOKIE], bearer);
  if (user === null) {
    if (check) return { status: 403, message: check === 'expired' ? 'This link has expired.' : 'This link is invalid.' };
    return { status: 401, message: 'Unauthenticated.' };
  }
  const owner = ownerOfKey(key);
  if (owner === null || !(await readers.canRead(user, owner))) return { status: 404, ...notFound };
  return 'ok';
}

/**
 * Registers `GET /files/*` serving `blobs` to the readers above, and loads the URL-signing secret
 * (SECRET_KEY, else the one stored in the database) before the server starts listening.
 */
export function registerBlobFiles(app: App, ctx: { db: Db; config: Pick<Config, 'secretKey'>; blobs: BlobStore }, readers: FileReaders): void {
  const { blobs } = ctx;
  app.addHook('onReady', async () => {
    if (!blobs.canSign) blobs.setSecret(await loadBlobSecret(ctx.db, ctx.config.secretKey));
  });
  // HEAD is declared explicitly: Fastify's automatic HEAD route would reset Content-Length to 0.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/files/*',
    schema: { hide: true, params: z.object({ '*': z.string() }) },
    handler: async (request, reply) => {
      const key = request.params['*'];
      if (!isValidBlobKey(key)) return reply.status(404).send(notFound);
      const allowed = await access(request, key, blobs, readers);
      if (allowed !== 'ok') return reply.status(allowed.status).header('cache-control', 'no-store').send({ message: allowed.message });
      const info = await blobs.stat(key);
      if (!info) return reply.status(404).send(notFound);

      reply.header('accept-ranges', 'bytes');
      // Private: a shared cache must not hand a company's file to someone else.
      reply.header('cache-control', 'private, max-age=0');
      reply.header('x-content-type-options', 'nosniff');
      // Uploaded files (an SVG, an HTML-ish text) must not run script on our origin when opened.
      reply.header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
      if (info.etag) reply.header('etag', info.etag);
      if (info.lastModified) reply.header('last-modified', info.lastModified.toUTCString());

      const inm = request.headers['if-none-match'];
      if (info.etag && inm && inm.split(',').some((t) => t.trim() === info.etag || t.trim() === '*')) return reply.status(304).send();

      const ifRange = request.headers['if-range'];
      const rangeAllowed = !ifRange || ifRange === info.etag || (info.lastModified !== undefined && ifRange === info.lastModified.toUTCString());
      const range = rangeAllowed ? parseRange(request.headers.range, info.size) : null;
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${info.size}`);
        return reply.status(416).send({ message: 'Requested range not satisfiable.' });
      }

      reply.type(contentTypeFor(key));
      const length = range ? range.end - range.start + 1 : info.size;
      reply.header('content-length', String(length));
      if (range) {
        reply.status(206);
        reply.header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
      }
      if (request.method === 'HEAD' || length === 0) return reply.send();
      const body = await blobs.stream(key, range ?? undefined);
      if (!body) {
        // Deleted between stat and read.
        reply.removeHeader('content-range');
        reply.removeHeader('content-length');
        return reply.status(404).type('application/json; charset=utf-8').send(notFound);
      }
      return reply.send(body);
    },
  });
}
