/**
 * Contacts HTTP (spec 001 §7 "Contacts"): CRUD, list, upsert into groups, bulk destroy / export,
 * batch progress, and the import calls (multipart). Handlers only parse and delegate.
 */
import {
  BatchProgress, BulkResult, BulkSelection, CompanyParams, Contact, ContactBatchParams, ContactFields, ContactList, ContactListQuery,
  CreateContactBody, ExportResult, IdParams, ImportPreview, ImportStarted, MessageBody, UpsertContactsBody, UpsertContactsResult, errorResponses,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import { fieldError } from '../../platform/http/errors.js';
import { assertCleanFields } from '../../platform/http/input-hygiene.js';
import {
  bulkDestroyContacts, bulkExportContacts, createContactFromApi, deleteContact, getContact, listContacts, updateContact, upsertContacts,
} from './contacts.service.js';
import { getImportProgress, importReportCsv, previewImport, startImport, type UploadedFile } from './contacts.import.js';

const tags = ['contacts'];

/** Reads a multipart request: the `file` part and the text fields (repeated `group_ids[]` collected). */
async function readMultipart(req: FastifyRequest): Promise<{ file?: UploadedFile; fields: Record<string, string>; groupIds: number[] }> {
  const fields: Record<string, string> = {};
  const groupIds: number[] = [];
  let file: UploadedFile | undefined;
  if (!req.isMultipart()) return { fields, groupIds };
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.fieldname === 'file') file = { filename: part.filename, mimetype: part.mimetype, data };
    } else if (/^group_ids(\[\d*\])?$/.test(part.fieldname)) {
      const v = String(part.value);
      let list: unknown;
      try { list = v.trim().startsWith('[') ? JSON.parse(v) : v.split(','); } catch { throw fieldError('group_ids', 'The group ids must be a JSON array or a comma-separated list.'); }
      if (!Array.isArray(list)) throw fieldError('group_ids', 'The group ids must be a JSON array or a comma-separated list.');
      for (const x of list) if (String(x).trim() !== '') groupIds.push(Number(x));
    } else fields[part.fieldname] = String(part.value);
  }
  assertCleanFields(fields, file ? [file] : []);
  return { file, fields, groupIds: groupIds.filter((n) => Number.isSafeInteger(n) && n > 0) };
}

export function registerContactsRoutes(app: App, ctx: AppContext): void {
  app.get('/api/contacts', {
    schema: { tags, summary: 'Contacts of a company (company_id or the caller\'s first company), filtered and paged', querystring: ContactListQuery, response: { 200: ContactList, ...errorResponses } },
  }, async (req) => listContacts(ctx, req.auth!.userId, req.query));

  app.get('/api/contacts/:id', {
    schema: { tags, summary: 'One contact with labels, groups and eavAttributeValues', params: IdParams, response: { 200: Contact, ...errorResponses } },
  }, async (req) => getContact(ctx, req.auth!.userId, req.params.id));

  app.post('/api/contacts', {
    schema: { tags, summary: 'Create a contact', body: CreateContactBody, response: { 201: Contact, ...errorResponses } },
  }, async (req, reply) => reply.status(201).send(await createContactFromApi(ctx, req.auth!.userId, req.body)));

  app.patch('/api/contacts/:id', {
    schema: { tags, summary: 'Change a contact (only the given fields)', params: IdParams, body: ContactFields, response: { 200: Contact, ...errorResponses } },
  }, async (req) => updateContact(ctx, req.auth!.userId, req.params.id, req.body));

  app.delete('/api/contacts/:id', {
    schema: { tags, summary: 'Delete a contact', params: IdParams, response: { 200: MessageBody, ...errorResponses } },
  }, async (req) => deleteContact(ctx, req.auth!.userId, req.params.id));

  app.put('/api/companies/:companyId/contacts', {
    schema: { tags, summary: 'Upsert contacts by number and add them to groups', params: CompanyParams, body: UpsertContactsBody, response: { 200: UpsertContactsResult, ...errorResponses } },
  }, async (req) => upsertContacts(ctx, req.auth!.userId, req.params.companyId, req.body));

  app.post('/api/companies/:companyId/contacts/bulkDestroy', {
    schema: { tags, summary: 'Delete chosen contacts, or all matching the filters', params: CompanyParams, body: BulkSelection, response: { 200: BulkResult, ...errorResponses } },
  }, async (req) => bulkDestroyContacts(ctx, req.auth!.userId, req.params.companyId, req.body));

  app.post('/api/companies/:companyId/contacts/bulkExport', {
    schema: { tags, summary: 'Export chosen contacts (or all matching the filters) to a CSV file; answers its URL', params: CompanyParams, body: BulkSelection, response: { 200: ExportResult, ...errorResponses } },
  }, async (req) => bulkExportContacts(ctx, req.auth!.userId, req.params.companyId, req.body));

  app.get('/api/companies/:companyId/contacts/progress/:batchId', {
    schema: { tags, summary: 'Progress of a contact import batch', params: ContactBatchParams, response: { 200: BatchProgress, ...errorResponses } },
  }, async (req) => getImportProgress(ctx, req.auth!.userId, req.params.companyId, req.params.batchId));

  app.post('/api/companies/:companyId/contacts/import/preview', {
    schema: { tags, summary: 'Headers, first 10 rows and suggested column mapping of a CSV/XLSX/vCard file (multipart: file)', params: CompanyParams, response: { 200: ImportPreview, ...errorResponses } },
  }, async (req) => {
    const { file } = await readMultipart(req);
    return previewImport(ctx, req.auth!.userId, req.params.companyId, file);
  });

  app.post('/api/companies/:companyId/contacts/import', {
    schema: { tags, summary: 'Start a contact import (multipart: file (csv, xlsx, vcf), mapping JSON, duplicates skip|fill|overwrite, group_ids[]); answers the batch id', params: CompanyParams, response: { 202: ImportStarted, ...errorResponses } },
  }, async (req, reply) => {
    const { file, fields, groupIds } = await readMultipart(req);
    return reply.status(202).send(await startImport(ctx, req.auth!.userId, req.params.companyId, { file, mapping: fields.mapping, duplicates: fields.duplicates, groupIds }));
  });

  app.get('/api/companies/:companyId/contacts/import/:batchId/report', {
    schema: { tags, summary: 'The per-row report of a finished import as CSV (Row, Outcome, Reason, Name, Number)', params: ContactBatchParams, response: { ...errorResponses } },
  }, async (req, reply) => {
    const csv = await importReportCsv(ctx, req.auth!.userId, req.params.companyId, req.params.batchId);
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="import-report-${req.params.batchId}.csv"`).send(csv as never);
  });
}
