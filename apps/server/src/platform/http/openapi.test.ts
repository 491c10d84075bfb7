/**
 * The OpenAPI document as integrators use it (platform/http/openapi.ts; docs/api-and-webhooks.md "Operation ids",
 * "Declared answers", "Generated clients"):
 * - every operation has a stable, unique operation id, and the list equals the checked-in `openapi-operation-ids.txt`;
 * - every operation declares a success answer with its media type; optional query fields are optional;
 * - a typed client generated from the served document (openapi-typescript + openapi-fetch) compiles with tsc and
 *   drives a sample of routes of every area against the real server, with an API key;
 * - every operation, called as the owner with made-up ids and empty bodies, answers only statuses and media types
 *   it declares (`undeclaredAnswers`, recorded by the server's check under vitest).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_SCOPES } from '@switchboard/contracts';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { webhookTuning } from '../../modules/webhooks/webhooks.delivery.js';
import { OPERATION_ID_OVERRIDES, REFUSAL_ONLY, deriveOperationId, undeclaredAnswers } from './openapi.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The public list of operation ids (`operationId METHOD /path`), kept in the repository. */
const SNAPSHOT = path.join(here, 'openapi-operation-ids.txt');

type Operation = {
  operationId?: string;
  deprecated?: boolean;
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

let s: TestServer;
let owner: Account;
let doc: Doc;
const ops: { method: string; path: string; op: Operation }[] = [];

const savedAddressPolicy = webhookTuning.addressPolicy;
beforeAll(async () => {
  // The sample webhook endpoint is on loopback (as in the permission sweep).
  webhookTuning.addressPolicy = { allowHosts: ['127.0.0.1'] };
  s = await startTestServer();
  owner = await createAccount(s, { firstName: 'Ida', lastName: 'Integrator' });
  const res = await fetch(`${s.url}/api/docs/json`);
  expect(res.status, await res.clone().text()).toBe(200);
  doc = (await res.json()) as Doc;
  for (const [p, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) ops.push({ method, path: p, op });
});
afterAll(async () => {
  webhookTuning.addressPolicy = savedAddressPolicy;
  await s?.close();
});

const opOf = (method: string, p: string) => doc.paths[p]?.[method];

describe('operation ids', () => {
  it('every operation has a unique camelCase id, and the list is the checked-in one (ids are public API)', () => {
    const ids = ops.map((o) => o.op.operationId);
    for (const [i, id] of ids.entries()) expect(id, `${ops[i]!.method} ${ops[i]!.path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    const lines = ops.map((o) => `${o.op.operationId} ${o.method.toUpperCase()} ${o.path}`).sort();
    if (process.env.UPDATE_OPERATION_IDS === '1') fs.writeFileSync(SNAPSHOT, lines.join('\n') + '\n');
    const kept = fs.readFileSync(SNAPSHOT, 'utf8').trim().split('\n');
    // A changed id breaks every generated client: rename only with a deprecation (docs/api-and-webhooks.md).
    expect(lines, 'operation ids changed: see docs/api-and-webhooks.md "Operation ids" (UPDATE_OPERATION_IDS=1 rewrites the list)').toEqual(kept);
  });

  it('reads like the operation: derived names, and every override names a real route', () => {
    expect(opOf('get', '/api/companies/{companyId}/conversations')?.operationId).toBe('listConversations');
    expect(opOf('post', '/api/companies/{companyId}/dniPools')?.operationId).toBe('createDniPool');
    expect(opOf('delete', '/api/webhook-endpoints/{id}')?.operationId).toBe('deleteWebhookEndpoint');
    expect(opOf('post', '/api/campaigns/{id}/pause')?.operationId).toBe('pauseCampaign');
    expect(opOf('post', '/api/message')?.operationId).toBe('sendMessage');
    expect(deriveOperationId('GET', '/api/companies/:companyId/conversations/:cid/items/:iid')).toBe('getConversationItem');
    expect(deriveOperationId('POST', '/api/webhook-endpoints/:id/rotate-secret')).toBe('rotateWebhookEndpointSecret');
    const patterns = new Set(ops.map((o) => `${o.method.toUpperCase()} ${o.path.replace(/\{([^}]+)\}/g, ':$1')}`));
    for (const key of Object.keys(OPERATION_ID_OVERRIDES)) expect(patterns, `override ${key}`).toContain(key);
  });
});

describe('declared answers', () => {
  it('every operation declares a success (2xx or 3xx) answer, except the refusal-only ones, marked deprecated', () => {
    const missing = ops.filter((o) => !Object.keys(o.op.responses).some((c) => /^[23]/.test(c)) && !o.op.deprecated);
    expect(missing.map((o) => `${o.method} ${o.path}`)).toEqual([]);
    for (const key of Object.keys(REFUSAL_ONLY)) {
      const [m, p] = key.split(' ') as [string, string];
      expect(opOf(m.toLowerCase(), p.replace(/:(\w+)/g, '{$1}'))?.deprecated, key).toBe(true);
    }
  });

  it('downloads, redirects and answers without a body carry their media types', () => {
    const media = (m: string, p: string, status: string) => Object.keys(opOf(m, p)?.responses[status]?.content ?? {});
    expect(media('get', '/api/dashboard/pdf', '200')).toEqual(['application/pdf']);
    expect(media('get', '/api/analytics/calls/pdf', '200')).toEqual(['application/pdf']);
    expect(media('get', '/api/audit-log/export', '200')).toEqual(['text/csv']);
    expect(media('post', '/api/companies/{companyId}/numbers/export', '200')).toEqual(['text/csv']);
    expect(media('get', '/api/companies/{companyId}/contacts/import/{batchId}/report', '200')).toEqual(['text/csv']);
    expect(media('get', '/api/analytics/exports/{id}/download', '200')).toEqual(['text/csv']);
    expect(media('get', '/api/calls/{id}/recording', '200')).toEqual(['audio/wav']);
    expect(media('get', '/api/calls/{id}/recording', '404')).toEqual(['application/json']);
    expect(media('get', '/api/bulkAttributeUpdate/businessUnits/{id}', '404')).toEqual(['application/json']);
    for (const p of ['/api/oauth/{provider}/redirect', '/api/oauth/{provider}/callback']) {
      const redirect = opOf('get', p)?.responses['302'] as { content?: unknown; headers?: Record<string, unknown> } | undefined;
      expect(redirect?.content, p).toBeUndefined();
      expect(Object.keys(redirect?.headers ?? {}), p).toEqual(['Location']);
    }
    expect(opOf('post', '/api/sanctum/logout')?.responses['204']?.content).toBeUndefined();
  });

  it('query fields the server fills in are optional (isArchived, async, filter, lookupWhenMissing)', () => {
    const required = (m: string, p: string, name: string) => opOf(m, p)?.parameters?.find((q) => q.in === 'query' && q.name === name)?.required;
    expect(required('get', '/api/companies/{companyId}/conversations', 'isArchived')).toBe(false);
    expect(required('get', '/api/analytics/calls', 'async')).toBe(false);
    expect(required('get', '/api/analytics/calls/pdf', 'async')).toBe(false);
    expect(required('get', '/api/activity', 'filter')).toBe(false);
    expect(required('get', '/api/calls/{id}/enhanced-caller-id', 'lookupWhenMissing')).toBe(false);
    expect(required('get', '/api/messages/{id}/enhanced-caller-id', 'lookupWhenMissing')).toBe(false);
    // Really required ones stay so.
    expect(required('get', '/api/users', 'company_id')).toBe(true);
  });
});

/**
 * The integrator's program: typed calls through the generated `paths` (compiled with tsc, strict), one or more per
 * area. It answers `[operation, status]` pairs and fails on the first unexpected one.
 */
const DRIVER = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

type Seen = [string, number][];
export async function drive(baseUrl: string, key: string, companyId: number): Promise<Seen> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: 'Bearer ' + key } });
  const seen: Seen = [];
  const note = (name: string, r: { response: Response }) => seen.push([name, r.response.status]);

  // Account
  const companies = await api.GET('/api/companies');
  note('listCompanies', companies);
  const users = await api.GET('/api/users', { params: { query: { company_id: companyId } } });
  note('listUsers', users);
  // Contacts and groups
  const created = await api.POST('/api/contacts', { body: { company_id: companyId, first_name: 'Jane', last_name: 'Doe', number: '+13125550142' } });
  note('createContact', created);
  const contactId: number = created.data!.id;
  const one = await api.GET('/api/contacts/{id}', { params: { path: { id: contactId } } });
  note('getContact', one);
  const name: string | null | undefined = one.data?.name;
  if (name !== 'Jane Doe') throw new Error('getContact answered ' + String(name));
  note('listContacts', await api.GET('/api/contacts', { params: { query: { company_id: companyId } } }));
  note('listGroups', await api.GET('/api/groups', { params: { query: { company_id: companyId } } }));
  // Inbox: isArchived is optional
  note('listConversations', await api.GET('/api/companies/{companyId}/conversations', { params: { path: { companyId } } }));
  // Calls: the activity feed without a filter
  note('listActivity', await api.GET('/api/activity', { params: { query: { company: companyId } } }));
  // Numbers
  note('listNumbers', await api.GET('/api/companies/{companyId}/numbers', { params: { path: { companyId } } }));
  // Reports: JSON without async, and the PDF
  note('getDashboard', await api.GET('/api/dashboard', { params: { query: { company_id: companyId } } }));
  note('getCallsReport', await api.GET('/api/analytics/calls', { params: { query: { company_id: companyId } } }));
  const pdf = await api.GET('/api/dashboard/pdf', { params: { query: { company_id: companyId } }, parseAs: 'arrayBuffer' });
  note('getDashboardPdf', pdf);
  if (!pdf.data || new TextDecoder().decode(pdf.data.slice(0, 5)) !== '%PDF-') throw new Error('getDashboardPdf is not a PDF');
  // Campaigns, tracking, templates
  note('listCampaigns', await api.GET('/api/campaigns', { params: { query: { company_id: companyId } } }));
  note('listDniPools', await api.GET('/api/companies/{companyId}/dniPools', { params: { path: { companyId } } }));
  note('listNumberTemplates', await api.GET('/api/companies/{companyId}/numberTemplates', { params: { path: { companyId } } }));
  // Webhooks and the audit log (CSV)
  const hook = await api.POST('/api/webhook-endpoints', {
    body: { company_id: companyId, url: 'http://127.0.0.1:9/hook', events: ['call.completed'] },
  });
  note('createWebhookEndpoint', hook);
  note('listWebhookEndpoints', await api.GET('/api/webhook-endpoints', { params: { query: { company_id: companyId } } }));
  const csv = await api.GET('/api/audit-log/export', { params: { query: { company_id: companyId } }, parseAs: 'text' });
  note('exportAuditLog', csv);
  if (typeof csv.data !== 'string' || !csv.data.includes(',')) throw new Error('exportAuditLog is not CSV');
  // A refusal in the error shape
  const missing = await api.GET('/api/contacts/{id}', { params: { path: { id: 987654321 } } });
  note('getContact (unknown)', missing);
  const message: string | undefined = missing.error?.message;
  if (!message) throw new Error('no error message');
  return seen;
}
`;

describe('a client generated from the document', () => {
  it('compiles (tsc, strict) and drives routes of every area with an API key', async () => {
    const dir = path.join(here, '../../../node_modules/.cache', `openapi-client-${process.pid}`);
    fs.mkdirSync(dir, { recursive: true });
    try {
      fs.writeFileSync(path.join(dir, 'schema.ts'), astToString(await openapiTS(doc as never)));
      fs.writeFileSync(path.join(dir, 'drive.ts'), DRIVER);
      const program = ts.createProgram([path.join(dir, 'drive.ts')], {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        types: [],
        strict: true,
        skipLibCheck: true,
        outDir: dir,
      });
      const diagnostics = ts.getPreEmitDiagnostics(program).concat(program.emit().diagnostics);
      const text = diagnostics.map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(text).toEqual([]);

      const key = await owner.client.post('/api/personalAccessTokens', { name: 'Generated client', scopes: [...API_KEY_SCOPES] });
      expect(key.status, JSON.stringify(key.body)).toBe(201);
      const { drive } = (await import(pathToFileURL(path.join(dir, 'drive.js')).href)) as {
        drive: (base: string, key: string, companyId: number) => Promise<[string, number][]>;
      };
      const seen = await drive(s.url, key.body.data.token, owner.companyId);
      const expected: Record<string, number> = { createContact: 201, createWebhookEndpoint: 201, 'getContact (unknown)': 404 };
      for (const [name, status] of seen) expect(status, name).toBe(expected[name] ?? 200);
      expect(seen.length).toBeGreaterThanOrEqual(18);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('openapi-fetch itself is what the client runs on (no hand-written stand-in)', () => {
    expect(typeof createClient).toBe('function');
  });
});

/** Placeholder values for path parameters: ids that exist nowhere. */
const PARAM_VALUES: Record<string, string> = {
  number: '+15555550123',
  idOrNumber: '999999',
  areaCode: '212',
  type: '1',
  key: 'nokey',
  provider: 'google',
  token: 'no-such-token',
};
/** Operations that would end the fixture itself, or are carrier callbacks (their own tests sign them). */
const SKIP = [
  /^DELETE \/api\/companies\/\{companyId\}$/,
  /\/logout$/,
  /\/remoteLogin\//,
  /clearTokenSessions/,
  /^POST \/(webhooks|sandbox-payments)\//,
  /admin-session\/leave/,
];

/**
 * Undeclared answers of routes in files this test's authors may not change yet, by `METHOD /pattern`: the outbox
 * operators' routes (platform/events/outbox.routes.ts) answer 403 to a non-operator but declare only 200. Remove an
 * entry once its route declares the answer.
 */

describe('every route answers only what it declares', () => {
  it('called as the owner with made-up ids and empty bodies, no operation gives an undeclared status or media type', async () => {
    for (const { method, path: p } of ops) {
      const line = `${method.toUpperCase()} ${p}`;
      if (method === 'head' || SKIP.some((r) => r.test(line))) continue;
      const url = p
        .replace(/\{companyId\}/g, String(owner.companyId))
        .replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(PARAM_VALUES[name] ?? '999999'));
      await owner.client.request(
        method.toUpperCase(),
        `${url}${url.includes('?') ? '&' : '?'}company_id=${owner.companyId}`,
        method === 'get' ? undefined : {},
      );
    }
    const found = undeclaredAnswers();
    expect(found.map((u) => `${u.method} ${u.url}: ${u.why}`)).toEqual([]);
  }, 120_000);
});
