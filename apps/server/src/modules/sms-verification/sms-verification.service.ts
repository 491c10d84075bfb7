/**
 * SMS verification (10DLC registration; spec 002 §3 "Brand / SMS verification campaign", §4 states, §7 "SMS
 * verification", §8 messages; docs/sms-verification.md). A company's brand and campaigns, saved as drafts, submitted
 * to the registry port (`platform/registration`), reviewed by the `sms-verification.review` job, canceled per side,
 * with numbers added and removed. Every call checks that the campaign is the company's (404 otherwise); the route
 * declares who may call it. Registry calls are made outside any transaction.
 */
import {
  SMS_VERIFICATION_SUBMITTED,
  SMS_VERIFICATION_UPDATED,
  type SmsBrandInput,
  type SmsCampaignDto,
  type SmsCampaignInput,
  type SmsVerificationSave,
  type SmsVerificationUpdatedEvent,
} from '@switchboard/contracts';
import { formatPhone } from '@switchboard/domain';
import { events, type Emitted } from '../../platform/events/index.js';
import type { AppContext } from '../../context.js';
import { storeUploads } from '../../platform/blob/upload.js';
import type { DbOrTx } from '../../platform/db/db.js';
import type { NewRow, RowUpdate } from '../../platform/db/schema.js';
import type { StoredOptin } from '../../platform/db/schema-sms-verification.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { UploadedFile } from '../../platform/http/multipart.js';
import { RegistryRefusedError, smsRegistry, type BrandSubmission, type CampaignSubmission } from '../../platform/registration/index.js';
import { getCompanyNumber, getCompanyNumbers } from '../numbers/numbers.service.js';
import {
  brandNeedsSubmit,
  feesDueToday,
  incompleteMessage,
  sendingLimits,
  sideOfNumberType,
  sidesToSubmit,
  submitErrors,
  SMS_FEES,
  type Side,
} from './sms-verification.rules.js';
import { smsVerificationRepository as repo, type BrandRow, type CampaignNumberRow, type CampaignRow, type HistoryRow } from './sms-verification.repository.js';

/** The review job's name (idempotent: it only moves what is still pending). */
export const SMS_REVIEW_JOB = 'sms-verification.review';
/** Delay between two reviews of a pending campaign (ms); tests shorten it. Default: SMS_REGISTRY_POLL_S with Telnyx, 3 s with the sandbox. */
export const smsVerificationTuning = { pollMs: null as number | null };

/** The poll delay (ms) for this configuration. */
export function pollDelayMs(ctx: AppContext): number {
  return smsVerificationTuning.pollMs ?? (ctx.config.smsRegistry.adapter === 'sandbox' ? 3_000 : ctx.config.smsRegistry.pollS * 1000);
}

const EDITABLE_BRAND = new Set(['draft', 'unverified', 'expired']);
const ACTIVE_SIDE = new Set(['pending', 'approved']);

function iso(d: Date | null): string | null {
  return d ? d.toISOString() : null;
}

/** Sends `sms verification updated` on the company's channel (after the change committed). */
export function publishChange(ctx: AppContext, e: SmsVerificationUpdatedEvent): void {
  ctx.realtime.send(`company.${e.companyId}`, SMS_VERIFICATION_UPDATED, e);
}

/** The API shape of a campaign with its brand, numbers and history. */
async function toDtos(ctx: AppContext, rows: CampaignRow[]): Promise<SmsCampaignDto[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const brandIds = [...new Set(rows.map((r) => r.brand_id))];
  const [brands, numbers, history] = await Promise.all([repo.brands(ctx.db, brandIds), repo.numbersOf(ctx.db, ids), repo.historyOf(ctx.db, ids, brandIds)]);
  const brandById = new Map(brands.map((b) => [b.id, b]));
  const numberRows = await numberDetails(ctx, rows[0]!.company_id, numbers);
  return rows.map((c) => {
    const brand = brandById.get(c.brand_id)!;
    const mine = numbers.filter((n) => n.campaign_id === c.id);
    const sides = sidesToSubmit(
      c,
      mine.some((n) => n.side === 'toll_free'),
    );
    const fees = feesDueToday(brand, c, sides);
    return {
      id: c.id,
      company_id: c.company_id,
      brand: {
        id: brand.id,
        is_draft: brand.is_draft,
        status: brand.status,
        company_type: brand.company_type,
        legal_name: brand.legal_name,
        dba_name: brand.dba_name,
        tax_id: brand.tax_id,
        tax_id_type: brand.tax_id_type,
        alt_business_id: brand.alt_business_id,
        tax_id_country: brand.tax_id_country,
        stock_exchange: brand.stock_exchange,
        stock_symbol: brand.stock_symbol,
        vertical: brand.vertical,
        website: brand.website,
        email: brand.email,
        phone: brand.phone,
        street: brand.street,
        city: brand.city,
        state: brand.state,
        postal_code: brand.postal_code,
        country: brand.country,
        contact_first_name: brand.contact_first_name,
        contact_last_name: brand.contact_last_name,
        vetting_score: brand.vetting_score,
        status_reason: brand.status_reason,
        submitted_at: iso(brand.submitted_at),
      },
      status: { local: c.local_status, toll_free: c.toll_free_status },
      reasons: { local: c.local_reason, toll_free: c.toll_free_reason },
      is_draft: c.is_draft,
      is_submitted: c.is_submitted,
      fees: { due_today: fees.reduce((s, f) => s + f.amount_cents, 0), items: fees },
      limits: {
        local: c.local_status === 'approved' ? sendingLimits('local', brand.vetting_score, c.message_volume) : null,
        toll_free: c.toll_free_status === 'approved' ? sendingLimits('toll_free', brand.vetting_score, c.message_volume) : null,
      },
      use_case: c.use_case,
      sub_usecases: c.sub_usecases,
      description: c.description,
      message_volume: c.message_volume,
      sample_messages: c.sample_messages,
      optins: c.optins.map((o) => ({
        method: o.method,
        description: o.description,
        supporting_files: o.supporting_files.map((f) => ({ name: f.name, url: ctx.blobs.url(f.key), content_type: f.content_type })),
      })),
      opt_out_message: c.opt_out_message,
      help_message: c.help_message,
      embedded_links: c.embedded_links,
      embedded_phone: c.embedded_phone,
      age_gated: c.age_gated,
      direct_lending: c.direct_lending,
      numbers: mine.flatMap((n) => {
        const d = numberRows.get(n.number_id);
        return d ? [{ id: n.number_id, number: d, national_number: formatPhone(d), side: n.side }] : [];
      }),
      history: history
        .filter((h) => h.campaign_id === c.id || (h.campaign_id === null && h.brand_id === c.brand_id))
        .map((h: HistoryRow) => ({
          subject: h.subject,
          from_status: h.from_status,
          to_status: h.to_status,
          reason: h.reason,
          vetting_score: h.vetting_score,
          source: h.source,
          at: h.at.toISOString(),
        })),
      created_at: c.created_at.toISOString(),
      updated_at: c.updated_at.toISOString(),
    };
  });
}

/** E.164 of the campaign numbers (the numbers module's service, one statement), by number id; released numbers are absent. */
async function numberDetails(ctx: AppContext, companyId: number, numbers: CampaignNumberRow[]): Promise<Map<number, string>> {
  if (!numbers.length) return new Map();
  const rows = await getCompanyNumbers(
    ctx,
    companyId,
    numbers.map((n) => n.number_id),
  );
  return new Map(rows.map((r) => [r.id, r.number]));
}

/** The company's campaign `id`. @throws NotFoundError (404) for another company's or a missing campaign. */
async function ownCampaign(ctx: AppContext, companyId: number, id: number, db: DbOrTx = ctx.db, forUpdate = false): Promise<CampaignRow> {
  const c = await repo.campaign(db, id, forUpdate);
  if (!c || c.company_id !== companyId) throw new NotFoundError('SMS verification campaign');
  return c;
}

/** GET /companies/{companyId}/sms-verification/campaign: the company's campaigns, newest first. */
export async function listCampaigns(ctx: AppContext, companyId: number): Promise<SmsCampaignDto[]> {
  return toDtos(ctx, await repo.campaignsOfCompany(ctx.db, companyId));
}

/** GET .../campaign/{id}. @throws NotFoundError */
export async function getCampaign(ctx: AppContext, companyId: number, id: number): Promise<SmsCampaignDto> {
  return (await toDtos(ctx, [await ownCampaign(ctx, companyId, id)]))[0]!;
}

function brandPatch(input: SmsBrandInput | undefined): RowUpdate<'sms_brands'> {
  if (!input) return {};
  const p: RowUpdate<'sms_brands'> = { ...input };
  if (input.tax_id !== undefined) p.tax_id = input.tax_id.replace(/\D/g, '');
  if (input.tax_id_country !== undefined) p.tax_id_country = input.tax_id_country.toUpperCase();
  if (input.country !== undefined) p.country = input.country.toUpperCase();
  return p;
}

function campaignPatch(
  input: SmsCampaignInput | undefined,
  current: StoredOptin[],
  files: Map<number, StoredOptin['supporting_files']>,
): RowUpdate<'sms_campaigns'> {
  if (!input) return {};
  const { optins, sub_usecases, sample_messages, ...rest } = input;
  const p: RowUpdate<'sms_campaigns'> = { ...rest };
  if (sub_usecases !== undefined) p.sub_usecases = JSON.stringify([...new Set(sub_usecases)]);
  if (sample_messages !== undefined) p.sample_messages = JSON.stringify(sample_messages);
  if (optins !== undefined) {
    const methods = optins.map((o) => o.method);
    if (new Set(methods).size !== methods.length) throw new ValidationError({ 'campaign.optins': ['Each opt-in method may be chosen once.'] });
    const next: StoredOptin[] = optins.map((o, i) => {
      const before = current.find((c) => c.method === o.method)?.supporting_files ?? [];
      const kept = o.keep_files === undefined ? before : before.filter((f) => o.keep_files!.includes(f.name));
      return { method: o.method, description: o.description, supporting_files: [...kept, ...(files.get(i) ?? [])] };
    });
    p.optins = JSON.stringify(next);
  } else if (files.size) {
    throw new ValidationError({ 'campaign.optins': ['Send the opt-in methods with their supporting files.'] });
  }
  return p;
}

/** Supporting files (per opt-in index) stored in the company's private blob space (`c/{companyId}/sms-optins/`). */
async function storeOptinFiles(ctx: AppContext, companyId: number, files: Map<number, UploadedFile[]>): Promise<Map<number, StoredOptin['supporting_files']>> {
  const out = new Map<number, StoredOptin['supporting_files']>();
  for (const [i, list] of files) {
    const stored = await storeUploads(ctx.blobs, companyId, 'sms-optins', list);
    out.set(
      i,
      stored.map((s) => ({ key: s.key, name: s.name, content_type: s.contentType })),
    );
  }
  return out;
}

function assertCampaignEditable(c: CampaignRow): void {
  if (ACTIVE_SIDE.has(c.local_status ?? '') || ACTIVE_SIDE.has(c.toll_free_status ?? ''))
    throw new ConflictError('This SMS verification is pending or approved and cannot be changed: cancel it first.');
}

function assertBrandEditable(b: BrandRow, input: SmsBrandInput | undefined): void {
  if (input && Object.keys(input).length && !EDITABLE_BRAND.has(b.status))
    throw new ConflictError(`The brand is ${b.status} and cannot be changed: only a draft, unverified or expired brand can be edited.`);
}

/**
 * POST /companies/{companyId}/sms-verification/campaign: a new draft campaign. Its brand is the company's newest
 * brand (one brand per company in practice), or a new draft brand.
 */
export async function createCampaign(ctx: AppContext, companyId: number, input: SmsVerificationSave): Promise<SmsCampaignDto> {
  const row = await ctx.db.transaction().execute(async (tx) => {
    const existing = (await repo.campaignsOfCompany(tx, companyId))[0];
    let brand = existing ? await repo.brand(tx, existing.brand_id, true) : undefined;
    if (!brand) brand = await repo.insertBrand(tx, { company_id: companyId, created_at: new Date(), updated_at: new Date() } as NewRow<'sms_brands'>);
    assertBrandEditable(brand, input.brand);
    const bp = brandPatch(input.brand);
    if (Object.keys(bp).length) await repo.updateBrand(tx, brand.id, bp);
    const created = await repo.insertCampaign(tx, {
      company_id: companyId,
      brand_id: brand.id,
      sub_usecases: JSON.stringify([]),
      sample_messages: JSON.stringify([]),
      optins: JSON.stringify([]),
    } as NewRow<'sms_campaigns'>);
    const cp = campaignPatch(input.campaign, [], new Map());
    return Object.keys(cp).length ? ((await repo.updateCampaign(tx, created.id, cp)) ?? created) : created;
  });
  return (await toDtos(ctx, [row]))[0]!;
}

/**
 * POST /companies/{companyId}/sms-verification/campaign/{id}/{brandId} (multipart; spec 002 §7 "multipart update"):
 * saves the draft's brand and campaign fields and stores new supporting files per opt-in (`files` by opt-in index).
 * @throws NotFoundError (404) another company's campaign or a brand not the campaign's; ConflictError (409) while pending or approved.
 */
export async function updateCampaign(
  ctx: AppContext,
  companyId: number,
  id: number,
  brandId: number,
  input: SmsVerificationSave,
  files: Map<number, UploadedFile[]>,
): Promise<SmsCampaignDto> {
  const before = await ownCampaign(ctx, companyId, id);
  if (before.brand_id !== brandId) throw new NotFoundError('Brand');
  if (input.campaign && Object.keys(input.campaign).length) assertCampaignEditable(before);
  for (const [i] of files)
    if (!input.campaign?.optins?.[i]) throw new ValidationError({ [`campaign.optins.${i}`]: ['A supporting file needs its opt-in method.'] });
  const stored = await storeOptinFiles(ctx, companyId, files);
  const row = await ctx.db.transaction().execute(async (tx) => {
    const c = await ownCampaign(ctx, companyId, id, tx, true);
    const brand = (await repo.brand(tx, brandId, true))!;
    assertBrandEditable(brand, input.brand);
    if (input.campaign && Object.keys(input.campaign).length) assertCampaignEditable(c);
    const bp = brandPatch(input.brand);
    if (Object.keys(bp).length) await repo.updateBrand(tx, brand.id, bp);
    const cp = campaignPatch(input.campaign, c.optins, stored);
    return (await repo.updateCampaign(tx, c.id, cp)) ?? c;
  });
  return (await toDtos(ctx, [row]))[0]!;
}

/**
 * DELETE .../campaign/{id}: removes a campaign that is not pending or approved (its numbers leave it; its brand goes
 * too when no other campaign uses it and it was never submitted). @throws NotFoundError; ConflictError (409).
 */
export async function deleteCampaign(ctx: AppContext, companyId: number, id: number): Promise<void> {
  const c = await ownCampaign(ctx, companyId, id);
  assertCampaignEditable(c);
  await ctx.db.transaction().execute(async (tx) => {
    const locked = await ownCampaign(ctx, companyId, id, tx, true);
    assertCampaignEditable(locked);
    await repo.deleteCampaign(tx, id);
    const brand = await repo.brand(tx, locked.brand_id);
    if (brand && brand.status === 'draft') await repo.deleteBrandIfUnused(tx, brand.id);
  });
  for (const o of c.optins) for (const f of o.supporting_files) await ctx.blobs.delete(f.key);
}

/** The registry's view of a brand row. */
export function brandSubmission(b: BrandRow): BrandSubmission {
  return {
    brandId: b.id,
    companyId: b.company_id,
    companyType: b.company_type ?? '',
    legalName: b.legal_name,
    dbaName: b.dba_name,
    taxId: b.tax_id,
    taxIdType: b.tax_id_type,
    altBusinessId: b.alt_business_id,
    taxIdCountry: b.tax_id_country,
    stockExchange: b.stock_exchange,
    stockSymbol: b.stock_symbol,
    vertical: b.vertical ?? '',
    website: b.website,
    email: b.email,
    phone: b.phone,
    street: b.street,
    city: b.city,
    state: b.state,
    postalCode: b.postal_code,
    country: b.country,
    contactFirstName: b.contact_first_name,
    contactLastName: b.contact_last_name,
  };
}

/** The registry's view of one side of a campaign. */
export function campaignSubmission(c: CampaignRow, b: BrandRow, side: Side, numbers: string[]): CampaignSubmission {
  return {
    campaignId: c.id,
    side,
    brandRegistryId: b.registry_id,
    brand: brandSubmission(b),
    useCase: c.use_case ?? '',
    subUsecases: c.sub_usecases,
    description: c.description,
    messageVolume: c.message_volume ?? '',
    sampleMessages: c.sample_messages.filter((m) => m.trim()),
    optins: c.optins.map((o) => ({ method: o.method, description: o.description, files: o.supporting_files.length })),
    optOutMessage: c.opt_out_message,
    helpMessage: c.help_message,
    embeddedLinks: c.embedded_links,
    embeddedPhone: c.embedded_phone,
    ageGated: c.age_gated,
    directLending: c.direct_lending,
    numbers,
  };
}

/** E.164 numbers of a campaign's side. */
async function sideNumbers(ctx: AppContext, c: CampaignRow, side: Side): Promise<Array<{ id: number; number: string }>> {
  const rows = (await repo.numbersOf(ctx.db, [c.id])).filter((n) => n.side === side);
  const details = await numberDetails(ctx, c.company_id, rows);
  return rows.flatMap((n) => (details.has(n.number_id) ? [{ id: n.number_id, number: details.get(n.number_id)! }] : []));
}

/**
 * What a submit checks before anything is sent or charged: something to submit, and a complete brand and campaign
 * (field errors keyed `brand.…` / `campaign.…`, the message naming the fields by their labels).
 * @throws ValidationError (422) nothing to submit or incomplete; NotFoundError.
 */
async function readyToSubmit(ctx: AppContext, companyId: number, id: number): Promise<{ c: CampaignRow; brand: BrandRow; sides: Side[] }> {
  const c = await ownCampaign(ctx, companyId, id);
  const brand = (await repo.brand(ctx.db, c.brand_id))!;
  const numbers = await repo.numbersOf(ctx.db, [c.id]);
  const sides = sidesToSubmit(
    c,
    numbers.some((n) => n.side === 'toll_free'),
  );
  if (!sides.length) throw new ValidationError({ campaign: ['This SMS verification is already pending or approved: nothing to submit.'] });
  const errors = submitErrors(brand, c);
  if (Object.keys(errors).length) throw new ValidationError(errors, incompleteMessage(errors));
  return { c, brand, sides };
}

/**
 * POST .../campaign/{id}/check (docs/sms-verification.md "Submit"): the submit's checks alone, so the web validates
 * the saved brand and campaign before it asks to confirm the fees. Nothing is sent or charged.
 * @returns a message saying it is ready. @throws like {@link submitCampaign} before the registry is called.
 */
export async function checkSubmit(ctx: AppContext, companyId: number, id: number): Promise<{ message: string }> {
  await readyToSubmit(ctx, companyId, id);
  return { message: 'The SMS verification is complete and ready to submit.' };
}

/**
 * POST .../campaign/{id}/submit: checks the brand and campaign are complete (422 with field errors and the first
 * problem as message, shown by the web with title Error, spec 002 §8), submits the brand when it needs it and each
 * side that needs it (local always; toll-free when the campaign has toll-free numbers) to the registry, marks them
 * pending and starts the review job. @returns the spec's success message and the campaign.
 * @throws ValidationError (422) incomplete or nothing to submit, or the registry's refusal (its message); NotFoundError.
 */
export async function submitCampaign(ctx: AppContext, companyId: number, id: number): Promise<{ message: string; data: SmsCampaignDto }> {
  const { c, brand, sides } = await readyToSubmit(ctx, companyId, id);
  const registry = smsRegistry(ctx.config);
  const now = new Date();
  const fees = feesDueToday(brand, c, sides);
  let brandRegistryId = brand.registry_id;
  const submitBrand = brandNeedsSubmit(brand);
  let emitted: Emitted | undefined;
  try {
    if (submitBrand) brandRegistryId = await registry.submitBrand(brandSubmission(brand), brand.registry_id);
    const submitted: Partial<Record<Side, string>> = {};
    const brandForCampaign = { ...brand, registry_id: brandRegistryId };
    for (const side of sides) {
      const nums = side === 'toll_free' ? (await sideNumbers(ctx, c, side)).map((n) => n.number) : [];
      submitted[side] = await registry.submitCampaign(campaignSubmission(c, brandForCampaign, side, nums));
    }
    await ctx.db.transaction().execute(async (tx) => {
      if (submitBrand) {
        const from = brand.status;
        await repo.transitionBrand(tx, brand.id, [from], {
          status: 'pending',
          is_draft: false,
          registry_id: brandRegistryId,
          submitted_at: now,
          status_reason: null,
          vetting_score: null,
          registration_paid: true,
          vetting_paid: brand.vetting_paid || fees.some((f) => f.code === 'brand_vetting'),
        });
        await repo.addHistory(tx, {
          company_id: companyId,
          brand_id: brand.id,
          campaign_id: null,
          subject: 'brand',
          from_status: from,
          to_status: 'pending',
          reason: null,
          vetting_score: null,
          source: 'submit',
        });
      }
      const patch: RowUpdate<'sms_campaigns'> = { is_draft: false, is_submitted: true };
      if (sides.includes('local')) {
        Object.assign(patch, { local_status: 'pending', local_reason: null, local_registry_id: submitted.local, local_submitted_at: now });
        if (c.months_paid === 0) patch.months_paid = SMS_FEES.monthsInAdvance;
      }
      if (sides.includes('toll_free'))
        Object.assign(patch, { toll_free_status: 'pending', toll_free_reason: null, toll_free_registry_id: submitted.toll_free, toll_free_submitted_at: now });
      await repo.updateCampaign(tx, c.id, patch);
      for (const side of sides)
        await repo.addHistory(tx, {
          company_id: companyId,
          brand_id: brand.id,
          campaign_id: c.id,
          subject: side,
          from_status: side === 'local' ? c.local_status : c.toll_free_status,
          to_status: 'pending',
          reason: null,
          vetting_score: null,
          source: 'submit',
        });
      await ctx.queue.enqueue(SMS_REVIEW_JOB, { campaignId: c.id }, { startAfter: new Date(Date.now() + pollDelayMs(ctx)) }, tx);
      emitted = await events.emit(tx, 'sms-verification.submitted', {
        companyId,
        campaignId: c.id,
        submittedAt: now.toISOString(),
        fees: fees.map((f) => ({ code: f.code, label: f.label, amountCents: f.amount_cents })),
      });
    });
  } catch (e) {
    if (e instanceof RegistryRefusedError) throw new AppError(422, e.message, { campaign: [e.message] });
    throw e;
  }
  if (submitBrand) publishChange(ctx, { companyId, campaignId: c.id, brandId: brand.id, subject: 'brand', status: 'pending' });
  await events.dispatch(ctx, emitted);
  for (const side of sides) publishChange(ctx, { companyId, campaignId: c.id, brandId: brand.id, subject: side, status: 'pending' });
  return { message: SMS_VERIFICATION_SUBMITTED, data: await getCampaign(ctx, companyId, id) };
}

/**
 * POST .../campaign/{id}/cancel {sides}: marks each named side `expired` at once (spec 002 §4; the web refreshes after
 * 15 s) and deactivates it at the registry. @throws ValidationError (422) for a side never submitted or already expired.
 */
export async function cancelCampaign(ctx: AppContext, companyId: number, id: number, sides: Side[]): Promise<{ message: string; data: SmsCampaignDto }> {
  const c = await ownCampaign(ctx, companyId, id);
  const wanted = [...new Set(sides)];
  const errors: Record<string, string[]> = {};
  for (const side of wanted) {
    const status = side === 'local' ? c.local_status : c.toll_free_status;
    if (status === null || status === 'expired')
      errors.sides = [`The ${side === 'local' ? 'local' : 'toll-free'} side is ${status === null ? 'not submitted' : 'already expired'}: nothing to cancel.`];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const changed: Side[] = [];
  await ctx.db.transaction().execute(async (tx) => {
    for (const side of wanted) {
      const from = side === 'local' ? c.local_status : c.toll_free_status;
      const patch: RowUpdate<'sms_campaigns'> = side === 'local' ? { local_status: 'expired' } : { toll_free_status: 'expired' };
      const moved = await repo.transitionSide(tx, c.id, side, ['pending', 'approved', 'rejected'], patch);
      if (!moved) continue;
      changed.push(side);
      await repo.addHistory(tx, {
        company_id: companyId,
        brand_id: c.brand_id,
        campaign_id: c.id,
        subject: side,
        from_status: from,
        to_status: 'expired',
        reason: 'Canceled',
        vetting_score: null,
        source: 'cancel',
      });
    }
    const assigned = (await repo.numbersOf(tx, [c.id])).filter((n) => changed.includes(n.side) && n.registry_assigned);
    await repo.markAssigned(
      tx,
      c.id,
      assigned.map((n) => n.number_id),
      false,
    );
  });
  const registry = smsRegistry(ctx.config);
  for (const side of changed) {
    const registryId = side === 'local' ? c.local_registry_id : c.toll_free_registry_id;
    if (registryId) await registry.cancelCampaign(side, registryId);
    publishChange(ctx, { companyId, campaignId: c.id, brandId: c.brand_id, subject: side, status: 'expired' });
  }
  return { message: 'The SMS verification was canceled.', data: await getCampaign(ctx, companyId, id) };
}

/**
 * POST .../campaign/{id}/add-numbers {number_ids}: puts the company's voice-and-SMS numbers on the campaign (side by
 * number type); on an approved side they are assigned at the registry at once. A number on another campaign or a fax
 * number answers 422; another company's number 404.
 */
export async function addNumbers(ctx: AppContext, companyId: number, id: number, numberIds: number[]): Promise<{ message: string; data: SmsCampaignDto }> {
  const c = await ownCampaign(ctx, companyId, id);
  const ids = [...new Set(numberIds)];
  const rows = [];
  for (const nid of ids) rows.push(await getCompanyNumber(ctx, companyId, nid));
  const errors: string[] = [];
  for (const r of rows) if (r.service_type === 2) errors.push(`${formatPhone(r.number)} is a fax number: fax numbers do not send texts.`);
  const taken = (await repo.entriesOfNumbers(ctx.db, ids)).filter((e) => e.campaign_id !== c.id);
  for (const t of taken)
    errors.push(
      `${formatPhone(rows.find((r) => r.id === t.number_id)!.number)} is already on SMS verification campaign #${t.campaign_id}: remove it there first.`,
    );
  if (errors.length) throw new ValidationError({ number_ids: errors });
  await repo.addNumbers(
    ctx.db,
    rows.map((r) => ({ number_id: r.id, campaign_id: c.id, company_id: companyId, side: sideOfNumberType(r.type), added_at: new Date() })),
  );
  await assignApproved(ctx, c);
  return { message: 'The numbers were added.', data: await getCampaign(ctx, companyId, id) };
}

/** POST .../campaign/{id}/remove-numbers {number_ids}: takes numbers off the campaign (and off the registry). */
export async function removeNumbers(ctx: AppContext, companyId: number, id: number, numberIds: number[]): Promise<{ message: string; data: SmsCampaignDto }> {
  const c = await ownCampaign(ctx, companyId, id);
  const ids = [...new Set(numberIds)];
  const current = (await repo.numbersOf(ctx.db, [c.id])).filter((n) => ids.includes(n.number_id));
  const missing = ids.filter((n) => !current.some((r) => r.number_id === n));
  if (missing.length)
    throw new ValidationError({
      number_ids: [`Number${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not on this campaign.`],
    });
  const details = await numberDetails(ctx, companyId, current);
  const registry = smsRegistry(ctx.config);
  for (const side of ['local', 'toll_free'] as const) {
    const registryId = side === 'local' ? c.local_registry_id : c.toll_free_registry_id;
    const assigned = current
      .filter((n) => n.side === side && n.registry_assigned)
      .flatMap((n) => (details.has(n.number_id) ? [details.get(n.number_id)!] : []));
    if (registryId && assigned.length) await registry.unassignNumbers(side, registryId, assigned);
  }
  await repo.removeNumbers(ctx.db, c.id, ids);
  return { message: 'The numbers were removed.', data: await getCampaign(ctx, companyId, id) };
}

/** Assigns the unassigned numbers of the approved sides at the registry (idempotent). */
export async function assignApproved(ctx: AppContext, c: CampaignRow): Promise<void> {
  const registry = smsRegistry(ctx.config);
  const rows = await repo.numbersOf(ctx.db, [c.id]);
  for (const side of ['local', 'toll_free'] as const) {
    const status = side === 'local' ? c.local_status : c.toll_free_status;
    const registryId = side === 'local' ? c.local_registry_id : c.toll_free_registry_id;
    if (status !== 'approved' || !registryId) continue;
    const todo = rows.filter((n) => n.side === side && !n.registry_assigned);
    if (!todo.length) continue;
    const details = await numberDetails(ctx, c.company_id, todo);
    await registry.assignNumbers(side, registryId, [...details.values()]);
    await repo.markAssigned(ctx.db, c.id, [...details.keys()], true);
  }
}

/** The SMS verification status of numbers for the numbers module's view: verified (side approved), pending, or unverified. */
export async function numberStatuses(ctx: AppContext, numberIds: number[]): Promise<Map<number, 'verified' | 'pending' | 'unverified'>> {
  const out = new Map<number, 'verified' | 'pending' | 'unverified'>();
  const entries = await repo.entriesOfNumbers(ctx.db, numberIds);
  if (!entries.length) return out;
  const campaigns = new Map<number, CampaignRow>();
  for (const id of new Set(entries.map((e) => e.campaign_id))) {
    const c = await repo.campaign(ctx.db, id);
    if (c) campaigns.set(id, c);
  }
  for (const e of entries) {
    const c = campaigns.get(e.campaign_id);
    const status = c ? (e.side === 'local' ? c.local_status : c.toll_free_status) : null;
    out.set(e.number_id, status === 'approved' ? 'verified' : status === 'pending' ? 'pending' : 'unverified');
  }
  return out;
}

/**
 * The campaign sending state of several of the company's numbers at once (the campaign editor's number picker,
 * docs/sms-verification.md "Sending rules"): each number's verification (verified, pending, unverified) and whether
 * {@link campaignSendingPermit} would allow a campaign from it, with the refusal's message. Numbers of another company
 * count as unverified. `numbers`: the company's numbers (id and E.164).
 */
export async function sendingStates(
  ctx: AppContext,
  companyId: number,
  numbers: ReadonlyArray<{ id: number; number: string }>,
): Promise<Array<{ number_id: number; number: string; verification: 'verified' | 'pending' | 'unverified'; allowed: boolean; message: string | null }>> {
  const entries = (
    await repo.entriesOfNumbers(
      ctx.db,
      numbers.map((n) => n.id),
    )
  ).filter((e) => e.company_id === companyId);
  const statuses = await numberStatuses(
    ctx,
    entries.map((e) => e.number_id),
  );
  return numbers.map((n) => {
    const verification = statuses.get(n.id) ?? 'unverified';
    const allowed = verification === 'verified' || !ctx.config.smsRegistry.enforced;
    return { number_id: n.id, number: n.number, verification, allowed, message: allowed ? null : notRegisteredMessage(n.number) };
  });
}

/** The refusal of a campaign from a number without an approved registration (names the number and the screen). */
function notRegisteredMessage(e164: string): string {
  return `The number ${formatPhone(e164)} is not on an approved SMS verification campaign, so carriers block campaigns from it: register it under SMS verification (/sms-verification).`;
}

/** What the campaigns sender may do from a number (docs/sms-verification.md "Sending rules"). */
export type SendingPermit = { allowed: true; limits: { per_second: number; per_day: number | null } | null } | { allowed: false; message: string };

/**
 * Whether campaigns may be sent from the company's number `numberId` and at what rate: allowed with the approved
 * side's limits when the number is on an approved campaign; else refused (with a message naming the number and
 * the SMS verification screen) when registration is enforced (SMS_REGISTRATION_ENFORCED), allowed without limits
 * otherwise. Inbox replies never ask: person-to-person replies stay allowed.
 */
export async function campaignSendingPermit(ctx: AppContext, companyId: number, numberId: number): Promise<SendingPermit> {
  const entry = (await repo.entriesOfNumbers(ctx.db, [numberId]))[0];
  const c = entry && entry.company_id === companyId ? await repo.campaign(ctx.db, entry.campaign_id) : undefined;
  if (entry && c) {
    const status = entry.side === 'local' ? c.local_status : c.toll_free_status;
    if (status === 'approved') {
      const brand = await repo.brand(ctx.db, c.brand_id);
      return { allowed: true, limits: sendingLimits(entry.side, brand?.vetting_score ?? null, c.message_volume) };
    }
  }
  if (!ctx.config.smsRegistry.enforced) return { allowed: true, limits: null };
  const row = await getCompanyNumber(ctx, companyId, numberId);
  return {
    allowed: false,
    message: notRegisteredMessage(row.number),
  };
}
