/**
 * Schedule HTTP routes (spec 002 "Schedule"; docs/numbers.md):
 * GET/PUT /api/companies/{companyId}/schedule; GET/PUT /api/user/schedule;
 * GET /api/numbers/{id}/override (the override in force now); PUT /api/numbers/{id}/override {mode: auto|open|closed, until?}.
 */
import {
  CompanyParams,
  CompanyScheduleBody,
  IdParams,
  NumberOverrideBody,
  NumberOverrideInput,
  NumberOverrideStateBody,
  PutCompanyScheduleInput,
  PutUserScheduleInput,
  UserScheduleBody,
  errorResponses,
} from '@switchboard/contracts';
import type { Schedule } from '@switchboard/domain';
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { getCompanySchedule, getNumberOverride, getUserSchedule, putCompanySchedule, putUserSchedule, setNumberOverride } from './schedules.service.js';

const Saved = <T extends z.ZodObject>(body: T) => body.extend({ message: z.string() });

/** Registers the schedule and override routes listed in the file header. */
export function registerSchedulesRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/companies/:companyId/schedule',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags: ['schedule'], params: CompanyParams, response: { 200: CompanyScheduleBody, ...errorResponses } },
    },
    async (req) => getCompanySchedule(ctx, req.auth!.userId, req.params.companyId),
  );

  app.put(
    '/api/companies/:companyId/schedule',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags: ['schedule'], params: CompanyParams, body: PutCompanyScheduleInput, response: { 200: Saved(CompanyScheduleBody), ...errorResponses } },
    },
    async (req) =>
      putCompanySchedule(ctx, req.auth!.userId, req.params.companyId, { schedule: req.body.schedule as Schedule | undefined, holidays: req.body.holidays }),
  );

  app.get(
    '/api/user/schedule',
    { config: { access: access.signedIn() }, schema: { tags: ['schedule'], response: { 200: UserScheduleBody, ...errorResponses } } },
    async (req) => getUserSchedule(ctx, req.auth!.userId),
  );

  app.put(
    '/api/user/schedule',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['schedule'], body: PutUserScheduleInput, response: { 200: Saved(UserScheduleBody), ...errorResponses } },
    },
    async (req) => putUserSchedule(ctx, req.auth!.userId, req.body.schedule as Schedule),
  );

  app.get(
    '/api/numbers/:id/override',
    {
      config: { access: access.company('numbers.read') },
      schema: { tags: ['schedule'], params: IdParams, response: { 200: NumberOverrideStateBody, ...errorResponses } },
    },
    async (req) => getNumberOverride(ctx, req.auth!.userId, req.params.id),
  );

  app.put(
    '/api/numbers/:id/override',
    {
      config: { access: access.company('numbers.manage') },
      schema: { tags: ['schedule'], params: IdParams, body: NumberOverrideInput, response: { 200: NumberOverrideBody, ...errorResponses } },
    },
    async (req) => setNumberOverride(ctx, req.auth!.userId, req.params.id, req.body),
  );
}
