/**
 * Data groups (spec 002 "Data groups": GET, POST /data-group; GET, PUT, DELETE /data-group/{id}; POST
 * /data-group/{id}/attach and /detach; entity "Data group: id, entities"; docs/workspace.md) through the real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember } from '../companies/companies.service.js';

let s: TestServer;
let a: Account;
let other: Account;
let member: Account;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { firstName: 'Ann', lastName: 'Lee' });
  other = await createAccount(s);
  member = await createAccount(s, { firstName: 'Bo', lastName: 'Ray' });
  await addCompanyMember(s.ctx, a.companyId, member.userId, 'user');
}, 180_000);

afterAll(async () => {
  await s?.close();
});

describe('data groups', () => {
  it('creates with entities, attaches and detaches several types, renames and deletes', async () => {
    const c1 = (await a.client.post('/api/contacts', { company_id: a.companyId, name: 'Carla Fleet', number: '+14155550111' })).body;
    const tag = (await a.client.post('/api/tags', { companyId: a.companyId, name: 'Fleet' })).body.data;
    const created = await a.client.post('/api/data-group', {
      companyId: a.companyId,
      name: 'West team',
      description: 'Reps and their customers',
      entities: [{ type: 'user', id: member.userId }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.message).toBe('Data group was successfully created');
    const id = created.body.data.id;
    expect(created.body.data.entities).toEqual([{ type: 'user', id: member.userId, label: 'Bo Ray' }]);

    const attached = await a.client.post(`/api/data-group/${id}/attach`, {
      entities: [
        { type: 'contact', id: c1.id },
        { type: 'tag', id: tag.id },
        { type: 'user', id: member.userId },
      ],
    });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    expect(attached.body.data.entities.map((e: any) => `${e.type}:${e.label}`)).toEqual(['contact:Carla Fleet', 'tag:Fleet', 'user:Bo Ray']);

    const detached = await a.client.post(`/api/data-group/${id}/detach`, { entities: [{ type: 'user', id: member.userId }] });
    expect(detached.body.data.entities.map((e: any) => e.type)).toEqual(['contact', 'tag']);

    const renamed = await a.client.put(`/api/data-group/${id}`, { name: 'West region' });
    expect(renamed.body).toMatchObject({
      message: 'Data group was successfully updated',
      data: { name: 'West region', description: 'Reps and their customers' },
    });
    expect((await a.client.get(`/api/data-group?companyId=${a.companyId}`)).body.data.map((g: any) => g.name)).toEqual(['West region']);
    expect((await a.client.get(`/api/data-group/${id}`)).body.data.entities).toHaveLength(2);

    const candidates = await a.client.get(`/api/data-group/candidates?companyId=${a.companyId}&type=user&search=bo`);
    expect(candidates.body.data).toEqual([{ type: 'user', id: member.userId, label: 'Bo Ray' }]);

    expect((await a.client.delete(`/api/data-group/${id}`)).body.message).toBe('Data group was successfully deleted');
    expect((await a.client.get(`/api/data-group/${id}`)).status).toBe(404);
  });

  it('refuses foreign entities (422), bad input (422), another company (403/404) and members who may not change (403)', async () => {
    const g = (await a.client.post('/api/data-group', { companyId: a.companyId, name: 'Mine' })).body.data;
    const foreignContact = (await other.client.post('/api/contacts', { company_id: other.companyId, name: 'Theirs', number: '+14155550112' })).body;
    const foreign = await a.client.post(`/api/data-group/${g.id}/attach`, {
      entities: [
        { type: 'user', id: a.userId },
        { type: 'contact', id: foreignContact.id },
        { type: 'user', id: other.userId },
      ],
    });
    expect(foreign.status).toBe(422);
    expect(Object.keys(foreign.body.errors).sort()).toEqual(['entities.1', 'entities.2']);
    expect((await a.client.get(`/api/data-group/${g.id}`)).body.data.entities).toEqual([]);
    expect((await a.client.post(`/api/data-group/${g.id}/attach`, { entities: [] })).status).toBe(422);
    expect((await a.client.post(`/api/data-group/${g.id}/attach`, { entities: [{ type: 'call', id: 1 }] })).status).toBe(422);
    expect((await a.client.post('/api/data-group', { companyId: a.companyId, name: 'MINE' })).status).toBe(422);
    expect((await a.client.post('/api/data-group', { companyId: a.companyId, name: '' })).status).toBe(422);
    expect((await a.client.get('/api/data-group')).status).toBe(422);

    expect((await other.client.get(`/api/data-group?companyId=${a.companyId}`)).status).toBe(403);
    expect((await other.client.post('/api/data-group', { companyId: a.companyId, name: 'x' })).status).toBe(403);
    expect((await other.client.get(`/api/data-group/${g.id}`)).status).toBe(404);
    expect((await other.client.put(`/api/data-group/${g.id}`, { name: 'x' })).status).toBe(404);
    expect((await other.client.post(`/api/data-group/${g.id}/detach`, { entities: [{ type: 'user', id: 1 }] })).status).toBe(404);
    expect((await other.client.delete(`/api/data-group/${g.id}`)).status).toBe(404);
    expect((await member.client.get(`/api/data-group/${g.id}`)).status).toBe(200);
    expect((await member.client.put(`/api/data-group/${g.id}`, { name: 'x' })).status).toBe(403);
  });
});
