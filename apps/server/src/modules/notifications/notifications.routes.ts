/**
 * Notification counts and blocks (spec 002 "Messages and notifications"); all company-scoped (403 for others).
 * GET .../notificationCountsByNumber answers `{data: [...]}` like every other list.
 */
import {
  CompanyParams,
  NotificationBlockList,
  NotificationBlocksBody,
  NotificationCounts,
  NotificationCountsByNumber,
  errorResponses,
} from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { listNotificationBlocks, notificationCounts, notificationCountsByNumber, setNotificationBlocks } from './notifications.service.js';

const tags = ['notifications'];

/** Registers the notification counts and blocks routes. */
export function registerNotificationRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/companies/:companyId/notificationCounts',
    {
      config: { access: access.company('company.read') },
      schema: {
        tags,
        summary: 'Unread message, call, voicemail and fax counts (muted channels left out)',
        params: CompanyParams,
        response: { 200: NotificationCounts, ...errorResponses },
      },
    },
    async (req) => notificationCounts(ctx, req.auth!.userId, req.params.companyId),
  );

  app.get(
    '/api/companies/:companyId/notificationCountsByNumber',
    {
      config: { access: access.company('company.read') },
      schema: { tags, summary: 'Unread counts per number', params: CompanyParams, response: { 200: NotificationCountsByNumber, ...errorResponses } },
    },
    async (req) => ({ data: await notificationCountsByNumber(ctx, req.auth!.userId, req.params.companyId) }),
  );

  app.get(
    '/api/companies/:companyId/notificationBlocks',
    {
      config: { access: access.company('company.read') },
      schema: {
        tags,
        summary: "The caller's notification blocks, per number",
        params: CompanyParams,
        response: { 200: NotificationBlockList, ...errorResponses },
      },
    },
    async (req) => listNotificationBlocks(ctx, req.auth!.userId, req.params.companyId),
  );

  for (const [method, blocked] of [
    ['post', true],
    ['delete', false],
  ] as const) {
    app[method](
      '/api/companies/:companyId/notificationBlocks',
      {
        // Muting one's own notifications: a personal preference in the company.
        config: { access: access.company('preferences.own') },
        schema: {
          tags,
          summary: blocked ? 'Mute notifications of numbers per channel type' : 'Unmute notifications of numbers per channel type',
          params: CompanyParams,
          body: NotificationBlocksBody,
          response: { 200: NotificationBlockList, ...errorResponses },
        },
      },
      async (req) => setNotificationBlocks(ctx, req.auth!.userId, req.params.companyId, req.body, blocked),
    );
  }
}
