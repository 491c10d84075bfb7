/** Picks the carrier adapter named by `CARRIER` (sandbox by default). */
import type { Config } from '../platform/config.js';
import type { Db } from '../platform/db/db.js';
import type { Queue } from '../platform/queue.js';
import type { CarrierPort } from './carrier.port.js';
import { SandboxCarrier } from './sandbox/sandbox.carrier.js';
import { TwilioCarrier } from './twilio/twilio.carrier.js';

/** A new adapter of the carrier `config.carrier` names: Twilio, else the sandbox (which needs the database and queue for its simulated network). */
export function createCarrier(config: Config, db: Db, queue: Queue): CarrierPort {
  if (config.carrier === 'twilio') return new TwilioCarrier(config);
  return new SandboxCarrier(config, db, queue);
}
