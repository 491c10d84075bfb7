/**
 * Inbox routes (spec 001 §7 "Inbox"). Every route checks company access (403) and loads the
 * conversation with the company id (another company's conversation → 404).
 */
import {
  BulkUpdateBody,
  BulkUpdateResult,
  CompanyItemsQuery,
  CompanyParams,
  Conversation,
  ConversationItem,
  ConversationItemList,
  ConversationItemParams,
  ConversationItemsQuery,
  ConversationList,
  ConversationListQuery,
  ConversationNoteBody,
  ConversationParams,
  IdParams,
  ReadAllByTypeBody,
  ReadAllByTypeResult,
  errorResponses,
} from '@switchboard/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import {
  addConversationNote,
  bulkUpdateConversations,
  deleteConversationItem,
  deleteConversationMessages,
  getConversation,
  getConversationItem,
  listCompanyItems,
  listConversationItems,
  listConversations,
  markConversationRead,
  markReadByType,
  setConversationArchived,
  setItemRead,
} from './conversations.service.js';

const tags = ['inbox'];

/** Registers the inbox routes (spec 001 §7 "Inbox") on the app. */
export function registerConversationRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/companies/:companyId/conversations',
    {
      config: { access: access.company('inbox.read') },
      schema: {
        tags,
        summary: 'Inbox conversations, newest activity first (cursor-paged)',
        params: CompanyParams,
        querystring: ConversationListQuery,
        response: { 200: ConversationList, ...errorResponses },
      },
    },
    async (req) => listConversations(ctx, req.auth!.userId, req.params.companyId, req.query),
  );

  app.get(
    '/api/companies/:companyId/conversations/:cid',
    {
      config: { access: access.company('inbox.read') },
      schema: { tags, summary: 'One conversation', params: ConversationParams, response: { 200: Conversation, ...errorResponses } },
    },
    async (req) => getConversation(ctx, req.auth!.userId, req.params.companyId, req.params.cid),
  );

  app.get(
    '/api/companies/:companyId/conversations/:cid/items',
    {
      config: { access: access.company('inbox.read') },
      schema: {
        tags,
        summary: 'Items of a conversation, newest first (cursor-paged)',
        params: ConversationParams,
        querystring: ConversationItemsQuery,
        response: { 200: ConversationItemList, ...errorResponses },
      },
    },
    async (req) => listConversationItems(ctx, req.auth!.userId, req.params.companyId, req.params.cid, req.query),
  );

  app.put(
    '/api/companies/:companyId/conversations/:cid/read-all',
    {
      config: { access: access.company('inbox.work') },
      schema: { tags, summary: 'Mark every item of the conversation read', params: ConversationParams, response: { 200: Conversation, ...errorResponses } },
    },
    async (req) => markConversationRead(ctx, req.auth!.userId, req.params.companyId, req.params.cid),
  );

  for (const [suffix, read] of [
    ['read', true],
    ['unread', false],
  ] as const) {
    app.put(
      `/api/companies/:companyId/conversations/:cid/items/:iid/${suffix}`,
      {
        config: { access: access.company('inbox.work') },
        schema: { tags, summary: `Mark one item ${suffix}`, params: ConversationItemParams, response: { 200: ConversationItem, ...errorResponses } },
      },
      async (req) => setItemRead(ctx, req.auth!.userId, req.params.companyId, req.params.cid, req.params.iid, read),
    );
  }

  app.put(
    '/api/companies/:companyId/conversations/bulk-update',
    {
      config: { access: access.company('inbox.work') },
      schema: {
        tags,
        summary: 'Read, unread, archive, restore or delete several conversations (all or nothing)',
        params: CompanyParams,
        body: BulkUpdateBody,
        response: { 200: BulkUpdateResult, ...errorResponses },
      },
    },
    async (req) => bulkUpdateConversations(ctx, req.auth!.userId, req.params.companyId, req.body),
  );

  app.put(
    '/api/companies/:companyId/conversations/read-all-by-type',
    {
      config: { access: access.company('inbox.work') },
      schema: {
        tags,
        summary: 'Mark every unread item of a type read, on some numbers (default all)',
        params: CompanyParams,
        body: ReadAllByTypeBody,
        response: { 200: ReadAllByTypeResult, ...errorResponses },
      },
    },
    async (req) => markReadByType(ctx, req.auth!.userId, req.params.companyId, req.body),
  );

  app.get(
    '/api/companies/:companyId/conversations/:cid/items/:iid',
    {
      config: { access: access.company('inbox.read') },
      schema: { tags, summary: 'One item of a conversation', params: ConversationItemParams, response: { 200: ConversationItem, ...errorResponses } },
    },
    async (req) => getConversationItem(ctx, req.auth!.userId, req.params.companyId, req.params.cid, req.params.iid),
  );

  app.delete(
    '/api/companies/:companyId/conversations/:cid/items/:iid',
    {
      config: { access: access.company('inbox.work') },
      schema: {
        tags,
        summary: 'Delete one item of a conversation (204)',
        params: ConversationItemParams,
        response: { 204: z.null().optional(), ...errorResponses },
      },
    },
    async (req, reply) => {
      await deleteConversationItem(ctx, req.auth!.userId, req.params.companyId, req.params.cid, req.params.iid);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/companies/:companyId/conversations/:cid/messages',
    {
      config: { access: access.company('inbox.work') },
      schema: {
        tags,
        summary: "Delete the conversation's messages (calls, voicemails and notes stay)",
        params: ConversationParams,
        response: { 200: z.object({ deleted: z.number().int() }), ...errorResponses },
      },
    },
    async (req) => deleteConversationMessages(ctx, req.auth!.userId, req.params.companyId, req.params.cid),
  );

  app.post(
    '/api/companies/:companyId/conversations/:cid/notes',
    {
      config: { access: access.company('inbox.work') },
      schema: {
        tags,
        summary: 'Add a note to the thread',
        params: ConversationParams,
        body: ConversationNoteBody,
        response: { 201: ConversationItem, ...errorResponses },
      },
    },
    async (req, reply) => reply.code(201).send(await addConversationNote(ctx, req.auth!.userId, req.params.companyId, req.params.cid, req.body.body)),
  );

  app.get(
    '/api/inbox/conversations/items',
    {
      config: { access: access.company('inbox.read') },
      schema: {
        tags,
        summary: 'Items of every conversation of a company, newest first (cursor-paged; types[] filter)',
        querystring: CompanyItemsQuery,
        response: { 200: ConversationItemList, ...errorResponses },
      },
    },
    async (req) => listCompanyItems(ctx, req.auth!.userId, req.query),
  );

  for (const [suffix, archived] of [
    ['archive', true],
    ['restore', false],
  ] as const) {
    app.put(
      `/api/inbox/conversations/:id/${suffix}`,
      {
        config: { access: access.company('inbox.work') },
        schema: {
          tags,
          summary: suffix === 'archive' ? 'Archive a conversation' : 'Restore (un-archive) a conversation',
          params: IdParams,
          response: { 200: Conversation, ...errorResponses },
        },
      },
      async (req) => setConversationArchived(ctx, req.auth!.userId, req.params.id, archived),
    );
  }
}
