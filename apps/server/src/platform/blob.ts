/**
 * Blob store for recordings, greetings, MMS media, contact imports and exports (docs/operations.md
 * "Blob store"): a local folder (`${DATA_DIR}/blobs`) by
 * default, an S3-compatible bucket when `S3_BUCKET` is set. Keys are relative paths; `url(key)`
 * is `${PUBLIC_URL}/files/{key}` for both stores and is served by the app (blob/serve.ts) to the
 * owning company's users; `signedUrl`/`carrierUrl` give short-lived links to anyone else
 * (blob/access.ts).
 */
import path from 'node:path';
import type { Config } from './config.js';
import { LocalBlobStore } from './blob/local.js';
import { S3BlobStore } from './blob/s3.js';
import type { BlobStore } from './blob/types.js';

export { BlobAccess, CARRIER_URL_TTL_MS, EMAIL_URL_TTL_MS, ownerOfKey } from './blob/access.js';
export { LocalBlobStore } from './blob/local.js';
export { S3BlobStore } from './blob/s3.js';
export {
  blobUrl,
  contentTypeFor,
  InvalidBlobKeyError,
  isValidBlobKey,
  type BlobInfo,
  type BlobRange,
  type BlobStore,
  type LocalBlobFile,
} from './blob/types.js';

/** The configured store: S3 when `config.s3` is set, else the folder `${dataDir}/blobs` (created). */
export function createBlobStore(config: Pick<Config, 's3' | 'dataDir' | 'publicUrl'>): BlobStore {
  if (config.s3) return new S3BlobStore(config.s3, config.publicUrl);
  return new LocalBlobStore(path.join(config.dataDir, 'blobs'), config.publicUrl);
}
