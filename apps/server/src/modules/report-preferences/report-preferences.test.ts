/**
 * Column presets (spec 001 "Column presets": the 14 report kinds, company or business-unit scope, the three success
 * messages) and favourite reports (spec 002: `{id, value}` JSON string, per user and company) through the real server:
 * CRUD with messages, scope listing, 422 on bad input, another company's or person's objects 403/404.
 */
import { COLUMN_PRESET_KINDS } from '@switchboard/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember, createOrganization } from '../companies/companies.service.js';

let s: TestServer;
let a: Account;
let other: Account;
let sibling: Account;
let reader: Account;
let org: number;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { firstName: 'Petra' });
  other = await createAccount(s, { firstName: 'Olga' });
  sibling = await createAccount(s, { firstName: 'Sam' });
  reader = await createAccount(s, { firstName: 'Rita' });
  // a and sibling run companies of one business unit; reader is a reporting member of a's company.
  org = await createOrganization(s.ctx, 'North Group', a.userId);
  await s.ctx.db.updateTable('companies').set({ organization_id: org }).where('id', 'in', [a.companyId, sibling.companyId]).execute();
  await addCompanyMember(s.ctx, a.companyId, reader.userId, 'reporting');
}, 60_000);

afterAll(async () => {
  await s?.close();
});

const fav = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    name,
    path: '/reports',
    filters: { group: 'trafficSource_day', from: '2026-11-01' },
    grouping: 'trafficSource_day',
    columns: ['source', 'total'],
    ...extra,
  });

describe('column presets', () => {
  it('creates, reads, lists (company plus its business unit), updates and removes with the spec messages', async () => {
    const created = await a.client.post('/api/column-presets', {
      companyId: a.companyId,
      kind: 'by_source',
      name: 'Sources compact',
      data: { columns: ['source', 'total', 'answered'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.message).toBe('Column preset was successfully created');
    expect(created.body.data).toMatchObject({ kind: 'by_source', name: 'Sources compact', companyId: a.companyId, businessUnitId: null, userId: a.userId });
    expect(created.body.data.data).toEqual({ columns: ['source', 'total', 'answered'], sort: null });
    const id = created.body.data.id;

    const unit = await a.client.post('/api/column-presets', {
      businessUnitId: org,
      kind: 'dashboard',
      name: 'Group default',
      data: { columns: ['total', 'missed'], sort: { column: 'total', dir: 'desc' } },
    });
    expect(unit.status, JSON.stringify(unit.body)).toBe(201);

    // The company sees its own and its business unit's presets; the sibling company sees only the unit's.
    const mine = await a.client.get(`/api/column-presets?companyId=${a.companyId}`);
    // Ordered by kind (by_source before dashboard), then name.
    expect(mine.body.data.map((p: { name: string }) => p.name)).toEqual(['Sources compact', 'Group default']);
    const onlyKind = await a.client.get(`/api/column-presets?companyId=${a.companyId}&kind=by_source`);
    expect(onlyKind.body.data.map((p: { id: number }) => p.id)).toEqual([id]);
    const sib = await sibling.client.get(`/api/column-presets?companyId=${sibling.companyId}`);
    expect(sib.body.data.map((p: { name: string }) => p.name)).toEqual(['Group default']);
    expect((await sibling.client.get(`/api/column-presets?businessUnitId=${org}`)).body.data).toHaveLength(1);

    const got = await a.client.get(`/api/column-presets/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.name).toBe('Sources compact');

    const upd = await a.client.put(`/api/column-presets/${id}`, { data: { columns: ['answered', 'source'], sort: { column: 'answered', dir: 'asc' } } });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.message).toBe('Column preset was successfully updated');
    expect(upd.body.data.data).toEqual({ columns: ['answered', 'source'], sort: { column: 'answered', dir: 'asc' } });
    expect(upd.body.data.name).toBe('Sources compact');

    const del = await a.client.delete(`/api/column-presets/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.message).toBe('Column preset was successfully removed');
    expect((await a.client.get(`/api/column-presets/${id}`)).status).toBe(404);
  });

  it('accepts each of the 14 report kinds and refuses another', async () => {
    expect(COLUMN_PRESET_KINDS).toHaveLength(14);
    for (const kind of COLUMN_PRESET_KINDS) {
      const r = await a.client.post('/api/column-presets', { companyId: a.companyId, kind, name: `k ${kind}`, data: { columns: ['x'] } });
      expect(r.status, kind).toBe(201);
    }
    const bad = await a.client.post('/api/column-presets', { companyId: a.companyId, kind: 'by_weather', name: 'x', data: { columns: ['x'] } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toContain('kind');
  });

  it('answers 422 for bad input and keeps other tenants out (403/404)', async () => {
    const cases: Array<[unknown, string]> = [
      [{ companyId: a.companyId, kind: 'numbers', name: '', data: { columns: ['a'] } }, 'name'],
      [{ companyId: a.companyId, kind: 'numbers', name: 'n', data: { columns: [] } }, 'data.columns'],
      [{ companyId: a.companyId, kind: 'numbers', name: 'n', data: { columns: ['a', 'a'] } }, 'data.columns'],
      [{ companyId: a.companyId, kind: 'numbers', name: 'n', data: { columns: ['bad key!'] } }, 'data.columns.0'],
      [{ kind: 'numbers', name: 'n', data: { columns: ['a'] } }, 'companyId'],
      [{ companyId: a.companyId, businessUnitId: org, kind: 'numbers', name: 'n', data: { columns: ['a'] } }, 'businessUnitId'],
    ];
    for (const [body, field] of cases) {
      const r = await a.client.post('/api/column-presets', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(r.body.errors), JSON.stringify(r.body)).toContain(field);
    }
    expect((await a.client.get('/api/column-presets')).status).toBe(422);
    expect((await a.client.get('/api/column-presets/abc')).status).toBe(422);

    const p = await a.client.post('/api/column-presets', { companyId: a.companyId, kind: 'numbers', name: 'Mine', data: { columns: ['a'] } });
    const id = p.body.data.id;
    expect((await other.client.get(`/api/column-presets?companyId=${a.companyId}`)).status).toBe(403);
    expect((await other.client.post('/api/column-presets', { companyId: a.companyId, kind: 'numbers', name: 'x', data: { columns: ['a'] } })).status).toBe(403);
    expect((await other.client.get(`/api/column-presets/${id}`)).status).toBe(404);
    expect((await other.client.put(`/api/column-presets/${id}`, { name: 'Theirs' })).status).toBe(404);
    expect((await other.client.delete(`/api/column-presets/${id}`)).status).toBe(404);
    expect((await other.client.post('/api/column-presets', { businessUnitId: org, kind: 'numbers', name: 'x', data: { columns: ['a'] } })).status).toBe(403);

    // A reporting member reads and creates presets, but changes only their own.
    expect((await reader.client.get(`/api/column-presets/${id}`)).status).toBe(200);
    expect((await reader.client.put(`/api/column-presets/${id}`, { name: 'Renamed' })).status).toBe(404);
    const own = await reader.client.post('/api/column-presets', { companyId: a.companyId, kind: 'numbers', name: 'Rita', data: { columns: ['a'] } });
    expect(own.status).toBe(201);
    expect((await reader.client.put(`/api/column-presets/${own.body.data.id}`, { name: 'Rita 2' })).body.data.name).toBe('Rita 2');
    // …and the owner (a manager) may change anyone's preset in the company.
    expect((await a.client.delete(`/api/column-presets/${own.body.data.id}`)).status).toBe(200);
    expect((await a.client.put(`/api/column-presets/${id}`, {})).status).toBe(422);
  });
});

describe('favorite reports', () => {
  it('saves, lists, renames and deletes a person’s favourites; value stays the JSON text saved', async () => {
    const value = fav('Sources this month');
    const created = await a.client.post('/api/favorite-reports', { companyId: a.companyId, value });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ message: 'Favorite report saved', data: { value, companyId: a.companyId } });
    const id = created.body.data.id;

    const list = await a.client.get(`/api/favorite-reports?companyId=${a.companyId}`);
    expect(list.body.data.map((f: { id: number }) => f.id)).toEqual([id]);
    // Private: another member of the same company does not see it.
    expect((await reader.client.get(`/api/favorite-reports?companyId=${a.companyId}`)).body.data).toEqual([]);

    const renamed = fav('Sources, November');
    const upd = await a.client.put(`/api/favorite-reports/${id}`, { value: renamed });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ message: 'Favorite report updated', data: { id, value: renamed } });
    expect(JSON.parse((await a.client.get(`/api/favorite-reports?companyId=${a.companyId}`)).body.data[0].value).name).toBe('Sources, November');

    const del = await a.client.delete(`/api/favorite-reports/${id}`);
    expect(del.body).toEqual({ message: 'Favorite report deleted' });
    expect((await a.client.get(`/api/favorite-reports?companyId=${a.companyId}`)).body.data).toEqual([]);
  });

  it('validates the value (JSON, shape, size, in-app path) and keeps other people out', async () => {
    for (const value of [
      'not json',
      '[]',
      JSON.stringify({ name: '', path: '/reports' }),
      fav('x', { path: 'https://evil.example/reports' }),
      fav('x', { path: '//evil.example' }),
      fav('x', { filters: { nested: { deep: 1 } } }),
      fav('x', { filters: { q: 'x'.repeat(16_000) } }),
    ]) {
      const r = await a.client.post('/api/favorite-reports', { companyId: a.companyId, value });
      expect(r.status, value.slice(0, 80)).toBe(422);
      expect(Object.keys(r.body.errors)).toContain('value');
    }
    expect((await a.client.post('/api/favorite-reports', { value: fav('x') })).status).toBe(422);
    expect((await a.client.get('/api/favorite-reports')).status).toBe(422);

    const mine = await a.client.post('/api/favorite-reports', { companyId: a.companyId, value: fav('Mine') });
    const id = mine.body.data.id;
    expect((await other.client.post('/api/favorite-reports', { companyId: a.companyId, value: fav('x') })).status).toBe(403);
    expect((await other.client.get(`/api/favorite-reports?companyId=${a.companyId}`)).status).toBe(403);
    expect((await other.client.put(`/api/favorite-reports/${id}`, { value: fav('Theirs') })).status).toBe(404);
    expect((await reader.client.delete(`/api/favorite-reports/${id}`)).status).toBe(404);
    expect((await a.client.put(`/api/favorite-reports/${id}`, { value: 'nope' })).status).toBe(422);
    expect((await a.client.delete('/api/favorite-reports/999999999')).status).toBe(404);
  });
});
