/**
 * General settings (spec 002 "General settings": get, index, save, bulk across companies, restore defaults with the
 * spec's messages) and the `feature/ai-eav` toggle ("Feature enabled successfully" / "Feature disabled
 * successfully") through the real server: 422 on bad input, 403 for another company or a role that may not change.
 */
import { DEFAULT_GENERAL_SETTINGS } from '@switchboard/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember } from '../companies/companies.service.js';

let s: TestServer;
let a: Account;
let b: Account;
let other: Account;
let reader: Account;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { companyName: 'Alpha Motors' });
  b = await createAccount(s, { companyName: 'Beta Motors' });
  other = await createAccount(s, { companyName: 'Zeta Outsiders' });
  reader = await createAccount(s);
  // a also administers b's company; reader reports in a's company.
  await addCompanyMember(s.ctx, b.companyId, a.userId, 'administrator');
  await addCompanyMember(s.ctx, a.companyId, reader.userId, 'reporting');
}, 180_000);

afterAll(async () => {
  await s?.close();
});

const mine = {
  ...DEFAULT_GENERAL_SETTINGS,
  caller_id_name: 'ALPHA MOTORS',
  record_calls: true,
  business_days: [1, 2, 3, 4, 5, 6],
  business_hours_end: '18:30',
};

describe('general settings', () => {
  it('starts at the defaults, saves, and restores the defaults with the spec messages', async () => {
    const first = await a.client.get(`/api/general-settings?companyId=${a.companyId}`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ companyId: a.companyId, companyName: 'Alpha Motors', isDefault: true, updatedAt: null, aiEavEnabled: false });
    expect(first.body.data.settings).toEqual(DEFAULT_GENERAL_SETTINGS);

    const saved = await a.client.post('/api/general-settings', { companyId: a.companyId, settings: mine });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.message).toBe('Settings were successfully updated');
    expect(saved.body.data).toMatchObject({ isDefault: false, settings: mine });
    expect((await a.client.get(`/api/general-settings?company_id=${a.companyId}`)).body.data.settings.business_hours_end).toBe('18:30');

    const restored = await a.client.delete(`/api/general-settings?companyId=${a.companyId}`);
    expect(restored.status).toBe(200);
    expect(restored.body.message).toBe('Settings were successfully restored');
    expect(restored.body.data).toMatchObject({ isDefault: true, updatedAt: null, settings: DEFAULT_GENERAL_SETTINGS });
  });

  it('answers 422 with field errors on bad input', async () => {
    const bad = await a.client.post('/api/general-settings', {
      companyId: a.companyId,
      settings: { ...DEFAULT_GENERAL_SETTINGS, caller_id_name: 'A name far too long for CNAM', business_hours_start: '25:00', business_days: [1, 1] },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['settings.business_days', 'settings.business_hours_start', 'settings.caller_id_name']);
    const sameHours = await a.client.post('/api/general-settings', {
      companyId: a.companyId,
      settings: { ...DEFAULT_GENERAL_SETTINGS, business_hours_end: '09:00' },
    });
    expect(sameHours.status).toBe(422);
    expect(sameHours.body.errors['settings.business_hours_end']).toEqual(['The business hours end must be different from the start.']);
    const emptyText = await a.client.post('/api/general-settings', {
      companyId: a.companyId,
      settings: { ...DEFAULT_GENERAL_SETTINGS, missed_call_text_enabled: true, missed_call_text: '  ' },
    });
    expect(emptyText.status).toBe(422);
    expect((await a.client.get('/api/general-settings')).status).toBe(422);
    expect((await a.client.post('/api/general-settings/bulk', { companyIds: [], settings: { record_calls: true } })).status).toBe(422);
    expect((await a.client.post('/api/general-settings/bulk', { companyIds: [a.companyId], settings: {} })).status).toBe(422);
  });

  it('refuses another company (403) and a reporting member changing (403), reads for the reporting member', async () => {
    expect((await other.client.get(`/api/general-settings?companyId=${a.companyId}`)).status).toBe(403);
    expect((await other.client.post('/api/general-settings', { companyId: a.companyId, settings: mine })).status).toBe(403);
    expect((await other.client.delete(`/api/general-settings?companyId=${a.companyId}`)).status).toBe(403);
    expect((await reader.client.get(`/api/general-settings?companyId=${a.companyId}`)).status).toBe(200);
    expect((await reader.client.post('/api/general-settings', { companyId: a.companyId, settings: mine })).status).toBe(403);
    expect((await reader.client.put('/api/feature/ai-eav', { companyId: a.companyId, enabled: true })).status).toBe(403);
  });

  it('indexes every company the user reaches and saves the given fields across them in bulk, keeping the others', async () => {
    await a.client.post('/api/general-settings', { companyId: b.companyId, settings: { ...DEFAULT_GENERAL_SETTINGS, caller_id_name: 'BETA' } });
    const bulk = await a.client.post('/api/general-settings/bulk', {
      companyIds: [a.companyId, b.companyId],
      settings: { spam_filter_enabled: false, time_format: '24h' },
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(bulk.body.message).toBe('Settings were successfully updated');
    const index = await a.client.get('/api/general-settings/index');
    expect(index.status).toBe(200);
    const byName = Object.fromEntries(index.body.data.map((e: any) => [e.companyName, e]));
    expect(Object.keys(byName).sort()).toEqual(['Alpha Motors', 'Beta Motors']);
    expect(byName['Alpha Motors'].settings).toEqual({ ...DEFAULT_GENERAL_SETTINGS, spam_filter_enabled: false, time_format: '24h' });
    expect(byName['Beta Motors'].settings).toEqual({ ...DEFAULT_GENERAL_SETTINGS, caller_id_name: 'BETA', spam_filter_enabled: false, time_format: '24h' });
    expect(byName['Beta Motors'].role).toBe('administrator');
    expect((await a.client.get('/api/general-settings/index?search=beta')).body.data.map((e: any) => e.companyName)).toEqual(['Beta Motors']);

    // One company not managed: nothing changes anywhere.
    const refused = await a.client.post('/api/general-settings/bulk', { companyIds: [a.companyId, other.companyId], settings: { record_calls: true } });
    expect(refused.status).toBe(403);
    expect((await a.client.get(`/api/general-settings?companyId=${a.companyId}`)).body.data.settings.record_calls).toBe(false);
  });

  it('toggles feature/ai-eav with the spec messages, kept through restore defaults', async () => {
    const on = await a.client.put('/api/feature/ai-eav', { companyId: a.companyId, enabled: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ message: 'Feature enabled successfully', data: { companyId: a.companyId, enabled: true } });
    await a.client.delete(`/api/general-settings?companyId=${a.companyId}`);
    expect((await a.client.get(`/api/feature/ai-eav?companyId=${a.companyId}`)).body.data.enabled).toBe(true);
    const off = await a.client.put('/api/feature/ai-eav', { companyId: a.companyId, enabled: false });
    expect(off.body.message).toBe('Feature disabled successfully');
    expect((await a.client.put('/api/feature/ai-eav', { companyId: a.companyId, enabled: 'yes' })).status).toBe(422);
    expect((await other.client.put('/api/feature/ai-eav', { companyId: a.companyId, enabled: true })).status).toBe(403);
  });
});
