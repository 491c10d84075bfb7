/**
 * Alerts HTTP routes (spec 001 "Alerts"): GET /api/monitoring/alerts (perPage 10, company or businessUnitId,
 * companyIds, filters), GET /api/monitoring/alerts/counts, GET/PUT /api/monitoring/alerts/{id},
 * GET /api/monitoring/alerts/{id}/history; the monitors' settings (docs/alerts.md): GET/PUT /api/monitoring/settings,
 * PUT /api/monitoring/notification-preferences. HTTP only; the service checks access.
 */
import {
  AlertBody,
  AlertCountsBody,
  AlertCountsQuery,
  AlertHistoryBody,
  AlertListBody,
  AlertListQuery,
  AlertUpdatedBody,
  IdParams,
  MessageBody,
  MonitorSettingsBody,
  MonitorSettingsQuery,
  UpdateAlertEmailInput,
  UpdateAlertInput,
  UpdateMonitorSettingsInput,
  errorResponses,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import {
  alertCounts,
  alertHistory,
  getAlert,
  getMonitorSettings,
  listAlerts,
  updateAlert,
  updateAlertEmailPreference,
  updateMonitorSettings,
} from './alerts.service.js';

const tags = ['alerts'];

export function registerAlertRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/monitoring/alerts',
    { config: { access: access.company('alerts.read') }, schema: { tags, querystring: AlertListQuery, response: { 200: AlertListBody, ...errorResponses } } },
    async (request) => {
      // The spec's `filters` object and the flat parameters are one set of filters (a key in `filters` wins).
      const { filters, ...q } = request.query;
      return listAlerts(ctx, request.auth!.userId, { ...q, ...filters, companyId: q.company ?? q.companyId ?? q.company_id });
    },
  );
  app.get(
    '/api/monitoring/alerts/counts',
    {
      config: { access: access.company('alerts.read') },
      schema: { tags, querystring: AlertCountsQuery, response: { 200: AlertCountsBody, ...errorResponses } },
    },
    async (request) => {
      const q = request.query;
      return alertCounts(ctx, request.auth!.userId, { ...q, companyId: q.company ?? q.companyId ?? q.company_id });
    },
  );
  app.get(
    '/api/monitoring/alerts/:id',
    { config: { access: access.company('alerts.read') }, schema: { tags, params: IdParams, response: { 200: AlertBody, ...errorResponses } } },
    async (request) => getAlert(ctx, request.auth!.userId, request.params.id),
  );
  app.put(
    '/api/monitoring/alerts/:id',
    {
      config: { access: access.company('alerts.respond') },
      schema: { tags, params: IdParams, body: UpdateAlertInput, response: { 200: AlertUpdatedBody, ...errorResponses } },
    },
    async (request) => updateAlert(ctx, request.auth!.userId, request.params.id, request.body),
  );
  app.get(
    '/api/monitoring/alerts/:id/history',
    { config: { access: access.company('alerts.read') }, schema: { tags, params: IdParams, response: { 200: AlertHistoryBody, ...errorResponses } } },
    async (request) => alertHistory(ctx, request.auth!.userId, request.params.id),
  );
  app.get(
    '/api/monitoring/settings',
    {
      config: { access: access.company('alerts.read') },
      schema: { tags, querystring: MonitorSettingsQuery, response: { 200: MonitorSettingsBody, ...errorResponses } },
    },
    async (request) => getMonitorSettings(ctx, request.auth!.userId, request.query.companyId ?? request.query.company_id),
  );
  app.put(
    '/api/monitoring/settings',
    {
      config: { access: access.company('alerts.manage') },
      schema: { tags, body: UpdateMonitorSettingsInput, response: { 200: MessageBody, ...errorResponses } },
    },
    async (request) => updateMonitorSettings(ctx, request.auth!.userId, request.body.companyId, request.body.monitors),
  );
  app.put(
    '/api/monitoring/notification-preferences',
    { config: { access: access.company('alerts.read') }, schema: { tags, body: UpdateAlertEmailInput, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => updateAlertEmailPreference(ctx, request.auth!.userId, request.body.companyId, request.body.emailAlerts),
  );
}
