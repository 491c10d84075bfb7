/**
 * Contacts HTTP (spec 001 §7 "Contacts"): CRUD, list, upsert into groups, bulk destroy / export,
 * batch progress, and the import calls (multipart). Handlers only parse and delegate.
 */
import {
  BatchProgress,
  BulkResult,
  BulkSelection,
  CompanyParams,
  Contact,
  ContactBatchParams,
  ContactFields,
  ContactList,
  ContactListQuery,
  CreateContactBody,
  ExportResult,
  IdParams,
  ImportPreview,
  ImportStarted,
  MessageBody,
  UpsertContactsBody,
  UpsertContactsResult,
  errorResponses,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { fieldError } from '../../platform/http/errors.js';
import { readMultipart, type UploadedFile } from '../../platform/http/multipart.js';
import {
  bulkDestroyContacts,
  bulkExportContacts,
  createContactFromApi,
  deleteContact,
  getContact,
  listContacts,
  updateContact,
  upsertContacts,
} from './contacts.service.js';
import { getImportProgress, importReportCsv, previewImport, startImport } from './contacts.import.js';
import { fileAnswer } from '../../platform/http/openapi.js';

const tags = ['contacts'];

const GROUP_IDS_FORM = 'The group ids must be a JSON array or a comma-separated list.';

/**
 * The group ids of an import form: each `group_ids` / `group_ids[]` value is a JSON array
 * (`[1,2]`) or a comma-separated list (`1,2`). Ids that are not positive integers are dropped.
 * @throws ValidationError (422) on `group_ids` when a value is malformed JSON or not a list.
 */
function parseGroupIds(values: string | string[] | undefined): number[] {
  const ids: number[] = [];
  for (const v of values === undefined ? [] : Array.isArray(values) ? values : [values]) {
    let list: unknown;
    if (v.trim().startsWith('[')) {
      try {
        list = JSON.parse(v);
      } catch (e) {
        if (e instanceof SyntaxError) throw fieldError('group_ids', GROUP_IDS_FORM);
        throw e;
      }
    } else list = v.split(',');
    if (!Array.isArray(list)) throw fieldError('group_ids', GROUP_IDS_FORM);
    for (const x of list) if (String(x).trim() !== '') ids.push(Number(x));
  }
  return ids.filter((n) => Number.isSafeInteger(n) && n > 0);
}

/** Reads an import request (platform `readMultipart`): the `file` part, the text fields and the group ids. */
async function readImportForm(req: FastifyRequest): Promise<{ file?: UploadedFile; fields: Record<string, string>; groupIds: number[] }> {
  const form = await readMultipart(req, { fileFields: ['file'], arrays: ['group_ids'] });
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(form.fields)) if (k !== 'group_ids') fields[k] = Array.isArray(v) ? (v[v.length - 1] ?? '') : v;
  return { file: form.files[0], fields, groupIds: parseGroupIds(form.fields.group_ids) };
}

/** Registers the contacts routes: CRUD, list, upsert, bulk actions, imports. */
export function registerContactsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/contacts',
    {
      config: { access: access.company('contacts.read') },
      schema: {
        tags,
        summary: "Contacts of a company (company_id or the caller's first company), filtered and paged",
        querystring: ContactListQuery,
        response: { 200: ContactList, ...errorResponses },
      },
    },
    async (req) => listContacts(ctx, req.auth!.userId, req.query),
  );

  app.get(
    '/api/contacts/:id',
    {
      config: { access: access.company('contacts.read') },
      schema: { tags, summary: 'One contact with labels, groups and eavAttributeValues', params: IdParams, response: { 200: Contact, ...errorResponses } },
    },
    async (req) => getContact(ctx, req.auth!.userId, req.params.id),
  );

  app.post(
    '/api/contacts',
    {
      config: { access: access.company('contacts.write') },
      schema: { tags, summary: 'Create a contact', body: CreateContactBody, response: { 201: Contact, ...errorResponses } },
    },
    async (req, reply) => reply.status(201).send(await createContactFromApi(ctx, req.auth!.userId, req.body)),
  );

  app.patch(
    '/api/contacts/:id',
    {
      config: { access: access.company('contacts.write') },
      schema: {
        tags,
        summary: 'Change a contact (only the given fields)',
        params: IdParams,
        body: ContactFields,
        response: { 200: Contact, ...errorResponses },
      },
    },
    async (req) => updateContact(ctx, req.auth!.userId, req.params.id, req.body),
  );

  app.delete(
    '/api/contacts/:id',
    {
      config: { access: access.company('contacts.write') },
      schema: { tags, summary: 'Delete a contact', params: IdParams, response: { 200: MessageBody, ...errorResponses } },
    },
    async (req) => deleteContact(ctx, req.auth!.userId, req.params.id),
  );

  app.put(
    '/api/companies/:companyId/contacts',
    {
      config: { access: access.company('contacts.bulk') },
      schema: {
        tags,
        summary: 'Upsert contacts by number and add them to groups',
        params: CompanyParams,
        body: UpsertContactsBody,
        response: { 200: UpsertContactsResult, ...errorResponses },
      },
    },
    async (req) => upsertContacts(ctx, req.auth!.userId, req.params.companyId, req.body),
  );

  app.post(
    '/api/companies/:companyId/contacts/bulkDestroy',
    {
      config: { access: access.company('contacts.bulk') },
      schema: {
        tags,
        summary: 'Delete chosen contacts, or all matching the filters',
        params: CompanyParams,
        body: BulkSelection,
        response: { 200: BulkResult, ...errorResponses },
      },
    },
    async (req) => bulkDestroyContacts(ctx, req.auth!.userId, req.params.companyId, req.body),
  );

  app.post(
    '/api/companies/:companyId/contacts/bulkExport',
    {
      config: { access: access.company('contacts.bulk') },
      schema: {
        tags,
        summary: 'Export chosen contacts (or all matching the filters) to a CSV file; answers its URL',
        params: CompanyParams,
        body: BulkSelection,
        response: { 200: ExportResult, ...errorResponses },
      },
    },
    async (req) => bulkExportContacts(ctx, req.auth!.userId, req.params.companyId, req.body),
  );

  app.get(
    '/api/companies/:companyId/contacts/progress/:batchId',
    {
      config: { access: access.company('contacts.bulk') },
      schema: { tags, summary: 'Progress of a contact import batch', params: ContactBatchParams, response: { 200: BatchProgress, ...errorResponses } },
    },
    async (req) => getImportProgress(ctx, req.auth!.userId, req.params.companyId, req.params.batchId),
  );

  app.post(
    '/api/companies/:companyId/contacts/import/preview',
    {
      config: { access: access.company('contacts.bulk') },
      schema: {
        tags,
        summary: 'Headers, first 10 rows and suggested column mapping of a CSV/XLSX/vCard file (multipart: file)',
        params: CompanyParams,
        response: { 200: ImportPreview, ...errorResponses },
      },
    },
    async (req) => {
      const { file } = await readImportForm(req);
      return previewImport(ctx, req.auth!.userId, req.params.companyId, file);
    },
  );

  app.post(
    '/api/companies/:companyId/contacts/import',
    {
      config: { access: access.company('contacts.bulk') },
      schema: {
        tags,
        summary: 'Start a contact import (multipart: file (csv, xlsx, vcf), mapping JSON, duplicates skip|fill|overwrite, group_ids[]); answers the batch id',
        params: CompanyParams,
        response: { 202: ImportStarted, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { file, fields, groupIds } = await readImportForm(req);
      return reply
        .status(202)
        .send(await startImport(ctx, req.auth!.userId, req.params.companyId, { file, mapping: fields.mapping, duplicates: fields.duplicates, groupIds }));
    },
  );

  app.get(
    '/api/companies/:companyId/contacts/import/:batchId/report',
    {
      config: { access: access.company('contacts.bulk') },
      schema: {
        tags,
        summary: 'The per-row report of a finished import as CSV (Row, Outcome, Reason, Name, Number)',
        params: ContactBatchParams,
        response: { 200: fileAnswer('text/csv', 'The import report as a CSV file (attachment)'), ...errorResponses },
      },
    },
    async (req, reply) => {
      const csv = await importReportCsv(ctx, req.auth!.userId, req.params.companyId, req.params.batchId);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-report-${req.params.batchId}.csv"`)
        .send(csv as never);
    },
  );
}
