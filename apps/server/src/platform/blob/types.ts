/**
 * The blob store port: where recordings, greetings, MMS media, imports and exports live.
 * Keys are relative `/`-separated paths (`c/{companyId}/{kind}/{unguessable}.wav`, access.ts);
 * every blob is served by the app at `url(key)` = `${PUBLIC_URL}/files/{key}` whatever the
 * backing store, to the owning company's users or through a signed URL (platform/blob/serve.ts).
 */
import type { Readable } from 'node:stream';
import type { BlobAccess } from './access.js';

/** Size (bytes), modification time and entity tag of a stored blob. */
export type BlobInfo = { size: number; lastModified?: Date; etag?: string };

/** An inclusive byte range `[start, end]` (0-based), as in an HTTP `Range` header. */
export type BlobRange = { start: number; end: number };

/** A blob copied to (or found on) the local disk; call `release()` when done with it. */
export type LocalBlobFile = { path: string; release: () => Promise<void> };

/** Thrown by `put`/`delete`/`localFile` for a key that is not a safe relative path. */
export class InvalidBlobKeyError extends Error {
  constructor(key: string) {
    super(`invalid blob key: ${JSON.stringify(key).slice(0, 200)}`);
  }
}

/** Key naming and URL signing, shared by every store (access.ts). */
export type BlobAccessMethods = Pick<BlobAccess, 'setSecret' | 'canSign' | 'newKey' | 'derivedKey' | 'signedUrl' | 'verify' | 'keyOf' | 'carrierUrl'>;

export interface BlobStore extends BlobAccessMethods {
  /** `local` (a folder) or `s3` (an S3-compatible bucket). */
  readonly kind: 'local' | 's3';
  /** Base URL of the app (no trailing slash) used by `url()`; rewritten when the port is chosen at start. */
  publicUrl: string;
  /** Stores bytes under `key`, replacing any previous blob. @throws InvalidBlobKeyError */
  put(key: string, data: Buffer | Uint8Array): Promise<void>;
  /**
   * Stores the local file at `file` under `key` as a stream (never the whole file in memory: large
   * exports), replacing any previous blob; the file itself is left in place. @throws InvalidBlobKeyError
   */
  putFile(key: string, file: string): Promise<void>;
  /** Reads bytes, or null when missing (or the key is invalid). */
  get(key: string): Promise<Buffer | null>;
  /** Removes the blob under `key` (no error when missing). @throws InvalidBlobKeyError */
  delete(key: string): Promise<void>;
  /**
   * Absolute URL where the blob is served: `${publicUrl}/files/{key}` (segments URL-encoded), to
   * signed-in users of the owning company; `signedUrl`/`carrierUrl` for anyone else.
   */
  url(key: string): string;
  /** Size and validators, or null when missing (or the key is invalid). */
  stat(key: string): Promise<BlobInfo | null>;
  /** A byte stream of the whole blob or of `range`, or null when missing (or the key is invalid). */
  stream(key: string, range?: BlobRange): Promise<Readable | null>;
  /**
   * The blob as a file on the local disk (for libraries that read files by path). For a missing
   * blob the path does not exist, so reading it fails like reading a missing file.
   * @throws InvalidBlobKeyError
   */
  localFile(key: string): Promise<LocalBlobFile>;
  /** Releases connections (S3 client sockets). */
  close(): void;
}

/**
 * True for a safe relative key: 1-1024 characters, `/`-separated non-empty segments other than
 * `.` and `..`, no leading `/`, no backslash or control characters. Keeps every key inside the
 * store's folder or bucket (no path traversal through `put`, `get` or the `/files/` route).
 */
export function isValidBlobKey(key: unknown): key is string {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) return false;
  if (/[\\\u0000-\u001f\u007f]/.test(key)) return false;
  return key.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** `${publicUrl}/files/{key}` with each key segment URL-encoded. */
export function blobUrl(publicUrl: string, key: string): string {
  return `${publicUrl}/files/${key.split('/').map(encodeURIComponent).join('/')}`;
}

const TYPES: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
  weba: 'audio/webm',
  amr: 'audio/amr',
  gsm: 'audio/x-gsm',
  ulaw: 'audio/basic',
  au: 'audio/basic',
  webm: 'video/webm',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  '3gp': 'video/3gpp',
  '3g2': 'video/3gpp2',
  mpeg: 'video/mpeg',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  heic: 'image/heic',
  heif: 'image/heif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  vcf: 'text/vcard; charset=utf-8',
  json: 'application/json',
  xml: 'application/xml',
  zip: 'application/zip',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
};

/** Content-Type from the key's extension (case-insensitive); `application/octet-stream` when unknown. */
export function contentTypeFor(key: string): string {
  const base = key.slice(key.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return 'application/octet-stream';
  return TYPES[base.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
}
