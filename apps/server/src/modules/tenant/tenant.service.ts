/**
 * White-label tenants (spec 002 "Organizations and tenant"; docs/workspace.md "Tenant"): one tenant per business unit
 * (organization) gives its companies' users a name, logo, favicon, colours and support contact, applied by the app
 * before sign-in through `GET /tenant-config` (matched by the request's host name against verified custom domains;
 * the default tenant otherwise). Also: the custom domain (TLD validation with the public-suffix list `tldts`, the DNS
 * records to create, their check) and the e-mail sender (DKIM, SPF and return-path records, their check), through
 * the resolver port of `dns-resolver.ts`.
 *
 * Access: reading a company's tenant: any active member; changing it (information, domain, sender): an owner or
 * administrator of a company of the business unit. A company outside any business unit has the default tenant and
 * cannot change it (422).
 */
import { randomBytes } from 'node:crypto';
import {
  CUSTOM_DOMAIN_SAVED,
  VERIFICATION_STARTED,
  type CustomDomain,
  type DnsRecord,
  type EmailSender,
  type Tenant,
  type TenantConfig,
  type TenantInformationInput,
} from '@switchboard/contracts';
import { INFORMATION_UPDATED, parsePhone } from '@switchboard/domain';
import { parse as parseDomain } from 'tldts';
import type { AppContext } from '../../context.js';
import { ForbiddenError, NotFoundError, ValidationError, fieldError } from '../../platform/http/errors.js';
import { MANAGER_ROLES, assertCompanyAccess, getCompanyOrganizationId, listCompanySummaries } from '../companies/companies.service.js';
import { dnsResolverOf, SandboxDnsResolver } from './dns-resolver.js';
import { tenantRepository as repo, type TenantDomainRow, type TenantEmailSenderRow, type TenantRow } from './tenant.repository.js';

/** The default tenant's colours and name (docs/workspace.md). */
export const DEFAULT_TENANT = { name: 'Switchboard', primaryColor: '#228be6', secondaryColor: '#15aabf' } as const;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The platform's own host name (PUBLIC_URL's), which custom-domain CNAMEs point at. */
function platformHost(ctx: AppContext): string {
  return new URL(ctx.config.publicUrl).hostname.toLowerCase();
}

/** The default support address: `support@` the domain of MAIL_FROM. */
function defaultSupportEmail(ctx: AppContext): string {
  const m = /@([^>\s]+)>?\s*$/.exec(ctx.config.mailFrom);
  return `support@${m?.[1] ?? 'switchboard.local'}`;
}

function config(ctx: AppContext, t: TenantRow | undefined, hostname: string): TenantConfig {
  return {
    id: t ? Number(t.id) : null,
    name: t?.name ?? DEFAULT_TENANT.name,
    logoUrl: t?.logo_url ?? null,
    faviconUrl: t?.favicon_url ?? null,
    primaryColor: t?.primary_color ?? DEFAULT_TENANT.primaryColor,
    secondaryColor: t?.secondary_color ?? DEFAULT_TENANT.secondaryColor,
    supportEmail: t?.support_email ?? defaultSupportEmail(ctx),
    supportPhone: t?.support_phone ?? null,
    websiteUrl: t?.website_url ?? null,
    hostname,
  };
}

/**
 * `GET /tenant-config?hostname` (public): the branding of the tenant whose verified custom domain is `hostname`
 * (case-insensitive, port ignored), else the default tenant.
 */
export async function tenantConfig(ctx: AppContext, hostname: string): Promise<{ data: TenantConfig }> {
  const host = hostname.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const t = host ? await repo.byVerifiedHostname(ctx.db, host) : undefined;
  return { data: config(ctx, t, host) };
}

/** The support address of a company's tenant (its own, else the default one): where support tickets go. */
export async function tenantSupportAddress(ctx: AppContext, companyId: number): Promise<{ email: string; tenantName: string }> {
  const unit = await getCompanyOrganizationId(ctx, companyId);
  const t = unit ? await repo.byBusinessUnit(ctx.db, unit) : undefined;
  const c = config(ctx, t, '');
  return { email: c.supportEmail, tenantName: c.name };
}

/** @throws ForbiddenError 403 unless the user is a member (a manager when `write`) of a company of the business unit. */
async function assertUnitAccess(ctx: AppContext, userId: number, businessUnitId: number, write: boolean): Promise<void> {
  const companies = (await listCompanySummaries(ctx, userId)).filter((c) => c.organization_id === businessUnitId);
  if (!(write ? companies.some((c) => MANAGER_ROLES.includes(c.role)) : companies.length > 0)) throw new ForbiddenError();
}

function domainRecords(ctx: AppContext, d: TenantDomainRow, found?: Map<string, boolean>): DnsRecord[] {
  const target = platformHost(ctx);
  const list: Omit<DnsRecord, 'ok'>[] = [
    { type: 'CNAME', name: d.app_hostname, value: target, purpose: 'The app on your domain' },
    { type: 'CNAME', name: d.api_hostname, value: target, purpose: 'The API on your domain' },
    { type: 'TXT', name: `_switchboard.${d.domain}`, value: `switchboard-verification=${d.verification_token}`, purpose: 'Proves the domain is yours' },
  ];
  return list.map((r) => ({ ...r, ok: found?.get(`${r.type}:${r.name}`) ?? (d.checked_at ? false : null) }));
}

function domainDto(ctx: AppContext, d: TenantDomainRow, found?: Map<string, boolean>): CustomDomain {
  return {
    domain: d.domain,
    appSubdomain: d.app_subdomain,
    apiSubdomain: d.api_subdomain,
    appHostname: d.app_hostname,
    apiHostname: d.api_hostname,
    authTokenHint: d.auth_token_hint,
    status: d.status as CustomDomain['status'],
    records: domainRecords(ctx, d, found ?? (d.status === 'verified' ? new Map(domainRecords(ctx, d).map((r) => [`${r.type}:${r.name}`, true])) : undefined)),
    checkedAt: iso(d.checked_at),
    verifiedAt: iso(d.verified_at),
  };
}

function mailHost(ctx: AppContext): string {
  return platformHost(ctx);
}

function senderRecords(ctx: AppContext, s: TenantEmailSenderRow): DnsRecord[] {
  const host = mailHost(ctx);
  const checked = new Map((s.last_check ?? []).map((c) => [`${c.type}:${c.name}`, c.ok]));
  const list: Omit<DnsRecord, 'ok'>[] = [
    { type: 'TXT', name: s.domain, value: `v=spf1 include:spf.${host} ~all`, purpose: 'SPF: lets us send for your domain' },
    { type: 'CNAME', name: `${s.dkim_selector}._domainkey.${s.domain}`, value: `${s.dkim_selector}.dkim.${host}`, purpose: 'DKIM: signs your mail' },
    { type: 'CNAME', name: `bounces.${s.domain}`, value: `return.${host}`, purpose: 'Return path: bounces come back to us' },
    {
      type: 'TXT',
      name: `_switchboard-mail.${s.domain}`,
      value: `switchboard-mail-verification=${s.verification_token}`,
      purpose: 'Proves the address is yours',
    },
  ];
  return list.map((r) => ({ ...r, ok: checked.has(`${r.type}:${r.name}`) ? checked.get(`${r.type}:${r.name}`)! : null }));
}

function senderDto(ctx: AppContext, s: TenantEmailSenderRow): EmailSender {
  return {
    email: s.email,
    domain: s.domain,
    status: s.status as EmailSender['status'],
    records: senderRecords(ctx, s),
    checkedAt: iso(s.checked_at),
    verifiedAt: iso(s.verified_at),
  };
}

/** Whether the DNS answers each record as given (CNAME: exact target; TXT: SPF include present, others exact). */
async function checkRecords(ctx: AppContext, records: DnsRecord[]): Promise<Map<string, boolean>> {
  const dns = dnsResolverOf(ctx);
  const out = new Map<string, boolean>();
  for (const r of records) {
    let ok: boolean;
    if (r.type === 'CNAME') ok = (await dns.cname(r.name)).includes(r.value.toLowerCase());
    else if (r.value.startsWith('v=spf1')) {
      const include = r.value.split(' ')[1]!;
      ok = (await dns.txt(r.name)).some((v) => v.startsWith('v=spf1') && v.split(/\s+/).includes(include));
    } else ok = (await dns.txt(r.name)).includes(r.value);
    out.set(`${r.type}:${r.name}`, ok);
  }
  return out;
}

async function tenantDto(ctx: AppContext, userId: number, businessUnitId: number | null, t: TenantRow | undefined): Promise<Tenant> {
  const canEdit = businessUnitId
    ? (await listCompanySummaries(ctx, userId)).some((c) => c.organization_id === businessUnitId && MANAGER_ROLES.includes(c.role))
    : false;
  const [domain, sender] = t ? await Promise.all([repo.domainOf(ctx.db, Number(t.id)), repo.senderOf(ctx.db, Number(t.id))]) : [undefined, undefined];
  return {
    id: t ? Number(t.id) : null,
    businessUnitId,
    canEdit,
    information: config(ctx, t, domain?.app_hostname ?? ''),
    customDomain: domain ? domainDto(ctx, domain) : null,
    emailSender: sender ? senderDto(ctx, sender) : null,
    sandboxDns: dnsResolverOf(ctx) instanceof SandboxDnsResolver,
  };
}

/** `GET /companies/{companyId}/tenant`: the company's tenant (its business unit's, else the default). @throws 403. */
export async function getCompanyTenant(ctx: AppContext, userId: number, companyId: number): Promise<{ data: Tenant }> {
  await assertCompanyAccess(ctx, userId, companyId);
  const unit = await getCompanyOrganizationId(ctx, companyId);
  return { data: await tenantDto(ctx, userId, unit, unit ? await repo.byBusinessUnit(ctx.db, unit) : undefined) };
}

/** The business unit of a company a manager changes the tenant of. @throws 403, 422 (no business unit). */
async function unitForChange(ctx: AppContext, userId: number, companyId: number): Promise<number> {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const unit = await getCompanyOrganizationId(ctx, companyId);
  if (!unit) throw fieldError('companyId', 'The company belongs to no organization; tenant settings are set per organization.');
  return unit;
}

const orNull = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());

/** `PUT /companies/{companyId}/tenant/tenant-information` ("Information updated successfully"). @throws 403, 422. */
export async function updateTenantInformation(
  ctx: AppContext,
  userId: number,
  companyId: number,
  input: TenantInformationInput,
): Promise<{ message: string; data: Tenant }> {
  const unit = await unitForChange(ctx, userId, companyId);
  const phone = orNull(input.supportPhone);
  const t = await repo.upsert(ctx.db, {
    business_unit_id: unit,
    name: input.name,
    logo_url: orNull(input.logoUrl),
    favicon_url: orNull(input.faviconUrl),
    primary_color: input.primaryColor.toLowerCase(),
    secondary_color: input.secondaryColor.toLowerCase(),
    support_email: orNull(input.supportEmail)?.toLowerCase() ?? null,
    support_phone: phone ? parsePhone(phone) : null,
    website_url: orNull(input.websiteUrl),
  });
  return { message: INFORMATION_UPDATED, data: await tenantDto(ctx, userId, unit, t) };
}

/** The tenant of a business unit, created with the default branding when it has none yet. */
async function ensureTenant(ctx: AppContext, unit: number): Promise<TenantRow> {
  return (
    (await repo.byBusinessUnit(ctx.db, unit)) ??
    (await repo.upsert(ctx.db, {
      business_unit_id: unit,
      name: DEFAULT_TENANT.name,
      primary_color: DEFAULT_TENANT.primaryColor,
      secondary_color: DEFAULT_TENANT.secondaryColor,
    }))
  );
}

/** The outcome of checking a domain name against the public-suffix list. */
export type DomainCheck = { valid: boolean; domain: string | null; tld: string | null; message: string };

/**
 * Validates a domain name for a custom domain or an e-mail sender: a host name (no scheme, path, port or IP address)
 * whose suffix is on the ICANN part of the public-suffix list and that has a registrable part (`example` of
 * `example.co.uk`). Sub-domains are allowed (`brand.example.com`).
 */
export function checkDomainName(input: string): DomainCheck {
  const name = input.trim().toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9.-]+$/.test(name) || name.includes('..') || name.length > 253)
    return { valid: false, domain: null, tld: null, message: 'Use a domain name such as example.com (letters, digits, hyphens and dots).' };
  const p = parseDomain(name, { allowPrivateDomains: false });
  if (p.isIp) return { valid: false, domain: null, tld: null, message: 'Use a domain name, not an IP address.' };
  if (!p.isIcann || !p.publicSuffix)
    return { valid: false, domain: null, tld: p.publicSuffix, message: `The top-level domain .${p.publicSuffix ?? name} is not recognised.` };
  if (!p.domain || name.split('.').some((l) => !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(l)))
    return { valid: false, domain: null, tld: p.publicSuffix, message: 'Use a domain name such as example.com, not only a top-level domain.' };
  return { valid: true, domain: name, tld: p.publicSuffix, message: 'The domain can be used.' };
}

/** `GET /custom-domain-configuration/tld-validation?domainName&businessUnitId`: validity, and whether another tenant uses it. */
export async function validateTld(ctx: AppContext, userId: number, q: { domainName: string; businessUnitId?: number }) {
  if (q.businessUnitId) await assertUnitAccess(ctx, userId, q.businessUnitId, false);
  const c = checkDomainName(q.domainName);
  let taken = false;
  if (c.valid) {
    const owner = await repo.domainOwner(ctx.db, c.domain!);
    const mine = q.businessUnitId ? await repo.byBusinessUnit(ctx.db, q.businessUnitId) : undefined;
    taken = owner !== undefined && owner !== (mine ? Number(mine.id) : -1);
  }
  return { ...c, taken, ...(taken ? { valid: false, message: 'Another organization uses this domain.' } : {}) };
}

/** `GET /custom-domain-configuration?businessUnitId`: the unit's custom domain, or null. @throws 403. */
export async function getCustomDomain(ctx: AppContext, userId: number, businessUnitId: number): Promise<{ data: CustomDomain | null }> {
  await assertUnitAccess(ctx, userId, businessUnitId, false);
  const t = await repo.byBusinessUnit(ctx.db, businessUnitId);
  const d = t ? await repo.domainOf(ctx.db, Number(t.id)) : undefined;
  return { data: d ? domainDto(ctx, d) : null };
}

/**
 * `POST /custom-domain-configuration` {domain, appSubdomain, apiSubdomain, authToken?, businessUnitId}: saves the
 * domain (pending until checked) and answers the DNS records to create. A new domain or sub-domain starts over with a
 * new verification token. @throws 403, 422 (invalid TLD, taken, same sub-domains).
 */
export async function saveCustomDomain(
  ctx: AppContext,
  userId: number,
  input: { businessUnitId: number; domain: string; appSubdomain: string; apiSubdomain: string; authToken?: string },
): Promise<{ message: string; data: CustomDomain }> {
  await assertUnitAccess(ctx, userId, input.businessUnitId, true);
  const c = checkDomainName(input.domain);
  if (!c.valid) throw fieldError('domain', c.message);
  if (input.appSubdomain === input.apiSubdomain) throw fieldError('apiSubdomain', 'The API sub-domain must differ from the app sub-domain.');
  const t = await ensureTenant(ctx, input.businessUnitId);
  const app = `${input.appSubdomain}.${c.domain}`;
  const api = `${input.apiSubdomain}.${c.domain}`;
  for (const host of [c.domain!, app, api]) {
    const owner = await repo.domainOwner(ctx.db, host);
    if (owner !== undefined && owner !== Number(t.id)) throw fieldError('domain', 'Another organization uses this domain.');
  }
  const prev = await repo.domainOf(ctx.db, Number(t.id));
  const same = prev && prev.app_hostname === app && prev.api_hostname === api;
  const token = input.authToken?.trim();
  const d = await repo.upsertDomain(ctx.db, {
    tenant_id: Number(t.id),
    domain: c.domain!,
    app_subdomain: input.appSubdomain,
    api_subdomain: input.apiSubdomain,
    app_hostname: app,
    api_hostname: api,
    verification_token: same ? prev.verification_token : randomBytes(12).toString('hex'),
    auth_token_hint: token ? token.slice(-4) : (prev?.auth_token_hint ?? null),
    status: same ? prev.status : 'pending',
    checked_at: same ? prev.checked_at : null,
    verified_at: same ? prev.verified_at : null,
  });
  return { message: CUSTOM_DOMAIN_SAVED, data: domainDto(ctx, d) };
}

/** `POST /custom-domain-configuration/check` {businessUnitId}: resolves the records; verified when all are there. @throws 403, 404. */
export async function checkCustomDomain(ctx: AppContext, userId: number, businessUnitId: number): Promise<{ message: string; data: CustomDomain }> {
  await assertUnitAccess(ctx, userId, businessUnitId, true);
  const t = await repo.byBusinessUnit(ctx.db, businessUnitId);
  const d = t ? await repo.domainOf(ctx.db, Number(t.id)) : undefined;
  if (!t || !d) throw new NotFoundError('Custom domain');
  const found = await checkRecords(ctx, domainRecords(ctx, d));
  const ok = [...found.values()].every(Boolean);
  const row = await repo.setDomainStatus(ctx.db, Number(t.id), ok ? 'verified' : 'failed', ok);
  return {
    message: ok ? 'The domain is verified.' : 'Some DNS records were not found yet; DNS changes can take up to 48 hours.',
    data: domainDto(ctx, row, found),
  };
}

/** `DELETE /custom-domain-configuration?businessUnitId`: back to the platform's own address. @throws 403. */
export async function deleteCustomDomain(ctx: AppContext, userId: number, businessUnitId: number): Promise<{ message: string }> {
  await assertUnitAccess(ctx, userId, businessUnitId, true);
  const t = await repo.byBusinessUnit(ctx.db, businessUnitId);
  if (t) await repo.deleteDomain(ctx.db, Number(t.id));
  return { message: 'Custom domain was successfully removed' };
}

/**
 * `POST /companies/{companyId}/tenant/email-sender/start-verification` {email}: the tenant's sender address; answers
 * the DNS records (SPF, DKIM, return path, ownership) to create. A new address starts over. @throws 403, 422.
 */
export async function startEmailSenderVerification(
  ctx: AppContext,
  userId: number,
  companyId: number,
  email: string,
): Promise<{ message: string; data: EmailSender }> {
  const unit = await unitForChange(ctx, userId, companyId);
  const address = email.trim().toLowerCase();
  const c = checkDomainName(address.split('@')[1] ?? '');
  if (!c.valid) throw new ValidationError({ email: [c.message] });
  const t = await ensureTenant(ctx, unit);
  const prev = await repo.senderOf(ctx.db, Number(t.id));
  if (prev && prev.email === address) return { message: VERIFICATION_STARTED, data: senderDto(ctx, prev) };
  const s = await repo.upsertSender(ctx.db, {
    tenant_id: Number(t.id),
    email: address,
    domain: c.domain!,
    dkim_selector: `sb${randomBytes(3).toString('hex')}`,
    verification_token: randomBytes(12).toString('hex'),
    status: 'pending',
  });
  return { message: VERIFICATION_STARTED, data: senderDto(ctx, s) };
}

/** `POST /companies/{companyId}/tenant/email-sender/check`: resolves the sender's records. @throws 403, 404 (none started). */
export async function checkEmailSender(ctx: AppContext, userId: number, companyId: number): Promise<{ message: string; data: EmailSender }> {
  const unit = await unitForChange(ctx, userId, companyId);
  const t = await repo.byBusinessUnit(ctx.db, unit);
  const s = t ? await repo.senderOf(ctx.db, Number(t.id)) : undefined;
  if (!t || !s) throw new NotFoundError('E-mail sender');
  const records = senderRecords(ctx, s);
  const found = await checkRecords(ctx, records);
  const ok = [...found.values()].every(Boolean);
  const row = await repo.setSenderCheck(
    ctx.db,
    Number(t.id),
    ok ? 'verified' : 'failed',
    JSON.stringify(records.map((r) => ({ name: r.name, type: r.type, ok: found.get(`${r.type}:${r.name}`) ?? false }))),
    ok,
  );
  return {
    message: ok ? 'The e-mail sender is verified.' : 'Some DNS records were not found yet; DNS changes can take up to 48 hours.',
    data: senderDto(ctx, row),
  };
}

/**
 * Sandbox only (the sandbox DNS resolver in use): publishes the records the business unit was asked to create (its
 * custom domain's and e-mail sender's), as if its owner had created them at their DNS host. @throws 403, 404 otherwise.
 */
export async function publishSandboxRecords(ctx: AppContext, userId: number, businessUnitId: number): Promise<{ message: string }> {
  const dns = dnsResolverOf(ctx);
  if (!(dns instanceof SandboxDnsResolver)) throw new NotFoundError('Sandbox DNS');
  await assertUnitAccess(ctx, userId, businessUnitId, true);
  const t = await repo.byBusinessUnit(ctx.db, businessUnitId);
  if (!t) throw new NotFoundError('Tenant');
  const [d, s] = await Promise.all([repo.domainOf(ctx.db, Number(t.id)), repo.senderOf(ctx.db, Number(t.id))]);
  for (const r of [...(d ? domainRecords(ctx, d) : []), ...(s ? senderRecords(ctx, s) : [])]) dns.publish(r.type, r.name, r.value);
  return { message: 'The records now exist in the sandbox DNS.' };
}
