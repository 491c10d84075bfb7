/** `GET /api/user` and `POST /api/user/whats_new_read` (foundation §7 "Session and account calls"). */
import { CurrentUser, errorResponses } from '@switchboard/contracts';
import type { App } from '../../app.js';
import type { AppContext } from '../../context.js';
import { getCurrentUser, markWhatsNewRead } from './users.service.js';

export function registerUsersRoutes(app: App, ctx: AppContext): void {
  app.get('/api/user', {
    schema: { tags: ['session'], summary: 'The signed-in user', response: { 200: CurrentUser, ...errorResponses } },
  }, async (request) => getCurrentUser(ctx, request.auth!.userId));

  app.post('/api/user/whats_new_read', {
    schema: { tags: ['session'], summary: "Stamps What's New as read now", response: { 200: CurrentUser, ...errorResponses } },
  }, async (request) => markWhatsNewRead(ctx, request.auth!.userId));
}
