/**
 * The Telnyx registry (docs/sms-verification.md "Telnyx"): 10DLC brands and campaigns at The Campaign Registry and
 * toll-free verification, through the official `telnyx` package (the only file importing it). Endpoints used:
 * `POST /10dlc/brand`, `GET /10dlc/brand/{id}`, `PUT /10dlc/brand/{id}` (re-submission), `POST /10dlc/campaignBuilder`,
 * `GET /10dlc/campaign/{id}`, `DELETE /10dlc/campaign/{id}` (deactivate), `POST|DELETE /10dlc/phone_number_campaigns`,
 * `POST|GET|DELETE /messaging_tollfree/verification/requests`. Status changes arrive by the signed webhooks of those
 * objects (Ed25519, TELNYX_PUBLIC_KEY, verified by the SDK) and by the module's poll job (SMS_REGISTRY_POLL_S).
 */
import Telnyx from 'telnyx';
import type { BrandReview, BrandSubmission, CampaignReview, CampaignSubmission, RegistryNotice, RegistryRef, SmsRegistry } from './registry.port.js';
import { RegistryRefusedError, RegistrySignatureError } from './registry.port.js';

/** Our monthly volume buckets (spec 002 §9) → toll-free verification's volume values. */
const TOLL_FREE_VOLUME: Record<string, string> = { '10_000': '10,000', '25_000': '100,000', '60_000': '100,000', HIGH: '250,000' };
/** Our use cases → toll-free verification's use-case categories. */
const TOLL_FREE_USE_CASE: Record<string, string> = {
  '2FA': '2FA',
  ACCOUNT_NOTIFICATION: 'Account Notifications',
  CUSTOMER_CARE: 'Conversational / Alerts',
  DELIVERY_NOTIFICATION: 'Order Notifications',
  FRAUD_ALERT: 'Fraud Alerts',
  HIGHER_EDUCATION: 'General School Updates',
  MARKETING: 'General Marketing',
  POLLING_VOTING: 'Surveys',
  PUBLIC_SERVICE_ANNOUNCEMENT: 'Public Works',
  SECURITY_ALERT: 'System Alerts',
};

/** A provider answer with an HTTP status (the SDK's APIError) is a refusal when 4xx: its message is shown as is. */
async function refusals<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof Telnyx.APIError && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      const detail = (e.error as { errors?: Array<{ detail?: string; title?: string }> } | undefined)?.errors?.[0];
      throw new RegistryRefusedError(detail?.detail ?? detail?.title ?? e.message);
    }
    throw e;
  }
}

function brandBody(b: BrandSubmission) {
  return {
    entityType: b.companyType as 'PRIVATE_PROFIT',
    displayName: b.dbaName || b.legalName,
    companyName: b.legalName,
    ein: b.taxId,
    einIssuingCountry: b.taxIdCountry,
    ...(b.taxIdType && b.altBusinessId ? { altBusinessId: b.altBusinessId, altBusinessIdType: b.taxIdType as 'DUNS' } : {}),
    ...(b.stockExchange ? { stockExchange: b.stockExchange as 'NASDAQ', stockSymbol: b.stockSymbol } : {}),
    vertical: b.vertical as 'RETAIL',
    website: b.website,
    email: b.email,
    phone: b.phone,
    street: b.street,
    city: b.city,
    state: b.state,
    postalCode: b.postalCode,
    country: b.country,
    firstName: b.contactFirstName,
    lastName: b.contactLastName,
  };
}

/** The registry through Telnyx (see the file's comment). */
export class TelnyxRegistry implements SmsRegistry {
  readonly kind = 'telnyx' as const;
  private readonly client: Telnyx;

  constructor(apiKey: string, publicKey: string) {
    this.client = new Telnyx({ apiKey, publicKey: publicKey || null });
  }

  async submitBrand(brand: BrandSubmission, previous: string | null): Promise<string> {
    return refusals(async () => {
      if (previous) {
        const updated = await this.client.messaging10dlc.brand.update(previous, brandBody(brand) as never);
        return updated.brandId ?? previous;
      }
      const created = await this.client.messaging10dlc.brand.create(brandBody(brand) as never);
      if (!created.brandId) throw new Error('Telnyx answered a brand without brandId');
      return created.brandId;
    });
  }

  async reviewBrand(ref: RegistryRef): Promise<BrandReview> {
    const b = await this.client.messaging10dlc.brand.retrieve(ref.registryId);
    const status = b.identityStatus;
    if (status === 'VERIFIED' || status === 'VETTED_VERIFIED') {
      const score = (b as { evpVettingScore?: number; vettingScore?: number }).evpVettingScore ?? (b as { vettingScore?: number }).vettingScore;
      return { status: 'verified', vettingScore: typeof score === 'number' && score > 0 ? Math.min(100, score) : 1 };
    }
    if (status === 'UNVERIFIED')
      return { status: 'unverified', reason: b.failureReasons || 'The Campaign Registry could not verify the brand: check its legal name, EIN and address.' };
    return { status: 'pending' };
  }

  async submitCampaign(c: CampaignSubmission): Promise<string> {
    return refusals(async () => {
      if (c.side === 'local') {
        if (!c.brandRegistryId) throw new RegistryRefusedError('The brand must be registered before its campaign.');
        const samples = Object.fromEntries(c.sampleMessages.slice(0, 5).map((m, i) => [`sample${i + 1}`, m]));
        const created = await this.client.messaging10dlc.campaignBuilder.submit({
          brandId: c.brandRegistryId,
          usecase: c.useCase,
          subUsecases: c.subUsecases,
          description: c.description,
          messageFlow: c.optins.map((o) => o.description).join('\n'),
          optoutMessage: c.optOutMessage,
          helpMessage: c.helpMessage,
          embeddedLink: c.embeddedLinks,
          embeddedPhone: c.embeddedPhone,
          ageGated: c.ageGated,
          directLending: c.directLending,
          subscriberOptin: true,
          subscriberOptout: true,
          subscriberHelp: true,
          referenceId: String(c.campaignId),
          ...samples,
        } as never);
        const id = (created as { campaignId?: string }).campaignId;
        if (!id) throw new Error('Telnyx answered a campaign without campaignId');
        return id;
      }
      const b = c.brand;
      const created = await this.client.messagingTollfree.verification.requests.create({
        businessName: b.legalName,
        doingBusinessAs: b.dbaName || null,
        corporateWebsite: b.website,
        businessAddr1: b.street,
        businessCity: b.city,
        businessState: b.state,
        businessZip: b.postalCode,
        businessContactFirstName: b.contactFirstName,
        businessContactLastName: b.contactLastName,
        businessContactEmail: b.email,
        businessContactPhone: b.phone,
        businessRegistrationNumber: b.taxId,
        businessRegistrationType: 'EIN',
        businessRegistrationCountry: b.taxIdCountry,
        messageVolume: TOLL_FREE_VOLUME[c.messageVolume] ?? '10,000',
        phoneNumbers: c.numbers.map((phoneNumber) => ({ phoneNumber })),
        useCase: TOLL_FREE_USE_CASE[c.useCase] ?? 'Mixed',
        useCaseSummary: c.description,
        productionMessageContent: c.sampleMessages.join('\n'),
        optInWorkflow: c.optins.map((o) => o.description).join('\n'),
        optInWorkflowImageURLs: [],
        additionalInformation: `${c.optOutMessage}\n${c.helpMessage}`.trim(),
        ageGatedContent: c.ageGated,
      } as never);
      return created.id;
    });
  }

  async reviewCampaign(ref: RegistryRef, c: CampaignSubmission): Promise<CampaignReview> {
    if (c.side === 'local') {
      const got = await this.client.messaging10dlc.campaign.retrieve(ref.registryId);
      const status = got.campaignStatus;
      if (status === 'MNO_ACCEPTED') return { status: 'approved' };
      if (status === 'TCR_FAILED' || status === 'TELNYX_FAILED' || status === 'MNO_REJECTED' || status === 'TCR_SUSPENDED')
        return { status: 'rejected', reason: got.failureReasons || `The campaign was refused (${status}): correct it and submit again.` };
      return { status: 'pending' };
    }
    const got = await this.client.messagingTollfree.verification.requests.retrieve(ref.registryId);
    if (got.verificationStatus === 'Verified') return { status: 'approved' };
    if (got.verificationStatus === 'Rejected' || got.verificationStatus === 'Waiting For Customer')
      return { status: 'rejected', reason: `Toll-free verification: ${got.reason || 'the request needs changes: correct it and submit again.'}` };
    return { status: 'pending' };
  }

  async assignNumbers(side: 'local' | 'toll_free', registryId: string, numbers: string[]): Promise<void> {
    if (side !== 'local') return; // A toll-free verification names its numbers when submitted.
    for (const phoneNumber of numbers) await refusals(() => this.client.messaging10dlc.phoneNumberCampaigns.create({ campaignId: registryId, phoneNumber }));
  }

  async unassignNumbers(side: 'local' | 'toll_free', _registryId: string, numbers: string[]): Promise<void> {
    if (side !== 'local') return;
    for (const phoneNumber of numbers) await refusals(() => this.client.messaging10dlc.phoneNumberCampaigns.delete(phoneNumber));
  }

  async cancelCampaign(side: 'local' | 'toll_free', registryId: string): Promise<void> {
    if (side === 'local') await refusals(() => this.client.messaging10dlc.campaign.deactivate(registryId));
    else await refusals(() => this.client.messagingTollfree.verification.requests.delete(registryId));
  }

  async parseWebhook(rawBody: string, headers: Record<string, string>): Promise<RegistryNotice | null> {
    let event: { data?: { id?: string; event_type?: string; payload?: Record<string, unknown> } } & Record<string, unknown>;
    try {
      event = (await this.client.webhooks.unwrap(rawBody, { headers })) as typeof event;
    } catch (e) {
      // The SDK's TelnyxWebhookVerificationError (missing or bad signature, timestamp out of its 5-minute window, no public key).
      if (e instanceof Error && e.name === 'TelnyxWebhookVerificationError') throw new RegistrySignatureError(e.message);
      throw e;
    }
    // 10DLC events carry brandId/campaignId at the top level; toll-free ones a verification request id in data.payload.
    const flat = event as { eventType?: string; brandId?: string; campaignId?: string };
    const id = event.data?.id ?? `${flat.eventType ?? 'event'}:${flat.campaignId ?? flat.brandId ?? ''}:${rawBody.length}`;
    if (flat.campaignId) return { eventId: id, registryId: flat.campaignId, subject: 'campaign' };
    if (flat.brandId) return { eventId: id, registryId: flat.brandId, subject: 'brand' };
    const payload = event.data?.payload ?? {};
    const req = (payload.verificationRequestId ?? payload.id) as string | undefined;
    return req ? { eventId: id, registryId: req, subject: 'campaign' } : null;
  }
}
