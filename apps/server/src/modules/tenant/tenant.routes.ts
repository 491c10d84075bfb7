/**
 * Tenant HTTP routes (spec 002 "Organizations and tenant"; docs/workspace.md "Tenant"): `GET /api/tenant-config`
 * (public), `GET /api/companies/{companyId}/tenant`, `PUT .../tenant/tenant-information`,
 * `POST .../tenant/email-sender/start-verification` and `.../check`, `GET /api/custom-domain-configuration/tld-validation`,
 * `GET|POST|DELETE /api/custom-domain-configuration`, `POST /api/custom-domain-configuration/check`, and with the sandbox
 * DNS `POST /api/custom-domain-configuration/sandbox-dns`. HTTP only; the service checks access.
 */
import {
  CompanyParams,
  CustomDomainBody,
  CustomDomainInput,
  CustomDomainQuery,
  CustomDomainSaved,
  EmailSenderInput,
  EmailSenderSaved,
  MessageBody,
  TenantBody,
  TenantConfigBody,
  TenantConfigQuery,
  TenantInformationInput,
  TenantSaved,
  TldValidation,
  TldValidationQuery,
  errorResponses,
} from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import {
  checkCustomDomain,
  checkEmailSender,
  deleteCustomDomain,
  getCompanyTenant,
  getCustomDomain,
  publishSandboxRecords,
  saveCustomDomain,
  startEmailSenderVerification,
  tenantConfig,
  updateTenantInformation,
  validateTld,
} from './tenant.service.js';

/** Registers the tenant routes. */
export async function registerTenantRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['tenant'];
  app.get(
    '/api/tenant-config',
    { config: { access: access.public() }, schema: { tags, querystring: TenantConfigQuery, response: { 200: TenantConfigBody, ...errorResponses } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'public, max-age=60');
      return tenantConfig(ctx, request.query.hostname ?? request.hostname);
    },
  );
  app.get(
    '/api/companies/:companyId/tenant',
    { config: { access: access.company('company.read') }, schema: { tags, params: CompanyParams, response: { 200: TenantBody, ...errorResponses } } },
    async (request) => getCompanyTenant(ctx, request.auth!.userId, request.params.companyId),
  );
  app.put(
    '/api/companies/:companyId/tenant/tenant-information',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, params: CompanyParams, body: TenantInformationInput, response: { 200: TenantSaved, ...errorResponses } },
    },
    async (request) => updateTenantInformation(ctx, request.auth!.userId, request.params.companyId, request.body),
  );
  app.post(
    '/api/companies/:companyId/tenant/email-sender/start-verification',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, params: CompanyParams, body: EmailSenderInput, response: { 200: EmailSenderSaved, ...errorResponses } },
    },
    async (request) => startEmailSenderVerification(ctx, request.auth!.userId, request.params.companyId, request.body.email),
  );
  app.post(
    '/api/companies/:companyId/tenant/email-sender/check',
    { config: { access: access.company('settings.manage') }, schema: { tags, params: CompanyParams, response: { 200: EmailSenderSaved, ...errorResponses } } },
    async (request) => checkEmailSender(ctx, request.auth!.userId, request.params.companyId),
  );
  app.get(
    '/api/custom-domain-configuration/tld-validation',
    {
      config: { access: access.company('company.read') },
      schema: { tags, querystring: TldValidationQuery, response: { 200: TldValidation, ...errorResponses } },
    },
    async (request) => validateTld(ctx, request.auth!.userId, request.query),
  );
  app.get(
    '/api/custom-domain-configuration',
    {
      config: { access: access.company('company.read') },
      schema: { tags, querystring: CustomDomainQuery, response: { 200: CustomDomainBody, ...errorResponses } },
    },
    async (request) => getCustomDomain(ctx, request.auth!.userId, request.query.businessUnitId),
  );
  app.post(
    '/api/custom-domain-configuration',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, body: CustomDomainInput, response: { 200: CustomDomainSaved, ...errorResponses } },
    },
    async (request) => saveCustomDomain(ctx, request.auth!.userId, request.body),
  );
  app.post(
    '/api/custom-domain-configuration/check',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, body: CustomDomainQuery, response: { 200: CustomDomainSaved, ...errorResponses } },
    },
    async (request) => checkCustomDomain(ctx, request.auth!.userId, request.body.businessUnitId),
  );
  app.delete(
    '/api/custom-domain-configuration',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags, querystring: CustomDomainQuery, response: { 200: MessageBody, ...errorResponses } },
    },
    async (request) => deleteCustomDomain(ctx, request.auth!.userId, request.query.businessUnitId),
  );
  app.post(
    '/api/custom-domain-configuration/sandbox-dns',
    { config: { access: access.company('settings.manage') }, schema: { tags, body: CustomDomainQuery, response: { 200: MessageBody, ...errorResponses } } },
    async (request) => publishSandboxRecords(ctx, request.auth!.userId, request.body.businessUnitId),
  );
}
