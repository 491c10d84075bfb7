/** The caller-id module's entry. Enhanced caller ID: caller-name lookups through the lookup port, cached per E.164 number (spec 001 "enhanced-caller-id", 002 "trestle/lookup"; docs/caller-id.md). See `platform/module.ts`. */
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import type { ModuleEntry } from '../../platform/module.js';
import { onCallsChangedLookup, registerCallerIdJobs } from './caller-id.jobs.js';
import { registerCallerIdRoutes } from './caller-id.routes.js';

/** Subscribes the automatic lookup of inbound callers to `call.changed` (docs/caller-id.md "Automatic lookups"). */
function setupCallerId(_ctx: AppContext): void {
  events.consumeBatch('caller-id.lookups', 'call.changed', onCallsChangedLookup);
}

export const callerIdModule: ModuleEntry[] = [{ name: 'caller-id', routes: registerCallerIdRoutes, jobs: registerCallerIdJobs, setup: setupCallerId }];
