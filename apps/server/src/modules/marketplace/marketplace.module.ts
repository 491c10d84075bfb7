/**
 * The marketplace module's entry (level 8): the number marketplace — companies list numbers they hold for others to
 * buy; a purchase is billed through billing and the number moves through the numbers service (spec 002 §7
 * "Marketplace"; docs/marketplace.md). See `platform/module.ts`.
 * - routes: list, KPI, detail, listings, create, update, purchase, report CSV under
 *   `/api/companies/{companyId}/marketplace/numbers`;
 * - setup: `number.batch-finished` (release) withdraws the released numbers' open listings.
 */
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import type { App } from '../../platform/http/app-type.js';
import type { ModuleEntry } from '../../platform/module.js';
import { registerMarketplaceRoutes } from './marketplace.routes.js';
import { onNumbersReleased } from './marketplace.service.js';

async function routes(app: App, ctx: AppContext): Promise<void> {
  await registerMarketplaceRoutes(app, ctx);
}

function setup(): void {
  events.consume('marketplace.releases', 'number.batch-finished', onNumbersReleased);
}

export const marketplaceModule: ModuleEntry[] = [{ name: 'marketplace', routes, setup }];
