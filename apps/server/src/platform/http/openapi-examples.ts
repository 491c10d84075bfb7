/**
 * Request and response examples of the main public operations in the OpenAPI document (`/api/docs`;
 * docs/api-and-webhooks.md "The OpenAPI document"). They ride on the routes' own zod schemas: `withOpenApiExamples`,
 * called by the access check's `onRoute` hook (access.ts) for every route, puts the examples on the route's body and
 * response schema (zod `.meta({'x-examples'})`, which @fastify/swagger turns into the media type's named `examples`;
 * not the `examples` keyword, which zod drops from input schemas that transform, and not on an optional/nullable
 * wrapper, whose metadata zod drops too: the wrapped schema carries it) and an example request line in the
 * operation's description. Every example is parsed with the route's own schema when the route is
 * registered: an example that no longer matches its schema stops the server from starting (like an undeclared route),
 * so the document never shows a stale example.
 */
import type { ZodType } from 'zod';

/** The media type's named example (`examples.<name>`) the document shows. */
export const EXAMPLE_NAME = 'example';

/** The examples of one operation (method and Fastify URL pattern as the key, e.g. `GET /api/contacts`). */
export type OperationExamples = {
  /** The request's query (parsed with the route's querystring schema) shown as an example request line. */
  query?: Record<string, string>;
  /** The JSON body (parsed with the route's body schema). */
  body?: unknown;
  /** The answer of a status the route declares (parsed with that response schema). */
  response: { status: number; value: unknown };
};

const COMPANY_ID = 12;
const CREATED_AT = '2026-03-02T15:04:05.000Z';

/** The default business-hours schedule of a new number, as the examples show it. */
const SCHEDULE_EXAMPLE = {
  preset: 1,
  timezone: 'America/New_York',
  hours: {
    mon: {
      open: null,
      close: null,
    },
    tue: {
      open: null,
      close: null,
    },
    wed: {
      open: null,
      close: null,
    },
    thu: {
      open: null,
      close: null,
    },
    fri: {
      open: null,
      close: null,
    },
    sat: {
      open: null,
      close: null,
    },
    sun: {
      open: null,
      close: null,
    },
  },
  blocks: [
    {
      day: 'mon',
      start: '00:00',
      end: '24:00',
    },
    {
      day: 'tue',
      start: '00:00',
      end: '24:00',
    },
    {
      day: 'wed',
      start: '00:00',
      end: '24:00',
    },
    {
      day: 'thu',
      start: '00:00',
      end: '24:00',
    },
    {
      day: 'fri',
      start: '00:00',
      end: '24:00',
    },
    {
      day: 'sat',
      start: '00:00',
      end: '24:00',
    },
    {
      day: 'sun',
      start: '00:00',
      end: '24:00',
    },
  ],
};

/** A number as `GET /api/companies/{companyId}/numbers` answers it (a new local number with the default routing). */
const NUMBER_EXAMPLE = {
  id: 42,
  company_id: 12,
  number: '+13125559499',
  national_number: '(312) 555-9499',
  label: '(312) 555-9499',
  type: 1,
  type_label: 'Local Voice & SMS',
  category: 1,
  provider_id: 1,
  routes: [
    {
      _id: '1.1',
      extension: 1,
      label: '',
      forwards: [],
      schedule: SCHEDULE_EXAMPLE,
      stagger: false,
      caller_id_pass_thru: true,
      type: 'standard',
      confirm_key: null,
      confirm_key_wait: 10,
      timeout: 20,
      onhold_music_id: null,
      geo_by_state_enabled: false,
      geo_by_state_static_fallback: true,
      confirm_whisper: '',
      email_alert_address: '',
      voicemail_enabled: false,
      round_robin: null,
    },
  ],
  schedule: SCHEDULE_EXAMPLE,
  route_type: 'Standard',
  schedule_label: '24/7',
  menu_replays: 2,
  menu_fallback: 'first',
  created_at: '2026-03-02T15:04:05.000Z',
  forwards: [],
  tags: [],
  port: null,
  triggers: [],
  eavAttributeValues: [],
  unread_messages_count: 0,
  hasNotificationBlocks: false,
  call_transcription_enabled: false,
  sms_enabled: true,
  sms_verification: {
    status: 'unverified',
  },
  record: false,
  ai_eav_enabled: false,
};

const WEBHOOK_EXAMPLE = {
  id: 7,
  company_id: COMPANY_ID,
  url: 'https://hooks.example.com/switchboard',
  description: 'CRM sync',
  events: ['call.completed', 'message.received'],
  enabled: true,
  disabled_reason: null,
  disabled_at: null,
  failing_since: null,
  created_at: CREATED_AT,
};

/** The examples, by `METHOD /api/pattern`. A key that names no route fails the OpenAPI test (platform/http/openapi-examples.test.ts). */
export const OPENAPI_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  'GET /api/contacts': {
    query: { company_id: String(COMPANY_ID), search: 'jane', page: '1', per_page: '25' },
    response: {
      status: 200,
      value: {
        data: [
          {
            id: 501,
            name: 'Jane Doe',
            number: '+13125550142',
            email: 'jane@example.com',
            source: 'Manual',
            is_unsubscribed: false,
            is_invalid: false,
            labels: [{ id: 3, label: 'VIP' }],
            groups: [{ id: 9, name: 'Customers' }],
            eavAttributeValues: [],
          },
        ],
        meta: { pagination: { current_page: 1, total_pages: 1, total: 1, per_page: 25 } },
      },
    },
  },
  'POST /api/contacts': {
    body: { company_id: COMPANY_ID, first_name: 'Jane', last_name: 'Doe', number: '+13125550142', email: 'jane@example.com', groups: [9] },
    response: {
      status: 201,
      value: {
        id: 501,
        company_id: COMPANY_ID,
        name: 'Jane Doe',
        first_name: 'Jane',
        last_name: 'Doe',
        number: '+13125550142',
        company_name: null,
        email: 'jane@example.com',
        address1: null,
        address2: null,
        city: null,
        state: null,
        zip: null,
        notes: null,
        optin_type: null,
        optin_source: null,
        alternative_names: [],
        secondary_emails: [],
        carrier: null,
        gender: null,
        age_range: null,
        type: null,
        added_at: CREATED_AT,
        source: 'Manual',
        is_invalid: false,
        is_unsubscribed: false,
        custom: {},
        groups: [{ id: 9, name: 'Customers' }],
        labels: [],
        eavAttributeValues: [],
        eav_attribute_values: [],
        created_at: CREATED_AT,
        updated_at: CREATED_AT,
      },
    },
  },
  'POST /api/message': {
    body: { company_id: COMPANY_ID, number_id: 42, to: '+13125550142', content: 'Your technician is on the way.' },
    response: {
      status: 201,
      value: {
        id: 9001,
        conversationId: 310,
        isInbound: false,
        isRead: true,
        createdAt: CREATED_AT,
        details: {
          type: 'message',
          content: 'Your technician is on the way.',
          deliveryState: 'sending',
          errorCode: null,
          errorText: null,
          media: [],
          callId: null,
          voicemailId: null,
          callStatus: null,
          callStatusLabel: null,
          durationS: null,
          shouldBeSentAt: null,
          userId: 4,
        },
      },
    },
  },
  'GET /api/activity': {
    query: {
      company: String(COMPANY_ID),
      page: '1',
      per_page: '10',
      filter: JSON.stringify({ calls: true, voicemails: false, messages: false, faxes: false }),
    },
    response: {
      status: 200,
      value: {
        data: [
          {
            id: 'call-2207',
            kind: 'call',
            created_at: CREATED_AT,
            number: { id: 42, number: '+13125559499', label: 'Main line' },
            call_id: 2207,
            from: '+13125550142',
            to: '+13125559499',
            direction: 'inbound',
            status_label: 'Answered',
            duration_s: 184,
            recording_url: null,
            contact: { id: 501, name: 'Jane Doe' },
            enhanced_caller_id: null,
            answer_status: 'answered',
            is_first_contact: false,
            traffic_source: 'Google Ads',
          },
        ],
        meta: { current_page: 1, per_page: 10, total: 1, last_page: 1, show_progress: false },
      },
    },
  },
  'GET /api/companies/:companyId/numbers': {
    response: { status: 200, value: { data: [NUMBER_EXAMPLE] } },
  },
  'GET /api/webhook-endpoints': {
    query: { company_id: String(COMPANY_ID) },
    response: { status: 200, value: { data: [WEBHOOK_EXAMPLE] } },
  },
  'POST /api/webhook-endpoints': {
    body: { company_id: COMPANY_ID, url: 'https://hooks.example.com/switchboard', description: 'CRM sync', events: ['call.completed', 'message.received'] },
    response: { status: 201, value: { message: 'Webhook created successfully', data: WEBHOOK_EXAMPLE } },
  },
};

type RouteSchema = {
  body?: unknown;
  querystring?: unknown;
  response?: Record<string | number, unknown>;
  description?: string;
};

function isZod(s: unknown): s is ZodType {
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof (s as { safeParse?: unknown }).safeParse === 'function' &&
    typeof (s as { meta?: unknown }).meta === 'function'
  );
}

/**
 * `schema` with `x-examples` metadata on the innermost schema under optional and nullable wrappers (rebuilt around it:
 * the same validation), where the JSON Schema conversion keeps it.
 */
function withExampleMeta(schema: ZodType, summary: string, value: unknown): ZodType {
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: ZodType } } })._zod.def;
  if (def.type === 'optional' && def.innerType) return withExampleMeta(def.innerType, summary, value).optional();
  if (def.type === 'nullable' && def.innerType) return withExampleMeta(def.innerType, summary, value).nullable();
  return schema.meta({ 'x-examples': { [EXAMPLE_NAME]: { summary, value } } });
}

/** Parses `value` with `schema`; throws a registration error naming the operation and the first issue. */
function check(key: string, where: string, schema: unknown, value: unknown): void {
  if (!isZod(schema)) throw new Error(`OpenAPI example of ${key}: the route has no zod ${where} schema`);
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(`OpenAPI example of ${key} (${where}) does not match its schema: ${JSON.stringify(r.error.issues[0])}`);
}

/**
 * The route's schema with its examples (OPENAPI_EXAMPLES), or the schema unchanged when it has none. Called for every
 * route at registration (access.ts `onRoute`).
 * @throws Error when an example does not parse with the route's schema, or names a schema the route lacks.
 */
export function withOpenApiExamples<S extends RouteSchema>(method: string, url: string, schema: S): S {
  const key = `${method} ${url}`;
  const ex = OPENAPI_EXAMPLES[key];
  if (!ex) return schema;
  const out: RouteSchema = { ...schema };
  const lines: string[] = [];
  if (ex.query) {
    check(key, 'querystring', schema.querystring, ex.query);
    lines.push(`Example: \`${method} ${url}?${new URLSearchParams(ex.query).toString()}\``);
  }
  if (ex.body !== undefined) {
    check(key, 'body', schema.body, ex.body);
    out.body = withExampleMeta(schema.body as ZodType, 'Request', ex.body);
  }
  const responseSchema = schema.response?.[ex.response.status];
  check(key, `response ${ex.response.status}`, responseSchema, ex.response.value);
  out.response = { ...schema.response, [ex.response.status]: withExampleMeta(responseSchema as ZodType, `${ex.response.status} answer`, ex.response.value) };
  if (lines.length) out.description = schema.description ? `${schema.description}\n\n${lines.join('\n')}` : lines.join('\n');
  return out as S;
}

/** The operations that carry examples, as `METHOD /api/pattern` (for the OpenAPI test). */
export function operationsWithExamples(): string[] {
  return Object.keys(OPENAPI_EXAMPLES);
}
