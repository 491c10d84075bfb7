/** Picks the carrier adapter named by `CARRIER` (sandbox by default). */
import type { Config } from '../platform/config.js';
import type { Db } from '../platform/db/db.js';
import type { Queue } from '../platform/queue.js';
import type { CarrierPort } from './carrier.port.js';
import { SandboxCarrier } from './sandbox/sandbox.carrier.js';
import { TwilioCarrier } from './twilio/twilio.carrier.js';
import type { BlobStore } from '../platform/blob.js';
import type { FaxPort } from './fax.port.js';
import { SandboxFax } from './sandbox/sandbox.fax.js';
import { TelnyxFax } from './telnyx/telnyx.fax.js';

/** A new adapter of the carrier `config.carrier` names: Twilio, else the sandbox (which needs the database and queue for its simulated network). */
export function createCarrier(config: Config, db: Db, queue: Queue): CarrierPort {
  if (config.carrier === 'twilio') return new TwilioCarrier(config);
  return new SandboxCarrier(config, db, queue);
}

/**
 * A new adapter of the fax provider `config.faxProvider` names (docs/fax.md "The fax port"): Telnyx
 * Programmable Fax, else the sandbox (which needs the queue for its simulated progress and the blob
 * store for simulated inbound PDFs). Create it before the queue starts (the sandbox defines a job).
 * @throws Error for `telnyx` without its settings.
 */
export function createFaxPort(config: Config, queue: Queue, blobs: BlobStore): FaxPort {
  if (config.faxProvider === 'telnyx') return new TelnyxFax(config);
  return new SandboxFax(config, queue, blobs);
}
