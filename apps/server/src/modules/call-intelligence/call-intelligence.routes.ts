/**
 * Call intelligence HTTP routes (spec 001 §7; docs/call-intelligence.md):
 * GET /api/calls/search (calls.read; format=csv streams the hits, with async=1 a 202 export job);
 * GET /api/calls/search/exports/{id} (the person's own search export);
 * POST /api/calls/{id}/converse {message} (calls.read);
 * GET /api/companies/{companyId}/ai-rules (calls.read); POST, PUT /{id}, DELETE /{id} (settings.manage).
 */
import {
  AiRuleBody,
  AiRuleInput,
  AiRuleListBody,
  CallSearchBody,
  CallSearchQuery,
  CompanyParams,
  CompanyRuleParams,
  ConverseBody,
  ConverseInput,
  ExportJobBody,
  ExportStartedBody,
  IdParams,
  MessageBody,
  errorResponses,
} from '@switchboard/contracts';
import { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { converse } from './call-intelligence.converse.js';
import { createRule, deleteRule, listRules, updateRule } from './call-intelligence.rules.js';
import { getSearchExport, resolveSearch, searchCalls, searchCsvChunks, searchFileName, startSearchExport } from './call-intelligence.search.js';

export async function registerCallIntelligenceRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/calls/search',
    {
      config: { access: access.company('calls.read') },
      schema: {
        tags: ['calls'],
        summary: 'Search call transcripts (words, "phrases"), ranked, with highlighted passages. format=csv: the hits as CSV; async=1: an export job (202).',
        querystring: CallSearchQuery,
        response: { 200: CallSearchBody, 202: ExportStartedBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const userId = request.auth!.userId;
      const q = request.query;
      if (q.format === 'csv') {
        if (q.async) return reply.status(202).send(await startSearchExport(ctx, userId, q));
        const r = await resolveSearch(ctx, userId, q);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${searchFileName(r.timeZone)}"`)
          .send(Readable.from(searchCsvChunks(ctx, r)) as never);
      }
      return searchCalls(ctx, userId, q);
    },
  );

  app.get(
    '/api/calls/search/exports/:id',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['calls'],
        summary: 'One transcript-search export of the current user',
        params: IdParams,
        response: { 200: ExportJobBody, ...errorResponses },
      },
    },
    async (request) => getSearchExport(ctx, request.auth!.userId, request.params.id),
  );

  app.post(
    '/api/calls/:id/converse',
    {
      config: { access: access.company('calls.read') },
      schema: {
        tags: ['calls'],
        summary: 'Ask a question about a call: the answer and the transcript passages it rests on, or that the transcript does not say',
        params: IdParams,
        body: ConverseInput,
        response: { 200: ConverseBody, ...errorResponses },
      },
    },
    async (request) => converse(ctx, request.auth!.userId, request.params.id, request.body.message),
  );

  app.get(
    '/api/companies/:companyId/ai-rules',
    {
      config: { access: access.company('calls.read') },
      schema: { tags: ['calls'], summary: 'AI attribute rules of a company', params: CompanyParams, response: { 200: AiRuleListBody, ...errorResponses } },
    },
    async (request) => listRules(ctx, request.auth!.userId, request.params.companyId),
  );

  app.post(
    '/api/companies/:companyId/ai-rules',
    {
      config: { access: access.company('settings.manage') },
      schema: {
        tags: ['calls'],
        summary: 'Create an AI attribute rule',
        params: CompanyParams,
        body: AiRuleInput,
        response: { 201: AiRuleBody, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await createRule(ctx, request.auth!.userId, request.params.companyId, request.body)),
  );

  app.put(
    '/api/companies/:companyId/ai-rules/:id',
    {
      config: { access: access.company('settings.manage') },
      schema: {
        tags: ['calls'],
        summary: 'Replace an AI attribute rule',
        params: CompanyRuleParams,
        body: AiRuleInput,
        response: { 200: AiRuleBody, ...errorResponses },
      },
    },
    async (request) => updateRule(ctx, request.auth!.userId, request.params.companyId, request.params.id, request.body),
  );

  app.delete(
    '/api/companies/:companyId/ai-rules/:id',
    {
      config: { access: access.company('settings.manage') },
      schema: { tags: ['calls'], summary: 'Delete an AI attribute rule', params: CompanyRuleParams, response: { 200: MessageBody, ...errorResponses } },
    },
    async (request) => deleteRule(ctx, request.auth!.userId, request.params.companyId, request.params.id),
  );
}
