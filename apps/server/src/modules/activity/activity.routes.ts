/** `GET /api/activity` (spec 001 §7 "Analytics, activity and calls"). */
import { ActivityList, ActivityQuery, errorResponses } from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { listActivity } from './activity.service.js';

/** Registers `GET /api/activity` (spec 001 §7 "Analytics, activity and calls"). */
export function registerActivityRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/activity',
    {
      config: { access: access.company('reports.read') },
      schema: {
        tags: ['activity'],
        summary: 'Calls, voicemails and messages of a company, newest first. filter: JSON-encoded object or filter[calls]=0 style.',
        querystring: ActivityQuery,
        response: { 200: ActivityList, ...errorResponses },
      },
    },
    async (req) => listActivity(ctx, req.auth!.userId, req.query),
  );
}
