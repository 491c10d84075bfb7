/** Groups and labels HTTP of the contacts module (spec 001 §7 "Groups and labels"). */
import {
  BulkResult,
  BulkSelection,
  ContactGroup,
  ContactLabel,
  CreateGroupBody,
  CreateLabelBody,
  GroupAllContactsBody,
  GroupAllContactsParams,
  GroupList,
  GroupListQuery,
  IdParams,
  LabelList,
  LabelParams,
  MessageBody,
  UpdateGroupBody,
  errorResponses,
} from '@switchboard/contracts';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import {
  addAllContactsToGroup,
  changeGroupMembers,
  changeLabelMembers,
  createGroup,
  createLabel,
  deleteGroup,
  deleteLabel,
  getGroup,
  listGroups,
  listLabels,
  updateGroup,
} from './groups.service.js';

const tags = ['contacts'];

/** Registers the contact groups and labels routes (`/api/groups…`, `/api/companies/{id}/contactLabels…`). */
export function registerGroupsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/groups',
    {
      config: { access: access.company('contacts.read') },
      schema: { tags, summary: 'Contact groups with counters', querystring: GroupListQuery, response: { 200: GroupList, ...errorResponses } },
    },
    async (req) => listGroups(ctx, req.auth!.userId, req.query.company_id, req.query.search),
  );
  app.post(
    '/api/groups',
    {
      config: { access: access.company('contacts.write') },
      schema: { tags, summary: 'Create a contact group', body: CreateGroupBody, response: { 201: ContactGroup, ...errorResponses } },
    },
    async (req, reply) => reply.status(201).send(await createGroup(ctx, req.auth!.userId, req.body)),
  );
  app.get(
    '/api/groups/:id',
    {
      config: { access: access.company('contacts.read') },
      schema: { tags, summary: 'One contact group', params: IdParams, response: { 200: ContactGroup, ...errorResponses } },
    },
    async (req) => getGroup(ctx, req.auth!.userId, req.params.id),
  );
  app.patch(
    '/api/groups/:id',
    {
      config: { access: access.company('contacts.write') },
      schema: { tags, summary: 'Rename a contact group', params: IdParams, body: UpdateGroupBody, response: { 200: ContactGroup, ...errorResponses } },
    },
    async (req) => updateGroup(ctx, req.auth!.userId, req.params.id, req.body),
  );
  app.delete(
    '/api/groups/:id',
    {
      config: { access: access.company('contacts.write') },
      schema: { tags, summary: 'Delete a contact group (contacts stay)', params: IdParams, response: { 200: MessageBody, ...errorResponses } },
    },
    async (req) => deleteGroup(ctx, req.auth!.userId, req.params.id),
  );
  app.post(
    '/api/groups/:companyId/:groupId/all-contacts',
    {
      config: { access: access.company('contacts.write') },
      schema: {
        tags,
        summary: 'Add every contact matching the filters to the group',
        params: GroupAllContactsParams,
        body: GroupAllContactsBody,
        response: { 200: BulkResult, ...errorResponses },
      },
    },
    async (req) => addAllContactsToGroup(ctx, req.auth!.userId, req.params.companyId, req.params.groupId, req.body.filters),
  );
  app.post(
    '/api/groups/:id/contacts',
    {
      config: { access: access.company('contacts.write') },
      schema: {
        tags,
        summary: 'Add chosen contacts (or all + filters) to the group',
        params: IdParams,
        body: BulkSelection,
        response: { 200: BulkResult, ...errorResponses },
      },
    },
    async (req) => changeGroupMembers(ctx, req.auth!.userId, req.params.id, req.body, true),
  );
  app.delete(
    '/api/groups/:id/contacts',
    {
      config: { access: access.company('contacts.write') },
      schema: {
        tags,
        summary: 'Remove chosen contacts (or all + filters) from the group',
        params: IdParams,
        body: BulkSelection,
        response: { 200: BulkResult, ...errorResponses },
      },
    },
    async (req) => changeGroupMembers(ctx, req.auth!.userId, req.params.id, req.body, false),
  );

  app.get(
    '/api/companies/:id/contactLabels',
    {
      config: { access: access.company('contacts.read', { from: ['params.id'] }) },
      schema: { tags, summary: 'Contact labels of the company', params: IdParams, response: { 200: LabelList, ...errorResponses } },
    },
    async (req) => listLabels(ctx, req.auth!.userId, req.params.id),
  );
  app.post(
    '/api/companies/:id/contactLabels',
    {
      config: { access: access.company('contacts.write', { from: ['params.id'] }) },
      schema: { tags, summary: 'Create a contact label', params: IdParams, body: CreateLabelBody, response: { 201: ContactLabel, ...errorResponses } },
    },
    async (req, reply) => reply.status(201).send(await createLabel(ctx, req.auth!.userId, req.params.id, req.body.label)),
  );
  app.delete(
    '/api/companies/:id/contactLabels/:labelId',
    {
      config: { access: access.company('contacts.write', { from: ['params.id'] }) },
      schema: { tags, summary: 'Delete a contact label', params: LabelParams, response: { 200: MessageBody, ...errorResponses } },
    },
    async (req) => deleteLabel(ctx, req.auth!.userId, req.params.id, req.params.labelId),
  );
  for (const [suffix, add] of [
    ['bulkAddLabel', true],
    ['bulkRemoveLabel', false],
  ] as const) {
    app.post(
      `/api/companies/:id/contactLabels/:labelId/${suffix}`,
      {
        config: { access: access.company('contacts.write', { from: ['params.id'] }) },
        schema: {
          tags,
          summary: `${add ? 'Add the label to' : 'Remove the label from'} chosen contacts, or all + filters`,
          params: LabelParams,
          body: BulkSelection,
          response: { 200: BulkResult, ...errorResponses },
        },
      },
      async (req) => changeLabelMembers(ctx, req.auth!.userId, req.params.id, req.params.labelId, req.body, add),
    );
  }
}
