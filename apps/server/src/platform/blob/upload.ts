/**
 * One way to keep files a person uploaded (message media, campaign media): each goes to the blob
 * store under the company's own space with an unguessable key (`c/{companyId}/{kind}/{random}-{name}`,
 * access.ts `newKey`), so it is served only to that company's users or through a signed URL.
 */
import type { UploadedFile } from '../http/multipart.js';
import type { BlobStore } from './types.js';

/** A stored upload: its blob key, its app URL (`/files/...` on PUBLIC_URL), the name it came with and its content type. */
export type StoredUpload = { key: string; url: string; name: string; contentType: string };

/** A file name safe as the last part of a blob key (no path, only `[A-Za-z0-9._-]`, at most 100 characters). */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'file';
  return (
    base
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^\.+/, '')
      .slice(-100) || 'file'
  );
}

/**
 * Stores `files` in order under `c/{companyId}/{kind}/`.
 * @param kind the key's folder, e.g. `mms`, `campaign-media`.
 * @returns one {@link StoredUpload} per file; an empty content type becomes `application/octet-stream`.
 * @throws whatever the blob store throws (nothing is rolled back: callers store before their transaction).
 */
export async function storeUploads(blobs: BlobStore, companyId: number, kind: string, files: readonly UploadedFile[]): Promise<StoredUpload[]> {
  const out: StoredUpload[] = [];
  for (const f of files) {
    const name = safeFileName(f.filename);
    const key = blobs.newKey(companyId, kind, `-${name}`);
    await blobs.put(key, f.data);
    out.push({ key, url: blobs.url(key), name: f.filename || name, contentType: f.mimetype || 'application/octet-stream' });
  }
  return out;
}
