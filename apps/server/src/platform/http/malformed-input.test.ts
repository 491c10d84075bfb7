/**
 * Malformed input never yields a 5xx (foundation §8 "validation failures answer 422"; docs/
 * domain-decisions.md "Input hygiene"). Every route of the OpenAPI document (`/api/docs/json`)
 * gets a fixed set of malformed inputs — path parameters that are not ids, NUL bytes and bracket
 * garbage in the query, JSON bodies of the wrong type, NUL strings, lone surrogates and huge
 * numbers in every declared property, malformed JSON text and malformed multipart — as a signed-in
 * company owner (the harness's ApiClient handles the session and the XSRF token); carrier webhooks
 * also get correctly signed form bodies with the same values. Each answer must be below 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { ApiClient, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';

type Operation = {
  summary?: string;
  parameters?: Array<{ in: string; name: string; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
};
type Route = { method: string; path: string; op: Operation };
type Finding = { method: string; url: string; variant: string; status: number; body: unknown };
/** Answers by status class ('2xx', '401', '422', ...): shows the inputs reached the routes as a signed-in user. */
const seen = new Map<string, number>();
function tally(status: number, url = ''): void {
  // The consumer area (/api/caddy) takes consumer sessions only: a business session's 401 there is the rule working,
  // not the fuzzing's session lost.
  if (status === 401 && url.startsWith('/api/caddy/')) status = 4011;
  const k =
    status === 4011
      ? 'caddy 401'
      : status === 401 || status === 403 || status === 404 || status === 422 || status === 429
        ? String(status)
        : `${String(status)[0]}xx`;
  seen.set(k, (seen.get(k) ?? 0) + 1);
}

/** Routes that end the session: fuzzed last, followed by a fresh sign-in. */
const SESSION_ENDING = /^(GET|POST) \/api\/sanctum\/(logout|clearTokenSessions)$/;

const BAD_IDS = ['1.5', '-1', '0', '99999999999999999999', '1e308', '9223372036854775808', '%00', 'abc', '%ED%A0%80', '%E0%A4%A', '0x10', '%20'];
const NUL = 'a\u0000b';
const SURROGATE = 'a\ud800b';

let server: TestServer;
let owner: Account;
let routes: Route[] = [];
/** Real objects of the owner's company, by the path segment that precedes their id (`numbers/{id}`). */
const fixtures: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  owner = await createAccount(server);
  await createFixtures();
  const doc = (await (await fetch(`${server.url}/api/docs/json`)).json()) as { paths: Record<string, Record<string, Operation>> };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) routes.push({ method: method.toUpperCase(), path, op });
    }
  }
  // Session-ending routes last; within the rest, DELETE routes after the others (they may remove what later routes use).
  const rank = (r: Route) => (SESSION_ENDING.test(`${r.method} ${r.path}`) ? 2 : r.method === 'DELETE' ? 1 : 0);
  routes = routes.sort((a, b) => rank(a) - rank(b));
});

afterAll(async () => {
  await server?.close();
});

/** `path` with each `{param}` replaced by `value(name, the path segment before it)`. */
function fill(path: string, value: (name: string, segment: string) => string): string {
  return path.replace(/([^/]*)\/\{([^}]+)\}/g, (_m, segment: string, name: string) => `${segment}/${value(name, segment)}`);
}

/**
 * Objects the malformed inputs can reach behind the id checks: a number, a contact, a group, a
 * label, a draft campaign and a conversation with an inbound text (all through the public API).
 */
async function createFixtures(): Promise<void> {
  const c = owner.client;
  const search = await c.get('/api/numbers/search?type=local&areaCode=212');
  const bought = await c.post('/api/numbers', {
    company_id: owner.companyId,
    provider_id: search.body.data[0].provider_id,
    number: search.body.data[0].number,
  });
  expect(bought.status).toBe(201);
  fixtures.numbers = String(bought.body.id);
  fixtures.number = encodeURIComponent(bought.body.number);
  fixtures.contacts = String((await c.post('/api/contacts', { company_id: owner.companyId, first_name: 'Fuzz', number: '+13125550100' })).body.id);
  const group = (await c.post('/api/groups', { company_id: owner.companyId, name: 'Fuzz group' })).body;
  fixtures.groups = String(group?.data?.id ?? group?.id ?? '');
  fixtures.contactLabels = String((await c.post(`/api/companies/${owner.companyId}/contactLabels`, { label: 'Fuzz label' })).body.id ?? '');
  fixtures.campaigns = String((await c.post('/api/campaigns', { company_id: owner.companyId, title: 'Fuzz', state: 'draft' })).body.id);
  expect(
    (
      await postWebhook(server, '/webhooks/twilio/messaging', {
        MessageSid: `SM${'f'.repeat(32)}`,
        AccountSid: 'ACfuzz',
        From: '+13125550100',
        To: bought.body.number,
        Body: 'Hello',
        NumMedia: '0',
      })
    ).status,
  ).toBe(200);
  const conv = (await c.get(`/api/companies/${owner.companyId}/conversations`)).body.data[0];
  fixtures.conversations = String(conv.id);
  fixtures.items = String((await c.get(`/api/companies/${owner.companyId}/conversations/${conv.id}/items`)).body.data[0]?.id ?? '1');
  fixtures.users = String(owner.userId);
  console.log('fuzz fixtures', JSON.stringify(fixtures));
  for (const [k, v] of Object.entries(fixtures)) if (!/^[\w%+]+$/.test(v)) delete fixtures[k];
}

/** A plausible valid value for a path parameter: the owner's company, a fixture's id, else 1. */
function goodParam(name: string, segment: string): string {
  if (/company/i.test(name)) return String(owner.companyId);
  if (name === 'number') return fixtures.number ?? '%2B15005550006';
  if (name === 'idOrNumber') return fixtures.numbers ?? '1';
  if (name === 'labelId') return fixtures.contactLabels ?? '1';
  if (name === 'groupId') return fixtures.groups ?? '1';
  if (/areaCode/i.test(name)) return '415';
  if (/^type$/.test(name)) return '1';
  return fixtures[segment] ?? '1';
}

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  default?: unknown;
};

function bodySchema(op: Operation): Schema | undefined {
  const content = op.requestBody?.content ?? {};
  return (content['application/json']?.schema ?? Object.values(content)[0]?.schema) as Schema | undefined;
}

/** Top-level body property names: from the schema, else from a summary like "(multipart: a, b[], c JSON)". */
function declaredProps(op: Operation & { summary?: string }): string[] {
  const props = Object.keys(bodySchema(op)?.properties ?? {});
  if (props.length) return props;
  const m = /multipart:? ([^)]*)/.exec(op.summary ?? '');
  return m
    ? m[1]!
        .split(/,| or /)
        .map((x) => x.trim().split(/\s|\[/)[0]!)
        .filter((x) => /^[a-z_]+$/i.test(x))
    : [];
}

function queryNames(op: Operation): string[] {
  return (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
}

function objectWith(props: string[], value: unknown): Record<string, unknown> {
  const names = props.length ? props : ['company_id', 'name', 'content', 'id'];
  return Object.fromEntries(names.map((p) => [p, value]));
}

/**
 * A value that passes `schema` where it can (ids → the owner's company for company fields, else 1;
 * enums → their first value; e-mail and date-time formats → a real one), except that every free
 * string (no enum/format/pattern) is `text(name)` and every integer `int(name)` when given: so a
 * malformed value reaches the service behind the validation of the other fields.
 */
function sample(schema: Schema | undefined, name: string, over: { text?: (name: string) => unknown; int?: (name: string) => unknown }, depth = 0): unknown {
  if (!schema || depth > 4) return 'x';
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt?.length) return sample(alt.find((a) => a.type !== 'null' && !(a.enum && a.enum.length === 1 && a.enum[0] === '')) ?? alt[0], name, over, depth + 1);
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'integer':
    case 'number': {
      if (over.int) return over.int(name);
      if (/company/i.test(name)) return owner.companyId;
      const min = typeof schema.minimum === 'number' ? schema.minimum + (schema.exclusiveMinimum === true ? 1 : 0) : 1;
      return Math.min(Math.max(min, 1), schema.maximum ?? 1);
    }
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(schema.items, name, over, depth + 1));
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v, k, over, depth + 1)]));
    case 'string': {
      if (schema.format === 'email') return 'fuzz@example.test';
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'date') return '2024-01-02';
      if ((schema as { pattern?: string }).pattern) return /number|phone|^to$|^from$/i.test(name) ? '+14155550100' : 'x';
      if (over.text) return over.text(name);
      if (/number|phone|^to$|^from$/i.test(name)) return '+14155550100';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    }
    default:
      return over.text ? over.text(name) : 'x';
  }
}

/** Query string of `op`'s declared parameters sampled as in {@link sample}. */
function sampleQuery(op: Operation, over: Parameters<typeof sample>[2]): string {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  const qs = new URLSearchParams();
  for (const p of params) {
    const v = sample(p.schema as Schema, p.name, over);
    for (const x of Array.isArray(v) ? v : [v]) qs.append(Array.isArray(v) ? `${p.name}[]` : p.name, typeof x === 'object' ? JSON.stringify(x) : String(x));
  }
  return qs.toString();
}

/** Sends one request (no body, a JSON value, or pre-encoded text with its type) and records a 5xx. */
async function send(
  client: ApiClient,
  method: string,
  url: string,
  variant: string,
  body: { json?: unknown; text?: string; type?: string } | undefined,
  findings: Finding[],
): Promise<void> {
  const once = () =>
    body === undefined
      ? client.request(method, url)
      : 'json' in body
        ? client.request(method, url, body.json)
        : rawFetch(client, method, url, body.text!, body.type!);
  let res: { status: number; body: unknown };
  try {
    res = await once();
  } catch {
    // A connection closed before the answer was read (the server may answer a refused body before
    // reading all of it): asked again once; no answer at all the second time counts as a failure.
    try {
      res = await once();
    } catch (e) {
      res = { status: 599, body: String((e as Error).cause ?? e) };
    }
  }
  tally(res.status, url);
  if (res.status >= 500) findings.push({ method, url, variant, status: res.status, body: res.body });
}

/** Sends a pre-encoded body with the client's session (cookies and XSRF header copied by hand). */
async function rawFetch(client: ApiClient, method: string, url: string, text: string, type: string): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': type };
  const jar = (client as unknown as { cookies: Map<string, string> }).cookies;
  if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const xsrf = jar.get('XSRF-TOKEN');
  if (xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
  const res = await fetch(client.baseUrl + url, { method, headers, body: text, redirect: 'manual' });
  const t = await res.text();
  let parsed: unknown = t;
  try {
    parsed = t ? JSON.parse(t) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

/** Runs `tasks` with at most `n` in flight. */
async function pool(n: number, tasks: Array<() => Promise<void>>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (i < tasks.length) await tasks[i++]!();
    }),
  );
}

const BOUNDARY = '----fuzzboundary';
const MULTIPART_BAD = [
  // Truncated: no closing boundary, part header cut.
  {
    text: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="company_id"\r\n\r\n1\r\n--${BOUNDARY}\r\nContent-Disp`,
    type: `multipart/form-data; boundary=${BOUNDARY}`,
  },
  // Boundary missing from the header.
  { text: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--${BOUNDARY}--\r\n`, type: 'multipart/form-data' },
  // A part with no name and garbage headers.
  { text: `--${BOUNDARY}\r\nContent-Disposition: form-data\r\nX: \u0000\r\n\r\nzz\r\n--${BOUNDARY}--\r\n`, type: `multipart/form-data; boundary=${BOUNDARY}` },
];
function multipartWith(fields: Record<string, string>, file?: { name: string; filename: string; data: string }): { text: string; type: string } {
  let text = '';
  for (const [k, v] of Object.entries(fields)) text += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  if (file)
    text += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: text/csv\r\n\r\n${file.data}\r\n`;
  return { text: `${text}--${BOUNDARY}--\r\n`, type: `multipart/form-data; boundary=${BOUNDARY}` };
}

describe('every route answers malformed input with 4xx, never 5xx', () => {
  it('fuzzes the OpenAPI document', async () => {
    expect(routes.length).toBeGreaterThan(100);
    const findings: Finding[] = [];
    const client = owner.client;
    let count = 0;
    for (const r of routes) {
      const tasks: Array<() => Promise<void>> = [];
      const hasBody = r.method !== 'GET';
      const props = declaredProps(r.op);
      const q = queryNames(r.op);
      const good = fill(r.path, goodParam);
      const isWebhook = r.path.startsWith('/webhooks/');

      // Path parameters that are not ids.
      if (/\{/.test(r.path)) {
        for (const bad of BAD_IDS)
          tasks.push(() =>
            send(
              client,
              r.method,
              fill(r.path, () => bad),
              `param ${bad}`,
              hasBody ? { json: {} } : undefined,
              findings,
            ),
          );
      }
      // Query: NUL / lone surrogate / huge numbers in every declared parameter; bracket garbage.
      const names = q.length ? q : ['company_id', 'page'];
      for (const [label, v] of [
        ['nul', '%00'],
        ['nul-in', 'a%00b'],
        ['surrogate', '%ED%A0%80'],
        ['huge', '1e308'],
        ['2^63', '9223372036854775808'],
        ['float', '1.5'],
        ['neg', '-1'],
      ] as const) {
        tasks.push(() =>
          send(client, r.method, `${good}?${names.map((n) => `${n}=${v}`).join('&')}`, `query ${label}`, hasBody ? { json: {} } : undefined, findings),
        );
      }
      tasks.push(() =>
        send(
          client,
          r.method,
          `${good}?${names.map((n) => `${n}[a][b][c][d][e][f]=1&${n}[]=x&${n}[0][y]=%00`).join('&')}&%5B=1&[]=2&a[__proto__][x]=1`,
          'query brackets',
          hasBody ? { json: {} } : undefined,
          findings,
        ),
      );
      tasks.push(() =>
        send(
          client,
          r.method,
          `${good}?${names.map((n) => `${n}=%7B%22a%22%3A`).join('&')}&filters=%7Bbad&cursor=eyJ0IjoiOTk5OTktOTktOTkiLCJpZCI6MX0&cursor2=%00`,
          'query json garbage',
          hasBody ? { json: {} } : undefined,
          findings,
        ),
      );

      // Schema-shaped inputs (valid elsewhere) carrying one kind of malformed value in every free string / integer.
      const SHAPED: Array<[string, Parameters<typeof sample>[2]]> = [
        ['nul', { text: () => NUL }],
        ['surrogate', { text: () => SURROGATE }],
        ['impossible date', { text: () => '2024-02-30 25:61:00' }],
        ['long text', { text: () => 'x'.repeat(100_000) }],
        ['text 300', { text: () => 'y'.repeat(300) }],
        ['text 9000', { text: () => 'z'.repeat(9000) }],
        ['json garbage', { text: () => '{"a":[' }],
        ['int 2^31', { int: () => 2 ** 31 }],
        ['int 0', { int: () => 0 }],
        ['int 1.5', { int: () => 1.5 }],
        ['int 1e308', { int: () => 1e308 }],
        ['int 2^63', { int: () => 2 ** 63 }],
        ['int -1', { int: () => -1 }],
        ['int 2^53+', { int: () => 2 ** 53 + 2 }],
      ];
      for (const [label, over] of SHAPED) {
        const query = sampleQuery(r.op, over);
        if (query)
          tasks.push(() =>
            send(
              client,
              r.method,
              `${good}?${query}`,
              `shaped query ${label}`,
              hasBody ? { json: sample(bodySchema(r.op), 'body', {}) ?? {} } : undefined,
              findings,
            ),
          );
        if (hasBody && !isWebhook) {
          const schema = bodySchema(r.op);
          const body = schema?.properties ? sample(schema, 'body', over) : objectWith(props, over.text ? over.text('x') : over.int!('company_id'));
          tasks.push(() => send(client, r.method, `${good}${query ? `?${sampleQuery(r.op, {})}` : ''}`, `shaped body ${label}`, { json: body }, findings));
        }
      }

      if (hasBody && !isWebhook) {
        for (const json of [null, [], 'x', {}, 0, true])
          tasks.push(() => send(client, r.method, good, `body ${JSON.stringify(json)}`, { text: JSON.stringify(json), type: 'application/json' }, findings));
        for (const [label, v] of [
          ['nul', NUL],
          ['surrogate', SURROGATE],
          ['huge', 1e308],
          ['2^63', 2 ** 63],
          ['float', 1.5],
          ['neg', -1],
          ['array', [NUL, {}]],
          ['object', { a: NUL, '\u0000': 1 }],
          ['long', 'x'.repeat(70_000)],
        ] as const) {
          tasks.push(() => send(client, r.method, good, `body ${label}`, { json: objectWith(props, v) }, findings));
        }
        // Numbers past what JSON.stringify writes: 2^63 and 1e400 as literal JSON text.
        tasks.push(() =>
          send(
            client,
            r.method,
            good,
            'body literal huge',
            { text: `{${(props.length ? props : ['company_id']).map((p) => `"${p}":9223372036854775808`).join(',')},"x":1e400}`, type: 'application/json' },
            findings,
          ),
        );
        tasks.push(() => send(client, r.method, good, 'body malformed json', { text: '{"a":', type: 'application/json' }, findings));
        tasks.push(() =>
          send(
            client,
            r.method,
            good,
            'body form nul',
            { text: (props.length ? props : ['name']).map((p) => `${p}=a%00b`).join('&'), type: 'application/x-www-form-urlencoded' },
            findings,
          ),
        );
        for (const [i, m] of MULTIPART_BAD.entries()) tasks.push(() => send(client, r.method, good, `multipart bad ${i}`, m, findings));
        const fields = Object.fromEntries((props.length ? props : ['company_id', 'name', 'content', 'title', 'text']).map((p) => [p, NUL]));
        tasks.push(() =>
          send(
            client,
            r.method,
            good,
            'multipart nul',
            multipartWith({ ...fields, company_id: String(owner.companyId) }, { name: 'file', filename: 'a\u0000.csv', data: 'phone\n\u0000' }),
            findings,
          ),
        );
        tasks.push(() => send(client, r.method, good, 'multipart nul fields', multipartWith(fields), findings));
      }
      if (isWebhook) {
        // Signed like the carrier would (so the request gets past the signature check).
        for (const [label, params] of [
          ['nul', objectWith(props.length ? props : ['From', 'To', 'Body', 'MessageSid', 'CallSid'], NUL) as Record<string, string>],
          ['empty', {}],
          ['huge', objectWith(props.length ? props : ['From', 'To', 'Body', 'CallSid'], '9'.repeat(400)) as Record<string, string>],
        ] as const) {
          tasks.push(async () => {
            const res = await postWebhook(server, r.path, params).catch(() => postWebhook(server, r.path, params));
            tally(res.status);
            if (res.status >= 500) findings.push({ method: r.method, url: r.path, variant: `signed ${label}`, status: res.status, body: res.body });
          });
        }
      }
      count += tasks.length;
      await pool(4, tasks);
      if (SESSION_ENDING.test(`${r.method} ${r.path}`)) await client.signIn(owner.email, owner.password).catch(() => undefined);
    }
    // Everything reported at once, so one run shows every offender.
    const summary = findings.map((f) => `${f.status} ${f.method} ${f.url.slice(0, 160)} [${f.variant}] ${JSON.stringify(f.body).slice(0, 200)}`);
    console.log(
      `malformed-input fuzz: ${routes.length} routes, ${count} requests, ${findings.length} answers of 5xx; answers: ${JSON.stringify(Object.fromEntries(seen))}`,
    );
    expect(summary).toEqual([]);
    // The session held (few 401s) and a share of the inputs were accepted, so the handlers behind validation ran too.
    expect(seen.get('401') ?? 0).toBeLessThan(count * 0.05);
    expect(seen.get('2xx') ?? 0).toBeGreaterThan(200);
  }, 300_000);
});
