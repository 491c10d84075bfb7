/**
 * The call-intelligence module's entry. Call intelligence: transcript search, questions about a call (converse), AI
 * attributes from transcripts (spec 001 "GET /calls/search", "POST /calls/{id}/converse", "PATCH /calls/{id}"
 * `recalculateAiAttributes`; docs/call-intelligence.md). Setup subscribes the search read model to
 * `transcript.changed`, `call.changed` and `call.annotated`, and registers the calls module's
 * `recalculateAiAttributes` hook. See `platform/module.ts`.
 */
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import type { ModuleEntry } from '../../platform/module.js';
import { onCallsChanged, onTranscriptChanged } from './call-intelligence.indexing.js';
import { registerCallIntelligenceJobs } from './call-intelligence.jobs.js';
import { recalculateAiAttributes } from './call-intelligence.rules.js';
import { registerCallIntelligenceRoutes } from './call-intelligence.routes.js';

function setupCallIntelligence(ctx: AppContext): void {
  events.consume('call-intelligence.search-index', 'transcript.changed', onTranscriptChanged);
  events.consumeBatch('call-intelligence.search-index', 'call.changed', onCallsChanged);
  events.consumeBatch('call-intelligence.search-index', 'call.annotated', onCallsChanged);
  ctx.hooks.provide('aiAttributesRecalculator', recalculateAiAttributes);
}

export const callIntelligenceModule: ModuleEntry[] = [
  { name: 'call-intelligence', routes: registerCallIntelligenceRoutes, jobs: registerCallIntelligenceJobs, setup: setupCallIntelligence },
];
