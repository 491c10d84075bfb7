/**
 * White-label tenant (spec 002 "Organizations and tenant"; docs/workspace.md "Tenant") through the real server:
 * `GET /tenant-config` by host name (default tenant when unknown or unverified), tenant information ("Information
 * updated successfully"), custom domain with TLD validation, DNS records and their check through the sandbox resolver,
 * e-mail sender verification; 422 on bad input, 403 for another company or business unit.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { ApiClient, startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember, createOrganization } from '../companies/companies.service.js';
import { SandboxDnsResolver, setDnsResolver } from './dns-resolver.js';
import { checkDomainName } from './tenant.service.js';

let s: TestServer;
let a: Account;
let other: Account;
let reader: Account;
let unit: number;
let otherUnit: number;
const dns = new SandboxDnsResolver();

beforeAll(async () => {
  s = await startTestServer();
  setDnsResolver(s.ctx, dns);
  a = await createAccount(s);
  other = await createAccount(s);
  reader = await createAccount(s);
  unit = await createOrganization(s.ctx, 'Acme Agency', a.userId);
  otherUnit = await createOrganization(s.ctx, 'Other Agency', other.userId);
  await s.ctx.db.updateTable('companies').set({ organization_id: unit }).where('id', '=', a.companyId).execute();
  await s.ctx.db.updateTable('companies').set({ organization_id: otherUnit }).where('id', '=', other.companyId).execute();
  await addCompanyMember(s.ctx, a.companyId, reader.userId, 'reporting');
}, 180_000);

afterAll(async () => {
  await s?.close();
});

const info = {
  name: 'Acme Phones',
  logoUrl: 'https://cdn.acme.example/logo.png',
  faviconUrl: 'https://cdn.acme.example/favicon.ico',
  primaryColor: '#E8590C',
  secondaryColor: '#1098ad',
  supportEmail: 'Help@Acme-Phones.com',
  supportPhone: '(415) 555-0199',
  websiteUrl: 'https://acme-phones.com',
};

describe('TLD validation', () => {
  it('accepts registrable names under ICANN suffixes and refuses the rest (hand-picked cases)', () => {
    expect(checkDomainName('Acme-Phones.co.uk')).toMatchObject({ valid: true, domain: 'acme-phones.co.uk', tld: 'co.uk' });
    expect(checkDomainName('portal.acme.com.au')).toMatchObject({ valid: true, tld: 'com.au' });
    expect(checkDomainName('acme.notarealtld')).toMatchObject({ valid: false, message: 'The top-level domain .notarealtld is not recognised.' });
    expect(checkDomainName('co.uk').valid).toBe(false);
    expect(checkDomainName('192.168.1.10')).toMatchObject({ valid: false, message: 'Use a domain name, not an IP address.' });
    expect(checkDomainName('https://acme.com/x').valid).toBe(false);
    expect(checkDomainName('-acme.com').valid).toBe(false);
  });

  it('answers through the route, with taken domains and 422 without a name', async () => {
    const ok = await a.client.get(`/api/custom-domain-configuration/tld-validation?domainName=acme-phones.com&businessUnitId=${unit}`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ valid: true, domain: 'acme-phones.com', tld: 'com', taken: false });
    expect((await a.client.get('/api/custom-domain-configuration/tld-validation?domainName=acme.zzzz')).body.valid).toBe(false);
    expect((await a.client.get('/api/custom-domain-configuration/tld-validation')).status).toBe(422);
    expect((await other.client.get(`/api/custom-domain-configuration/tld-validation?domainName=x.com&businessUnitId=${unit}`)).status).toBe(403);
  });
});

describe('tenant', () => {
  it('gives the default tenant before any branding, to anyone', async () => {
    const anon = new ApiClient(s.url);
    const r = await anon.get('/api/tenant-config?hostname=app.unknown-brand.com');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ id: null, name: 'Switchboard', primaryColor: '#228be6', hostname: 'app.unknown-brand.com', logoUrl: null });
    expect(r.body.data.supportEmail).toMatch(/^support@/);
  });

  it('updates tenant information with the spec message; 422 on bad input; 403 for reporting and other companies', async () => {
    const saved = await a.client.put(`/api/companies/${a.companyId}/tenant/tenant-information`, info);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.message).toBe('Information updated successfully');
    expect(saved.body.data).toMatchObject({ businessUnitId: unit, canEdit: true });
    expect(saved.body.data.information).toMatchObject({
      name: 'Acme Phones',
      primaryColor: '#e8590c',
      supportEmail: 'help@acme-phones.com',
      supportPhone: '+14155550199',
    });
    const bad = await a.client.put(`/api/companies/${a.companyId}/tenant/tenant-information`, {
      ...info,
      name: '',
      primaryColor: 'orange',
      supportEmail: 'nope',
      logoUrl: 'javascript:alert(1)',
      supportPhone: '12',
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['logoUrl', 'name', 'primaryColor', 'supportEmail', 'supportPhone']);
    expect((await reader.client.put(`/api/companies/${a.companyId}/tenant/tenant-information`, info)).status).toBe(403);
    expect((await other.client.put(`/api/companies/${a.companyId}/tenant/tenant-information`, info)).status).toBe(403);
    expect((await other.client.get(`/api/companies/${a.companyId}/tenant`)).status).toBe(403);
    const readerView = await reader.client.get(`/api/companies/${a.companyId}/tenant`);
    expect(readerView.body.data).toMatchObject({ canEdit: false, information: { name: 'Acme Phones' } });

    const loner = await createAccount(s);
    const refused = await loner.client.put(`/api/companies/${loner.companyId}/tenant/tenant-information`, info);
    expect(refused.status).toBe(422);
  });

  it('configures a custom domain, lists the DNS records, verifies them and then brands that host name', async () => {
    const saved = await a.client.post('/api/custom-domain-configuration', {
      businessUnitId: unit,
      domain: 'Acme-Phones.com',
      appSubdomain: 'portal',
      apiSubdomain: 'api',
      authToken: 'cf-secret-token-9876',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const d = saved.body.data;
    expect(d).toMatchObject({
      domain: 'acme-phones.com',
      appHostname: 'portal.acme-phones.com',
      apiHostname: 'api.acme-phones.com',
      status: 'pending',
      authTokenHint: '9876',
    });
    expect(JSON.stringify(saved.body)).not.toContain('cf-secret-token');
    const host = new URL(s.ctx.config.publicUrl).hostname;
    expect(d.records.map((r: any) => [r.type, r.name, r.value, r.ok])).toEqual([
      ['CNAME', 'portal.acme-phones.com', host, null],
      ['CNAME', 'api.acme-phones.com', host, null],
      ['TXT', '_switchboard.acme-phones.com', expect.stringMatching(/^switchboard-verification=[0-9a-f]{24}$/), null],
    ]);

    // Not branded before verification.
    const anon = new ApiClient(s.url);
    expect((await anon.get('/api/tenant-config?hostname=portal.acme-phones.com')).body.data.id).toBeNull();

    dns.publish('CNAME', 'portal.acme-phones.com', `${host}.`);
    const partly = await a.client.post('/api/custom-domain-configuration/check', { businessUnitId: unit });
    expect(partly.body.data.status).toBe('failed');
    expect(partly.body.data.records.map((r: any) => r.ok)).toEqual([true, false, false]);

    for (const r of d.records) dns.publish(r.type, r.name, r.value);
    const verified = await a.client.post('/api/custom-domain-configuration/check', { businessUnitId: unit });
    expect(verified.body.data.status).toBe('verified');
    expect(verified.body.data.verifiedAt).not.toBeNull();

    const branded = await anon.get('/api/tenant-config?hostname=PORTAL.acme-phones.com:443');
    expect(branded.body.data).toMatchObject({ name: 'Acme Phones', primaryColor: '#e8590c', logoUrl: info.logoUrl, supportEmail: 'help@acme-phones.com' });
    // By the request's own Host header too.
    const byHost = await new Promise<string>((resolve, reject) => {
      const u = new URL(s.url);
      http
        .get({ host: u.hostname, port: u.port, path: '/api/tenant-config', headers: { host: 'portal.acme-phones.com', accept: 'application/json' } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve(body));
        })
        .on('error', reject);
    });
    expect(JSON.parse(byHost).data.name).toBe('Acme Phones');

    // Another business unit cannot take it; bad input is 422; outsiders 403.
    const taken = await other.client.post('/api/custom-domain-configuration', {
      businessUnitId: otherUnit,
      domain: 'acme-phones.com',
      appSubdomain: 'app',
      apiSubdomain: 'api',
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors.domain).toEqual(['Another organization uses this domain.']);
    expect(
      (await a.client.post('/api/custom-domain-configuration', { businessUnitId: unit, domain: 'acme.notatld', appSubdomain: 'app', apiSubdomain: 'api' }))
        .status,
    ).toBe(422);
    expect(
      (await a.client.post('/api/custom-domain-configuration', { businessUnitId: unit, domain: 'acme.com', appSubdomain: 'x', apiSubdomain: 'x' })).status,
    ).toBe(422);
    expect(
      (await a.client.post('/api/custom-domain-configuration', { businessUnitId: unit, domain: 'acme.com', appSubdomain: 'bad_label', apiSubdomain: 'api' }))
        .status,
    ).toBe(422);
    expect((await other.client.get(`/api/custom-domain-configuration?businessUnitId=${unit}`)).status).toBe(403);
    expect((await other.client.post('/api/custom-domain-configuration/check', { businessUnitId: unit })).status).toBe(403);
    expect((await a.client.get(`/api/custom-domain-configuration?businessUnitId=${unit}`)).body.data.status).toBe('verified');
  });

  it('starts and checks the e-mail sender verification (SPF, DKIM, return path, ownership)', async () => {
    const started = await a.client.post(`/api/companies/${a.companyId}/tenant/email-sender/start-verification`, { email: 'Support@Mail.Acme-Phones.com' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.message).toBe('Verification started: create the DNS records below');
    const sender = started.body.data;
    expect(sender).toMatchObject({ email: 'support@mail.acme-phones.com', domain: 'mail.acme-phones.com', status: 'pending' });
    expect(sender.records.map((r: any) => [r.type, r.name.replace(/^sb[0-9a-f]{6}\./, 'SEL.')])).toEqual([
      ['TXT', 'mail.acme-phones.com'],
      ['CNAME', 'SEL._domainkey.mail.acme-phones.com'],
      ['CNAME', 'bounces.mail.acme-phones.com'],
      ['TXT', '_switchboard-mail.mail.acme-phones.com'],
    ]);
    // An existing SPF record with our include among others counts.
    const host = new URL(s.ctx.config.publicUrl).hostname;
    dns.publish('TXT', 'mail.acme-phones.com', `v=spf1 include:_spf.google.com include:spf.${host} ~all`);
    const partly = await a.client.post(`/api/companies/${a.companyId}/tenant/email-sender/check`);
    expect(partly.body.data.status).toBe('failed');
    expect(partly.body.data.records.map((r: any) => r.ok)).toEqual([true, false, false, false]);
    for (const r of sender.records.slice(1)) dns.publish(r.type, r.name, r.value);
    const ok = await a.client.post(`/api/companies/${a.companyId}/tenant/email-sender/check`);
    expect(ok.body.data.status).toBe('verified');
    expect((await a.client.get(`/api/companies/${a.companyId}/tenant`)).body.data.emailSender.status).toBe('verified');

    expect((await a.client.post(`/api/companies/${a.companyId}/tenant/email-sender/start-verification`, { email: 'not-an-email' })).status).toBe(422);
    expect((await a.client.post(`/api/companies/${a.companyId}/tenant/email-sender/start-verification`, { email: 'x@acme.notatld' })).status).toBe(422);
    expect((await other.client.post(`/api/companies/${a.companyId}/tenant/email-sender/start-verification`, { email: 'x@acme.com' })).status).toBe(403);
    expect((await reader.client.post(`/api/companies/${a.companyId}/tenant/email-sender/check`)).status).toBe(403);
  });
});
