/** The conversations module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import { registerConversationRoutes } from './conversations.routes.js';
import { registerConversationSubscribers } from './conversations.call-items.js';

export const conversationsModule: ModuleEntry[] = [{ name: 'conversations', routes: registerConversationRoutes, setup: registerConversationSubscribers }];
