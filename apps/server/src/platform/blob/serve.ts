/**
 * `GET /files/{key}` (and HEAD): streams a blob from the configured store (local folder or S3)
 * with the Content-Type of its extension, Content-Length, ETag/Last-Modified, and single byte
 * ranges (`Accept-Ranges: bytes`, 206 / 416) so audio players can seek. Missing blobs and keys
 * that are not safe relative paths (`..`, absolute, backslashes) answer 404 in the error shape
 * `{message}`. Public (outside /api): the carrier fetches recordings and MMS media from here.
 */
import { z } from 'zod';
import type { App } from '../../app.js';
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

/** Registers `GET /files/*` serving `blobs`. */
export function registerBlobFiles(app: App, blobs: BlobStore): void {
  // HEAD is declared explicitly: Fastify's automatic HEAD route would reset Content-Length to 0.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/files/*',
    schema: { hide: true, params: z.object({ '*': z.string() }) },
    handler: async (request, reply) => {
      const key = request.params['*'];
      if (!isValidBlobKey(key)) return reply.status(404).send(notFound);
      const info = await blobs.stat(key);
      if (!info) return reply.status(404).send(notFound);

      reply.header('accept-ranges', 'bytes');
      reply.header('cache-control', 'public, max-age=0');
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
