/**
 * Inbox routes (spec 001 §7 "Inbox"). Every route checks company access (403) and loads the
 * conversation with the company id (another company's conversation → 404).
 */
import {
  CompanyParams, Conversation, ConversationItem, ConversationItemList, ConversationItemParams, ConversationItemsQuery,
  ConversationList, ConversationListQuery, ConversationParams, IdParams, errorResponses,
} from '@switchboard/contracts';
import type { App } from '../../app.js';
import type { AppContext } from '../../context.js';
import {
  getConversation, listConversationItems, listConversations, markConversationRead, setConversationArchived, setItemRead,
} from './conversations.service.js';

const tags = ['inbox'];

export function registerConversationRoutes(app: App, ctx: AppContext): void {
  app.get('/api/companies/:companyId/conversations', {
    schema: { tags, summary: 'Inbox conversations, newest activity first (cursor-paged)', params: CompanyParams, querystring: ConversationListQuery, response: { 200: ConversationList, ...errorResponses } },
  }, async (req) => listConversations(ctx, req.auth!.userId, req.params.companyId, req.query));

  app.get('/api/companies/:companyId/conversations/:cid', {
    schema: { tags, summary: 'One conversation', params: ConversationParams, response: { 200: Conversation, ...errorResponses } },
  }, async (req) => getConversation(ctx, req.auth!.userId, req.params.companyId, req.params.cid));

  app.get('/api/companies/:companyId/conversations/:cid/items', {
    schema: { tags, summary: 'Items of a conversation, newest first (cursor-paged)', params: ConversationParams, querystring: ConversationItemsQuery, response: { 200: ConversationItemList, ...errorResponses } },
  }, async (req) => listConversationItems(ctx, req.auth!.userId, req.params.companyId, req.params.cid, req.query));

  app.put('/api/companies/:companyId/conversations/:cid/read-all', {
    schema: { tags, summary: 'Mark every item of the conversation read', params: ConversationParams, response: { 200: Conversation, ...errorResponses } },
  }, async (req) => markConversationRead(ctx, req.auth!.userId, req.params.companyId, req.params.cid));

  for (const [suffix, read] of [['read', true], ['unread', false]] as const) {
    app.put(`/api/companies/:companyId/conversations/:cid/items/:iid/${suffix}`, {
      schema: { tags, summary: `Mark one item ${suffix}`, params: ConversationItemParams, response: { 200: ConversationItem, ...errorResponses } },
    }, async (req) => setItemRead(ctx, req.auth!.userId, req.params.companyId, req.params.cid, req.params.iid, read));
  }

  for (const [suffix, archived] of [['archive', true], ['restore', false]] as const) {
    app.put(`/api/inbox/conversations/:id/${suffix}`, {
      schema: { tags, summary: suffix === 'archive' ? 'Archive a conversation' : 'Restore (un-archive) a conversation', params: IdParams, response: { 200: Conversation, ...errorResponses } },
    }, async (req) => setConversationArchived(ctx, req.auth!.userId, req.params.id, archived));
  }
}
