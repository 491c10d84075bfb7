/**
 * The consumer area's module entry (level 9; spec 002 "Consumer area"; docs/consumer-area.md). See `platform/module.ts`.
 * - routes: the 23 calls under `/api/caddy` (caddy.routes.ts) with their own consumer guard, the app-store webhooks and
 *   the sandbox store (caddy.stores.routes.ts, stores/), the removal ticker;
 * - jobs: `caddy.tick` (releases numbers past their removal date, sends the 7-day and 1-day reminders);
 * - setup: `caddy.usage` meters minutes and texts from `call.changed`, `message.received`, `message.status-changed`
 *   (and sends the new usage live); `caddy.invitations` honours STOP/START replies for invitations on `message.received`;
 *   `caddy.live` sends `call updated` of the accounts' calls on `call.changed`; the `inAppRing` hook sends `call ringing`;
 * - live: the Socket.IO namespace `/caddy` (caddy.usage.ts `registerCaddyLive`), rooms `caddy.{accountId}`.
 */
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import type { App } from '../../platform/http/app-type.js';
import type { ModuleEntry } from '../../platform/module.js';
import { accountOfToken } from './caddy.accounts.js';
import { onCallChangedLive, onInAppRing } from './caddy.calling.js';
import { onInboundKeyword } from './caddy.community.js';
import { registerCaddyJobs, registerCaddyTicker } from './caddy.numbers.js';
import { isConsumerCompany, isKeywordMessage } from './caddy.repository.js';
import { registerCaddyRoutes } from './caddy.routes.js';
import { registerCaddyStoreRoutes } from './caddy.stores.routes.js';
import { onCallChanged, onMessageReceived, onMessageStatus, registerCaddyLive } from './caddy.usage.js';

async function routes(app: App, ctx: AppContext): Promise<void> {
  await registerCaddyRoutes(app, ctx);
  await registerCaddyStoreRoutes(app, ctx);
  registerCaddyTicker(app, ctx);
  registerCaddyLive(ctx, (token) => accountOfToken(ctx, token));
}

function setup(ctx: AppContext): void {
  // Conditions at emit (see `DeliveryCondition`): only a consumer account's company gets usage and live deliveries,
  // only a keyword message (STOP, START, HELP) an invitations one.
  events.consume('caddy.usage', 'call.changed', onCallChanged, { when: isConsumerCompany });
  events.consume('caddy.usage', 'message.received', onMessageReceived, { when: isConsumerCompany });
  events.consume('caddy.usage', 'message.status-changed', onMessageStatus, { when: isConsumerCompany });
  events.consume('caddy.invitations', 'message.received', onInboundKeyword, { when: isKeywordMessage });
  events.consume('caddy.live', 'call.changed', onCallChangedLive, { when: isConsumerCompany });
  ctx.hooks.provide('inAppRing', onInAppRing);
}

export const caddyModule: ModuleEntry[] = [{ name: 'caddy', routes, jobs: registerCaddyJobs, setup }];
