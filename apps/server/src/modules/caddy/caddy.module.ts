/**
 * The consumer area's module entry (level 9; spec 002 "Consumer area"; docs/consumer-area.md). See `platform/module.ts`.
 * - routes: the 23 calls under `/api/caddy` (caddy.routes.ts) with their own consumer guard, the app-store webhooks and
 *   the sandbox store (caddy.stores.routes.ts, stores/), the removal ticker;
 * - jobs: `caddy.tick` (releases numbers past their removal date, sends the 7-day and 1-day reminders);
 * - setup: `caddy.usage` meters minutes and texts from `call.changed`, `message.received`, `message.status-changed`;
 *   `caddy.invitations` honours STOP/START replies for invitations on `message.received`.
 */
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import type { App } from '../../platform/http/app-type.js';
import type { ModuleEntry } from '../../platform/module.js';
import { onInboundKeyword } from './caddy.community.js';
import { registerCaddyJobs, registerCaddyTicker } from './caddy.numbers.js';
import { registerCaddyRoutes } from './caddy.routes.js';
import { registerCaddyStoreRoutes } from './caddy.stores.routes.js';
import { onCallChanged, onMessageReceived, onMessageStatus } from './caddy.usage.js';

async function routes(app: App, ctx: AppContext): Promise<void> {
  await registerCaddyRoutes(app, ctx);
  await registerCaddyStoreRoutes(app, ctx);
  registerCaddyTicker(app, ctx);
}

function setup(): void {
  events.consume('caddy.usage', 'call.changed', onCallChanged);
  events.consume('caddy.usage', 'message.received', onMessageReceived);
  events.consume('caddy.usage', 'message.status-changed', onMessageStatus);
  events.consume('caddy.invitations', 'message.received', onInboundKeyword);
}

export const caddyModule: ModuleEntry[] = [{ name: 'caddy', routes, jobs: registerCaddyJobs, setup }];
