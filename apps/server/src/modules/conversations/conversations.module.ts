/** The conversations module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { AppContext } from '../../context.js';
import type { ModuleEntry } from '../../platform/module.js';
import { registerConversationRoutes } from './conversations.routes.js';
import { registerConversationSubscribers } from './conversations.call-items.js';
import { conversationsRepository } from './conversations.repository.js';

/** Subscribes the inbox to call changes and tells the account-deletion check whether the company has inbox activity. */
function setupConversations(ctx: AppContext): void {
  registerConversationSubscribers();
  ctx.hooks.provide('companyUsageProbe', (_ctx, companyId, db) => conversationsRepository.companyHasItems(db, companyId), 'conversations');
}

export const conversationsModule: ModuleEntry[] = [{ name: 'conversations', routes: registerConversationRoutes, setup: setupConversations }];
