/**
 * The OpenAPI document at `/api/docs/json` as integrators use it (docs/api-and-webhooks.md "The OpenAPI document",
 * "Operation ids", "Declared answers"):
 *
 * - **Operation ids**: every operation carries a stable, readable `operationId` (`listConversations`,
 *   `createDniPool`), derived in ONE place from the method and the route pattern (`deriveOperationId`), with the
 *   explicit names of `OPERATION_ID_OVERRIDES` where the derived one reads badly. They are public API: generated
 *   clients name their methods after them, so `openapi-operation-ids.txt` (checked in) holds the list and a test
 *   fails when one changes. Unique: a duplicate makes the document fail to build (the test fails).
 * - **Optional query and body fields**: zod emits a field with a preprocess default (`isArchived`, `async`) as
 *   required; the document marks optional every top-level query or body field whose zod schema accepts a missing
 *   value (`acceptsMissing`), which is what the server really does.
 * - **Answers without a body**: a `z.null()` answer (204) has no content; `redirectAnswer` (302) also declares its
 *   `Location` header; `fileAnswer` declares a download's media types (`application/pdf`, `text/csv`, …).
 * - **Answers checked in tests**: under vitest an `onSend` hook records every answer whose status or content type
 *   the route does not declare (`undeclaredAnswers`); 500 and 503 (internal error, overloaded) are the answers any
 *   route may give and are not declared per operation.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import pluralize from 'pluralize';
import { z } from 'zod';
import { $ZodAsyncError, type $ZodType } from 'zod/v4/core';

// ---------------------------------------------------------------------------------------------
// Response declarations for routes
// ---------------------------------------------------------------------------------------------

/** A file's bytes in the document (`type: string, format: binary`; a generated client reads it as a blob or text). */
export const BinaryBody = z.string().meta({ format: 'binary' }) as z.ZodType<unknown>;

/**
 * A download's answer for a route's `schema.response` (e.g. `200: fileAnswer('application/pdf', 'The dashboard as
 * a PDF file')`): the media types it is sent as, each with a binary body. Fastify serializes nothing for it (the route
 * sends a Buffer, a stream or text).
 */
export function fileAnswer(mediaTypes: string | string[], description: string) {
  const types = Array.isArray(mediaTypes) ? mediaTypes : [mediaTypes];
  return { description, content: Object.fromEntries(types.map((t) => [t, { schema: BinaryBody }])) };
}

/** An answer without a body (204) for a route's `schema.response`. */
export const NO_CONTENT = z.null().optional() as z.ZodType<unknown>;

/** A text answer that is not JSON (TwiML `text/xml`, a script) for a route's `schema.response`. */
export function textAnswer(mediaTypes: string | string[], description: string) {
  const types = Array.isArray(mediaTypes) ? mediaTypes : [mediaTypes];
  return { description, content: Object.fromEntries(types.map((t) => [t, { schema: z.string() as z.ZodType<unknown> }])) };
}

/** Metadata key marking a redirect answer (read back by the document's transform). */
const REDIRECT = 'x-redirect';

/** A redirect (302/303) for a route's `schema.response`: no body, a `Location` header (`description`: where to). */
export function redirectAnswer(description: string) {
  return z.null().meta({ description, [REDIRECT]: true });
}

// ---------------------------------------------------------------------------------------------
// Operation ids
// ---------------------------------------------------------------------------------------------

/**
 * Explicit operation ids by `METHOD /pattern` (the Fastify pattern, as in openapi-examples.ts), where the derived
 * name reads badly. An entry here is as public as a derived id: change neither without a deprecation.
 */
export const OPERATION_ID_OVERRIDES: Record<string, string> = {
  'GET /metrics': 'getMetrics',
  'POST /api/sanctum/mfa': 'loginMfa',
  'GET /api/sanctum/logout': 'logoutWithGet',
  'POST /api/sanctum/createTokenSession': 'createTokenSession',
  'POST /api/sanctum/mfaToken': 'loginMfaToken',
  'DELETE /api/user/mfa': 'disableUserMfa',
  'POST /api/client/signup/check': 'checkSignup',
  'POST /api/client/signup/create': 'signUp',
  'GET /api/sanctum/remoteLogin/:x': 'remoteLogin',
  'GET /api/user/mfa/sms': 'getUserMfaSms',
  'POST /api/user/mfa/sms': 'enrolUserMfaSms',
  'POST /api/user/mfa/reactivate': 'reactivateUserMfaSms',
  'GET /api/oauth/:provider/redirect': 'startOauthSignIn',
  'POST /api/oauth/:provider/token': 'loginOauthToken',
  'GET /api/oauth/:provider/callback': 'oauthCallback',
  'POST /api/oauth/consent': 'answerOauthConsent',
  'POST /api/user/whats_new_read': 'markWhatsNewRead',
  'GET /api/user/custom-fields': 'getUserCustomFields',
  'GET /api/companies/:companyId/users/:userId/custom-fields': 'getMemberCustomFields',
  'PUT /api/companies/:companyId/users/:userId/custom-fields': 'updateMemberCustomFields',
  'DELETE /api/companies/:companyId/users/:userId': 'removeUser',
  'POST /api/business-units/:organizationId/companies/bulk-update': 'bulkUpdateBusinessUnitCompanies',
  'GET /api/companies/slim': 'listCompaniesSlim',
  'GET /api/companies/:companyId/settings': 'getCompanySettings',
  'PUT /api/companies/:companyId/settings': 'updateCompanySettings',
  'GET /api/dev/outbox': 'listDevOutbox',
  'POST /api/numbers': 'purchaseNumber',
  'GET /api/numbers/list/:idOrNumber': 'findNumber',
  'PUT /api/v1/numbers': 'bulkUpdateNumbers',
  'POST /api/numbers/bulk': 'bulkPurchaseNumbers',
  'GET /api/companies/:companyId/numbers/batches/:batchId': 'getNumberBatch',
  'GET /api/companies/:companyId/numbers/datatable': 'listNumbersDatatable',
  'GET /api/numbers/patterns': 'listNumberPatterns',
  'GET /api/numbers/overlay/:areaCode': 'getAreaCodeOverlay',
  'GET /api/numbers/enumerations': 'getNumberEnumerations',
  'POST /api/companies/:companyId/number-limit-increase': 'requestNumberLimitIncrease',
  'POST /api/company/:companyId/numbers/port': 'createPortRequest',
  'GET /api/blocks/:companyId': 'listCompanyBlocks',
  'POST /api/calls/:id/tags/tags': 'addCallTags',
  'DELETE /api/calls/:id/tags/tags': 'removeCallTags',
  'PUT /api/voicemails/:id/read': 'markVoicemailRead',
  'PUT /api/voicemails/:id/unread': 'markVoicemailUnread',
  'POST /api/v1/calls/token': 'createBrowserCallToken',
  'GET /api/companies/:companyId/outbound-calls/caller-ids': 'listOutboundCallerIds',
  'PUT /api/companies/:companyId/outbound-calls/caller-id': 'updateOutboundCallerId',
  'POST /api/companies/:companyId/outbound-calls/:callId/dtmf': 'sendOutboundCallDtmf',
  'POST /api/companies/:companyId/in-app-calling/status': 'setInAppCallingStatus',
  'GET /api/companies/:companyId/in-app-calling/calls/:callId/can-answer-call': 'canAnswerInAppCall',
  'POST /api/companies/:companyId/in-app-calling/calls/:callId/answer': 'answerInAppCall',
  'POST /api/companies/:companyId/in-app-calling/calls/:callId/reject': 'rejectInAppCall',
  'POST /api/companies/:companyId/in-app-calling/calls/:callId/hangup': 'hangupInAppCall',
  'GET /api/companies/:companyId/schedule': 'getCompanySchedule',
  'PUT /api/companies/:companyId/schedule': 'updateCompanySchedule',
  'GET /api/greetings/voices': 'listGreetingVoices',
  'POST /api/greetings/speak': 'speakGreeting',
  'POST /api/campaigns/:id': 'updateCampaignForm',
  'POST /webhooks/twilio/campaigns/status': 'receiveTwilioCampaignMessageStatus',
  'PUT /api/companies/:companyId/contacts': 'upsertContacts',
  'POST /api/companies/:companyId/contacts/bulkDestroy': 'bulkDeleteContacts',
  'POST /api/companies/:companyId/contacts/bulkExport': 'bulkExportContacts',
  'GET /api/companies/:companyId/contacts/progress/:batchId': 'getContactImportProgress',
  'POST /api/companies/:companyId/contacts/import/preview': 'previewContactImport',
  'GET /api/companies/:companyId/contacts/import/:batchId/report': 'getContactImportReport',
  'POST /api/groups/:companyId/:groupId/all-contacts': 'addAllContactsToGroup',
  'POST /api/groups/:id/contacts': 'addGroupContacts',
  'DELETE /api/groups/:id/contacts': 'removeGroupContacts',
  'POST /api/companies/:id/contactLabels/:labelId/bulkAddLabel': 'bulkAddContactLabel',
  'POST /api/companies/:id/contactLabels/:labelId/bulkRemoveLabel': 'bulkRemoveContactLabel',
  'POST /api/eavEntityTypes/:type/eavAttributes': 'createEavAttribute',
  'PUT /api/eavEntityTypes/:type/eavAttributes/:id': 'updateEavAttribute',
  'GET /api/eavAttributes/:id/countStats': 'getEavAttributeCountStats',
  'PUT /api/companies/:companyId/custom-fields': 'updateCompanyCustomFields',
  'POST /api/message': 'sendMessage',
  'POST /api/inbox/message/schedule': 'scheduleMessage',
  'DELETE /api/inbox/message/schedule/:id': 'cancelScheduledMessage',
  'POST /webhooks/twilio/messaging': 'receiveTwilioMessage',
  'POST /webhooks/twilio/messaging/status': 'receiveTwilioMessageStatus',
  'POST /api/company/:companyId/trestle/lookup': 'lookupTrestleCallerId',
  'PUT /api/companies/:companyId/conversations/:cid/read-all': 'markConversationRead',
  'PUT /api/companies/:companyId/conversations/:cid/items/:iid/read': 'markConversationItemRead',
  'PUT /api/companies/:companyId/conversations/:cid/items/:iid/unread': 'markConversationItemUnread',
  'PUT /api/companies/:companyId/conversations/bulk-update': 'bulkUpdateConversations',
  'PUT /api/companies/:companyId/conversations/read-all-by-type': 'markConversationsReadByType',
  'GET /api/inbox/conversations/items': 'listInboxItems',
  'PUT /api/inbox/conversations/:id/archive': 'archiveConversation',
  'PUT /api/inbox/conversations/:id/restore': 'restoreConversation',
  'GET /api/activity': 'listActivity',
  'GET /api/companies/:companyId/notificationCounts': 'getNotificationCounts',
  'POST /api/companies/:companyId/notificationBlocks': 'createNotificationBlocks',
  'GET /api/companies/:companyId/trackingNumbers/script': 'getTrackingScript',
  'PUT /api/companies/:companyId/trackingNumbers/settings': 'updateTrackingSettings',
  'POST /api/companies/:companyId/trackingNumbers/verifyScript': 'verifyTrackingScript',
  'GET /api/companies/:companyId/dniTimelineEvents/:sessionId': 'getDniSessionTimeline',
  'GET /api/companies/:companyId/dniTimelineEventsByNumber/:number': 'listDniTimelineEventsByNumber',
  'POST /api/dni/reports/calls': 'getDniCallsReport',
  'GET /api/dni/reports': 'getDniPoolReport',
  'GET /api/bulkAttributeUpdate/companies/:companyId': 'getCompanyBulkAttributeTemplate',
  'POST /api/bulkAttributeUpdate/companies/:companyId': 'uploadCompanyBulkAttributeUpdate',
  'GET /api/bulkAttributeUpdate/businessUnits/:id': 'getBusinessUnitBulkAttributeTemplate',
  'POST /api/bulkAttributeUpdate/businessUnits/:id': 'uploadBusinessUnitBulkAttributeUpdate',
  'GET /api/dni/public/:key/script.js': 'getDniScript',
  'GET /api/dni/public/:key/session': 'getDniSession',
  'GET /api/dni/public/:key/pageview': 'trackDniPageView',
  'GET /api/dni/public/:key/heartbeat': 'dniHeartbeat',
  'GET /api/dni/public/:key/forget': 'forgetDniVisitor',
  'GET /api/dni/demo/:key': 'getDniDemoPage',
  'GET /api/analytics/calls': 'getCallsReport',
  'GET /api/analytics/calls/pdf': 'getCallsReportPdf',
  'GET /api/analytics/exports/:id/download': 'downloadAnalyticsExport',
  'GET /api/monitoring/alerts/counts': 'getMonitoringAlertCounts',
  'GET /api/monitoring/alerts/:id/history': 'listMonitoringAlertHistory',
  'GET /api/monitoring/settings': 'getMonitoringSettings',
  'GET /api/custom-domain-configuration/tld-validation': 'validateCustomDomainTld',
  'POST /api/custom-domain-configuration/sandbox-dns': 'setCustomDomainSandboxDns',
  'GET /api/audit-log': 'listAuditLog',
  'GET /api/general-settings/index': 'listGeneralSettingsIndex',
  'POST /api/general-settings/bulk': 'bulkUpdateGeneralSettings',
  'GET /api/tags/links': 'listTagLinks',
  'POST /api/tags/links': 'createTagLinks',
  'DELETE /api/tags/links': 'deleteTagLinks',
  'POST /api/contact/support-ticket/:companyId': 'createSupportTicket',
  'GET /api/contact/support-tickets': 'listSupportTickets',
  'GET /api/data-group': 'listDataGroups',
  'POST /api/user/push-notifications/test': 'testPushNotification',
  'POST /api/company/:id/billing': 'updateBilling',
  'POST /api/company/:companyId/subscription/migrate/preview': 'previewSubscriptionMigration',
  'POST /api/company/:companyId/subscription/features': 'addSubscriptionFeatures',
  'POST /webhooks/stripe': 'receiveStripeEvent',
  'POST /sandbox-payments/v1/payment_methods': 'createSandboxPaymentMethod',
  'POST /sandbox-payments/v1/setup_intents/authenticate': 'authenticateSandboxSetupIntent',
  'GET /api/companies/:companyId/caller-id/settings': 'getCallerIdSettings',
  'GET /api/company/:companyId/invoices/upcoming': 'getUpcomingInvoice',
  'GET /api/campaigns/sending-numbers': 'listCampaignSendingNumbers',
  'GET /api/ops/outbox': 'getOutboxStatus',
  'POST /api/ops/outbox/consumers/:consumer/retry': 'retryOutboxConsumer',
  'POST /api/ops/outbox/consumers/:consumer/replay': 'replayOutboxConsumer',
  'GET /api/companies/:companyId/sms-verification/campaign': 'listSmsVerificationCampaigns',
  'POST /api/companies/:companyId/sms-verification/campaign/:id/:brandId': 'updateSmsVerificationDraft',
  'POST /webhooks/telnyx/10dlc': 'receiveTelnyx10dlcEvent',
  'GET /api/calls/search': 'searchCallTranscripts',
  'GET /api/calls/search/exports/:id': 'getTranscriptSearchExport',
  'POST /api/calls/:id/converse': 'askAboutCall',
  'POST /api/companies/:companyId/marketplace/numbers': 'listNumberOnMarketplace',
  'GET /api/companies/:companyId/marketplace/numbers/kpi': 'getMarketplaceKpi',
  'GET /api/companies/:companyId/marketplace/numbers/report': 'getMarketplaceReport',
  'POST /webhooks/sandbox/fax': 'receiveSandboxFaxEvent',
};

/** Path segments that carry no meaning for a name (Laravel's `sanctum`, the version prefix). */
const NOISE = new Set(['api', 'v1', 'sanctum']);

/** First words of a last path segment that make it an action (`POST /campaigns/{id}/pause` → `pauseCampaign`). */
const ACTIONS = new Set([
  'accept',
  'activate',
  'add',
  'answer',
  'apply',
  'approve',
  'archive',
  'attach',
  'authenticate',
  'bulk',
  'cancel',
  'check',
  'clear',
  'connect',
  'converse',
  'deactivate',
  'detach',
  'export',
  'forget',
  'forgot',
  'hangup',
  'heartbeat',
  'hold',
  'import',
  'leave',
  'locate',
  'login',
  'logout',
  'lookup',
  'migrate',
  'mute',
  'pause',
  'preview',
  'purchase',
  'reactivate',
  'read',
  'reject',
  'remove',
  'replay',
  'resend',
  'reset',
  'restore',
  'retry',
  'revert',
  'rotate',
  'say',
  'search',
  'send',
  'speak',
  'start',
  'submit',
  'test',
  'transfer',
  'unread',
  'verify',
]);

const pascal = (w: string) => (w ? w[0]!.toUpperCase() + w.slice(1) : w);
/** The words of a path segment: `rotate-secret` → rotate, secret; `notificationCountsByNumber` → notification, counts, by, number. */
const wordsOf = (segment: string) =>
  segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
const singular = (words: string[]) => (words.length ? [...words.slice(0, -1), pluralize.singular(words.at(-1)!)] : words);

/**
 * The derived operation id of `method` on the Fastify route pattern `url` (`:param` placeholders):
 * - the path's static segments name it (`/api`, `/v1`, `/sanctum` and a leading `companies/{companyId}` scope
 *   dropped; a segment followed by an id is made singular: `/conversations/{cid}/items` → ConversationItems);
 * - a last segment that starts with an action word (`ACTIONS`) gives the verb (`POST /numbers/{id}/rotate` →
 *   `rotateNumber`); otherwise the method does: GET of a plural collection → `list…`, GET of an item or a singleton
 *   → `get…`, POST → `create…` (singular), PUT/PATCH → `update…`, DELETE → `delete…`, HEAD → `head…`.
 * Pure and deterministic; uniqueness is checked over the whole document (`assignOperationIds`).
 */
export function deriveOperationId(method: string, url: string): string {
  const segs = url.split('/').filter(Boolean);
  let i = 0;
  while (i < segs.length && NOISE.has(segs[i]!)) i++;
  if (segs[i] === 'webhooks' && segs.length > i + 1) i++;
  let rest = segs.slice(i);
  if ((rest[0] === 'companies' || rest[0] === 'company') && rest[1]?.startsWith(':') && rest.length > 2) rest = rest.slice(2);
  const phrases: { words: string[]; id: boolean }[] = [];
  rest.forEach((s, k) => {
    if (s.startsWith(':') || NOISE.has(s)) return;
    phrases.push({ words: wordsOf(s), id: rest[k + 1]?.startsWith(':') ?? false });
  });
  // The same word twice in a row (`/calls/{id}/tags/tags`) is said once.
  const words = (list: { words: string[]; id: boolean }[]) => {
    const out: string[] = [];
    for (const p of list) for (const w of p.id ? singular(p.words) : p.words) if (out.at(-1) !== w && pluralize.singular(out.at(-1) ?? '') !== w) out.push(w);
    return out;
  };
  const m = method.toUpperCase();
  const last = phrases.at(-1);
  if (!last) return m.toLowerCase() + 'Root';
  const lastIsParam = rest.at(-1)?.startsWith(':') ?? false;
  if (!lastIsParam && last.words.length && ACTIONS.has(last.words[0]!) && (phrases.length > 1 || m !== 'GET')) {
    const [verb, ...object] = last.words;
    return verb + words(phrases.slice(0, -1)).map(pascal).join('') + object.map(pascal).join('');
  }
  let verb: string;
  let name = words(phrases);
  if (m === 'HEAD') verb = 'head';
  else if (m === 'GET') {
    const plural = !lastIsParam && !last.id && pluralize.isPlural(last.words.at(-1)!) && !pluralize.isSingular(last.words.at(-1)!);
    verb = plural ? 'list' : 'get';
  } else if (m === 'POST') {
    verb = lastIsParam ? 'update' : 'create';
    if (!lastIsParam) name = singular(name);
  } else if (m === 'PUT' || m === 'PATCH') verb = 'update';
  else if (m === 'DELETE') verb = 'delete';
  else verb = m.toLowerCase();
  return verb + name.map(pascal).join('');
}

/** The operation id of `method` on the Fastify pattern `url`: the override when there is one, else the derived name. */
export function operationIdOf(method: string, url: string): string {
  return OPERATION_ID_OVERRIDES[`${method.toUpperCase()} ${url}`] ?? deriveOperationId(method, url);
}

/**
 * Operations that only refuse, by `METHOD /pattern`: marked `deprecated` with the reason, so a generated client
 * flags them (`GET /api/sanctum/logout` answers 405 so that a link or an image cannot sign anyone out; docs/auth.md).
 */
export const REFUSAL_ONLY: Record<string, string> = {
  'GET /api/sanctum/logout': 'Always 405 (`Allow: POST`): sign out with POST /api/sanctum/logout.',
};

type OpenApiOperation = { operationId?: string; [k: string]: unknown };
type OpenApiDocument = { paths?: Record<string, Record<string, OpenApiOperation>>; [k: string]: unknown };
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Puts the operation id on every operation of the document (a route's own `schema.operationId` wins) and checks
 * they are unique. @throws Error naming both operations of a duplicate (the document then fails to build).
 */
export function assignOperationIds<T extends OpenApiDocument>(doc: T): T {
  const seen = new Map<string, string>();
  const duplicates: string[] = [];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const out: Record<string, unknown> = {};
    const pattern = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) {
        out[method] = op;
        continue;
      }
      // A route with several methods shares one operation object between them: each gets its own copy.
      const id = op.operationId && !op.operationId.endsWith('-head') ? op.operationId : operationIdOf(method, pattern);
      const where = `${method.toUpperCase()} ${path}`;
      const other = seen.get(id);
      if (other) duplicates.push(`${id}: ${other} and ${where}`);
      else seen.set(id, where);
      const { operationId: _own, ...rest } = op;
      const refusal = REFUSAL_ONLY[`${method.toUpperCase()} ${pattern}`];
      out[method] = { operationId: id, ...rest, ...(refusal ? { deprecated: true, description: `${refusal}\n\n${String(op.description ?? '')}`.trim() } : {}) };
    }
    paths[path] = out;
  }
  if (duplicates.length)
    throw new Error(`Duplicate operation ids (name one of each in OPERATION_ID_OVERRIDES, platform/http/openapi.ts): ${duplicates.join('; ')}`);
  return { ...doc, paths };
}

// ---------------------------------------------------------------------------------------------
// The transform of each route's schemas
// ---------------------------------------------------------------------------------------------

/** Whether a zod schema accepts a missing value (`undefined`): an optional field, a default, a preprocess that fills one. */
export function acceptsMissing(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object' || !('_zod' in schema)) return false;
  try {
    return (schema as z.ZodType).safeParse(undefined).success;
  } catch (error) {
    if (error instanceof $ZodAsyncError) return false; // an async refinement: keep what zod says
    throw error;
  }
}

/** The top-level fields of an object schema (`z.object`, also behind `.pipe`/`.transform`), or null. */
function shapeOf(schema: unknown): Record<string, $ZodType> | null {
  let s = schema as { _zod?: { def: { type: string; shape?: Record<string, $ZodType>; in?: unknown; innerType?: unknown } } } | undefined;
  for (let depth = 0; s?._zod && depth < 5; depth++) {
    const def = s._zod.def;
    if (def.type === 'object') return def.shape ?? null;
    if (def.type === 'pipe') s = def.in as typeof s;
    else if (def.innerType) s = def.innerType as typeof s;
    else return null;
  }
  return null;
}

/** Drops from a JSON schema's `required` the fields whose zod schema accepts a missing value. */
function relaxRequired(json: unknown, zod: unknown): void {
  const shape = shapeOf(zod);
  const j = json as { required?: string[] } | undefined;
  if (!shape || !j || !Array.isArray(j.required)) return;
  j.required = j.required.filter((k) => !acceptsMissing(shape[k]));
  if (j.required.length === 0) delete j.required;
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * `@fastify/swagger`'s per-route transform: fastify-type-provider-zod's `jsonSchemaTransform`, then optional
 * fields marked optional (`acceptsMissing`) and body-less answers (`z.null()`, `redirectAnswer`) without content.
 */
export function openApiTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const out = jsonSchemaTransform(input);
  const src = input.schema as Record<string, unknown> | undefined;
  const schema = out.schema as Record<string, unknown> | undefined;
  if (!src || !schema || schema.hide) return out;
  if (schema.querystring) relaxRequired(schema.querystring, src.querystring);
  if (schema.body) relaxRequired(schema.body, src.body);
  const responses = schema.response as Record<string, Record<string, unknown>> | undefined;
  for (const [status, json] of Object.entries(responses ?? {})) {
    const isNull = json && (json.type === 'null' || (Array.isArray(json.enum) && json.enum.length === 1 && json.enum[0] === null));
    if (!isNull) continue;
    const description = typeof json.description === 'string' ? json.description : status === '204' ? 'No content' : undefined;
    responses![status] = {
      type: 'null',
      ...(description ? { description } : {}),
      ...(json[REDIRECT] ? { headers: { Location: { type: 'string', description: 'Where the browser goes next' } } } : {}),
    };
  }
  return out;
}

/**
 * Registers `@fastify/swagger` with the document's introduction (`description`, markdown), the security schemes,
 * the transforms above and, under vitest, the answer check (`undeclaredAnswers`). Call before any route.
 */
export async function registerOpenApi(app: FastifyInstance, description: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Switchboard API', version: '0.1.0', description },
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (`sbk_…`) created under Administration → API keys, sent as `Authorization: Bearer sbk_…`.',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'switchboard_session',
            description: 'The web app’s session cookie; state-changing requests also send `X-XSRF-TOKEN` (the `XSRF-TOKEN` cookie).',
          },
        },
      },
      security: [{ apiKey: [] }, { session: [] }],
    },
    transform: openApiTransform as never,
    transformObject: (document) =>
      'openapiObject' in document ? (assignOperationIds(document.openapiObject as OpenApiDocument) as typeof document.openapiObject) : document.swaggerObject,
  });
  if (process.env.VITEST) app.addHook('onSend', checkAnswer);
}

// ---------------------------------------------------------------------------------------------
// The answer check (tests)
// ---------------------------------------------------------------------------------------------

/** One answer a route gave that its schema does not declare. */
export type UndeclaredAnswer = { method: string; url: string; status: number; contentType: string | null; why: string };

const undeclared: UndeclaredAnswer[] = [];
/** Answers any route may give without declaring them: an internal error, overloaded (pool deadline, shutdown). */
const UNIVERSAL = new Set([500, 503]);

/** The undeclared answers seen by this process's servers so far (tests only; empty outside vitest). */
export function undeclaredAnswers(): readonly UndeclaredAnswer[] {
  return undeclared;
}

/** The media types a declared answer may carry: null for a body-less one, `*` for a route without response schemas. */
export function declaredMediaTypes(declared: unknown): string[] | null {
  if (declared && typeof declared === 'object' && 'content' in declared && (declared as { content: unknown }).content) {
    return Object.keys((declared as { content: Record<string, unknown> }).content);
  }
  let def = (declared as { _zod?: { def: ZodDef } } | undefined)?._zod?.def;
  while (def && (def.type === 'optional' || def.type === 'nullable') && def.innerType) def = def.innerType._zod.def;
  if (def && (def.type === 'null' || def.type === 'undefined')) return null;
  return ['application/json'];
}

type ZodDef = { type: string; innerType?: { _zod: { def: ZodDef } } };

const mediaMatches = (declared: string, actual: string) =>
  declared === actual || declared === '*/*' || (declared.endsWith('/*') && actual.startsWith(declared.slice(0, -1)));

/**
 * The check of one answer against the route's declaration: its status among the declared ones (a route without
 * response schemas declares only the document's default 200) and, when it has a body, its media type among that
 * status's. Records a mismatch in `undeclaredAnswers`; never changes the answer.
 */
async function checkAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const route = request.routeOptions;
  const schema = route?.schema as { hide?: boolean; response?: Record<string, unknown> } | undefined;
  if (!route?.url || schema?.hide || UNIVERSAL.has(reply.statusCode)) return payload;
  if (route.url.startsWith('/api/docs')) return payload;
  const status = reply.statusCode;
  const contentType =
    String(reply.getHeader('content-type') ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase() || null;
  const url = route.url;
  const record = (why: string) => {
    if (!undeclared.some((u) => u.method === request.method && u.url === url && u.status === status && u.contentType === contentType)) {
      undeclared.push({ method: request.method, url, status, contentType, why });
      request.log.error({ status, contentType, route: `${request.method} ${url}` }, `undeclared answer: ${why}`);
    }
  };
  const responses = schema?.response;
  if (!responses) {
    if (status !== 200) record(`status ${status} (the route declares no responses: only the default 200)`);
    return payload;
  }
  const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses[`${String(status)[0]}xx`] ?? responses.default;
  if (declared === undefined) {
    record(`status ${status} is not among ${Object.keys(responses).join(', ')}`);
    return payload;
  }
  const empty = payload === undefined || payload === null || payload === '' || (Buffer.isBuffer(payload) && payload.length === 0);
  if (empty || request.method === 'HEAD' || !contentType) return payload;
  const types = declaredMediaTypes(declared);
  if (types === null) record(`status ${status} declares no body, the answer has ${contentType}`);
  else if (!types.some((t) => mediaMatches(t.toLowerCase(), contentType))) record(`${contentType} is not among ${types.join(', ')} for ${status}`);
  return payload;
}
