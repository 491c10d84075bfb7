/**
 * zod schemas of general settings, tags, data groups, tenant settings and support tickets (spec 002 "General
 * settings", "Other: tags CRUD", "Data groups", "Organizations and tenant", "Support"; docs/workspace.md):
 * HTTP payloads and answers. Times are ISO-8601 UTC text; clock times local "HH:mm".
 */
import { DATE_DISPLAY_FORMATS, TIME_DISPLAY_FORMATS, parsePhone, timeToMinutes } from '@switchboard/domain';
import { z } from 'zod';
import { BoolFlag, Id } from './common.js';

// ---------------------------------------------------------------------------------------------------------------
// General settings

const ClockTime = z.string().refine((v) => /^\d{2}:\d{2}$/.test(v) && (timeToMinutes(v) ?? 24 * 60) < 24 * 60, 'Use a time such as 09:00.');

/** Date display formats (`MMM D, YYYY`: the specification's "MMM D", with the year only when it differs). */
export const DATE_FORMATS = DATE_DISPLAY_FORMATS;
/** Clock display formats. */
export const TIME_FORMATS = TIME_DISPLAY_FORMATS;
/** Longest caller ID name (CNAM), in characters (the carriers' limit). */
export const CALLER_ID_NAME_MAX = 15;
/** Longest recording disclosure or missed-call text, in characters. */
export const SETTINGS_TEXT_MAX = 320;

/**
 * What a company sets once (docs/workspace.md "General settings"). Weekdays are 0 (Sunday) to 6.
 */
export const GeneralSettings = z.object({
  date_format: z.enum(DATE_FORMATS),
  time_format: z.enum(TIME_FORMATS),
  business_days: z
    .array(z.number().int().min(0).max(6))
    .max(7)
    .refine((d) => new Set(d).size === d.length, 'Each day may appear once.'),
  business_hours_start: ClockTime,
  business_hours_end: ClockTime,
  record_calls: z.boolean(),
  recording_disclosure_enabled: z.boolean(),
  recording_disclosure_text: z.string().trim().max(SETTINGS_TEXT_MAX, `The disclosure may not be greater than ${SETTINGS_TEXT_MAX} characters.`),
  caller_id_name: z
    .string()
    .trim()
    .max(CALLER_ID_NAME_MAX, `The caller ID name may not be greater than ${CALLER_ID_NAME_MAX} characters.`)
    .regex(/^[A-Za-z0-9 .,&'-]*$/, "The caller ID name may contain letters, digits, spaces and . , & ' - only."),
  missed_call_text_enabled: z.boolean(),
  missed_call_text: z.string().trim().max(SETTINGS_TEXT_MAX, `The message may not be greater than ${SETTINGS_TEXT_MAX} characters.`),
  voicemail_transcription: z.boolean(),
  spam_filter_enabled: z.boolean(),
});
export type GeneralSettings = z.infer<typeof GeneralSettings>;

/** A company's settings until it saves its own (and after "restore defaults"). */
export const DEFAULT_GENERAL_SETTINGS: GeneralSettings = {
  date_format: 'MMM D, YYYY',
  time_format: '12h',
  business_days: [1, 2, 3, 4, 5],
  business_hours_start: '09:00',
  business_hours_end: '17:00',
  record_calls: false,
  recording_disclosure_enabled: false,
  recording_disclosure_text: 'This call may be recorded for quality and training purposes.',
  caller_id_name: '',
  missed_call_text_enabled: false,
  missed_call_text: 'Sorry we missed your call. How can we help?',
  voicemail_transcription: true,
  spam_filter_enabled: true,
};

function settingsRules(v: Partial<GeneralSettings>, c: z.RefinementCtx): void {
  if (v.business_hours_start !== undefined && v.business_hours_start === v.business_hours_end)
    c.addIssue({ code: 'custom', path: ['business_hours_end'], message: 'The business hours end must be different from the start.' });
  if (v.recording_disclosure_enabled && v.recording_disclosure_text !== undefined && v.recording_disclosure_text === '')
    c.addIssue({ code: 'custom', path: ['recording_disclosure_text'], message: 'The disclosure text is required when the disclosure is played.' });
  if (v.missed_call_text_enabled && v.missed_call_text !== undefined && v.missed_call_text === '')
    c.addIssue({ code: 'custom', path: ['missed_call_text'], message: 'The message is required when missed-call text back is on.' });
}

/** A company's settings as answered. */
export const GeneralSettingsEntry = z.object({
  companyId: z.number().int(),
  companyName: z.string(),
  role: z.string(),
  settings: GeneralSettings,
  /** No saved settings: every value is the default. */
  isDefault: z.boolean(),
  aiEavEnabled: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type GeneralSettingsEntry = z.infer<typeof GeneralSettingsEntry>;

export const GeneralSettingsQuery = z.object({ companyId: Id.optional(), company_id: Id.optional() });
export const GeneralSettingsBody = z.object({ data: GeneralSettingsEntry, defaults: GeneralSettings });
export const GeneralSettingsIndexQuery = z.object({ search: z.string().max(200).optional() });
export const GeneralSettingsIndex = z.object({ data: z.array(GeneralSettingsEntry), defaults: GeneralSettings });

/** `POST /general-settings`: the company's whole settings. */
export const SaveGeneralSettingsInput = z.object({ companyId: Id, settings: GeneralSettings.superRefine(settingsRules) });
export type SaveGeneralSettingsInput = z.infer<typeof SaveGeneralSettingsInput>;
/** `POST /general-settings/bulk`: the fields given are set in each company (others keep theirs). */
export const BulkGeneralSettingsInput = z.object({
  companyIds: z.array(Id).min(1, 'Choose at least one company.').max(1000),
  settings: GeneralSettings.partial()
    .superRefine(settingsRules)
    .refine((s) => Object.keys(s).length > 0, 'Choose at least one setting.'),
});
export type BulkGeneralSettingsInput = z.infer<typeof BulkGeneralSettingsInput>;
export const GeneralSettingsSaved = z.object({ message: z.string(), data: GeneralSettingsEntry });
export const GeneralSettingsBulkSaved = z.object({ message: z.string(), data: z.array(GeneralSettingsEntry) });

/** `PUT /feature/ai-eav` (spec 002 "feature/ai-eav (enable or disable)"). */
export const AiEavFeatureInput = z.object({ companyId: Id, enabled: z.boolean() });
export const AiEavFeatureBody = z.object({ message: z.string(), data: z.object({ companyId: z.number().int(), enabled: z.boolean() }) });

// ---------------------------------------------------------------------------------------------------------------
// Tags

export const TAG_NAME_MAX = 50;
/** A colour as `#rrggbb`. */
export const HexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour such as #228be6.');
/** Entities a tag links to through the tags module (calls keep their own call tags). */
export const TAGGABLE_ENTITIES = ['contact', 'number'] as const;
export type TaggableEntity = (typeof TAGGABLE_ENTITIES)[number];

export const Tag = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  color: z.string(),
  /** How many calls, contacts and numbers carry it (calls: null when the calls module did not register its counter). */
  usage: z.object({ calls: z.number().int().nullable(), contacts: z.number().int(), numbers: z.number().int() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tag = z.infer<typeof Tag>;
const TagName = z.string().trim().min(1, 'The name is required.').max(TAG_NAME_MAX, `The name may not be greater than ${TAG_NAME_MAX} characters.`);
export const TagListQuery = z.object({ companyId: Id.optional(), company_id: Id.optional(), search: z.string().max(200).optional() });
export const TagList = z.object({ data: z.array(Tag) });
export const CreateTagInput = z.object({ companyId: Id, name: TagName, color: HexColor.optional() });
export const UpdateTagInput = z.object({ name: TagName.optional(), color: HexColor.optional() });
export const TagSaved = z.object({ message: z.string(), data: Tag });
export const TagBody = z.object({ data: Tag });
/** `POST|DELETE /tags/links`: tag names on one contact or number (created when new on POST). */
export const TagLinksInput = z.object({
  companyId: Id,
  entityType: z.enum(TAGGABLE_ENTITIES),
  entityId: Id,
  tags: z.array(TagName).min(1, 'Give at least one tag.').max(50),
});
export const EntityTagsQuery = z.object({ companyId: Id, entityType: z.enum(TAGGABLE_ENTITIES), entityId: Id });
export const EntityTags = z.object({ data: z.array(z.object({ id: z.number().int(), name: z.string(), color: z.string() })) });

// ---------------------------------------------------------------------------------------------------------------
// Data groups

export const DATA_GROUP_ENTITY_TYPES = ['number', 'contact', 'user', 'tag'] as const;
export type DataGroupEntityType = (typeof DATA_GROUP_ENTITY_TYPES)[number];
export const DataGroupEntityRef = z.object({ type: z.enum(DATA_GROUP_ENTITY_TYPES), id: Id });
export const DataGroupEntity = z.object({ type: z.enum(DATA_GROUP_ENTITY_TYPES), id: z.number().int(), label: z.string() });
export const DataGroup = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  description: z.string(),
  entities: z.array(DataGroupEntity),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DataGroup = z.infer<typeof DataGroup>;
const GroupName = z.string().trim().min(1, 'The name is required.').max(100, 'The name may not be greater than 100 characters.');
export const DataGroupListQuery = z.object({ companyId: Id.optional(), company_id: Id.optional() });
export const DataGroupList = z.object({ data: z.array(DataGroup) });
export const CreateDataGroupInput = z.object({
  companyId: Id,
  name: GroupName,
  description: z.string().trim().max(500).optional(),
  entities: z.array(DataGroupEntityRef).max(1000).optional(),
});
export const UpdateDataGroupInput = z.object({ name: GroupName.optional(), description: z.string().trim().max(500).optional() });
export const DataGroupEntitiesInput = z.object({ entities: z.array(DataGroupEntityRef).min(1, 'Choose at least one entity.').max(1000) });
export const DataGroupSaved = z.object({ message: z.string(), data: DataGroup });
export const DataGroupBody = z.object({ data: DataGroup });
export const DataGroupCandidatesQuery = z.object({ companyId: Id, type: z.enum(DATA_GROUP_ENTITY_TYPES), search: z.string().max(200).optional() });
/** What can be put in a company's data groups, per type (the picker's choices). */
export const DataGroupCandidates = z.object({ data: z.array(DataGroupEntity) });

// ---------------------------------------------------------------------------------------------------------------
// Tenant (white label)

/** Branding applied before sign-in (`GET /tenant-config`). */
export const TenantConfig = z.object({
  /** null: the default tenant (no custom domain matched). */
  id: z.number().int().nullable(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  faviconUrl: z.string().nullable(),
  primaryColor: z.string(),
  secondaryColor: z.string(),
  supportEmail: z.string(),
  supportPhone: z.string().nullable(),
  websiteUrl: z.string().nullable(),
  hostname: z.string(),
});
export type TenantConfig = z.infer<typeof TenantConfig>;
export const TenantConfigQuery = z.object({ hostname: z.string().max(253).optional() });
export const TenantConfigBody = z.object({ data: TenantConfig });

export const DnsRecord = z.object({
  type: z.enum(['CNAME', 'TXT']),
  name: z.string(),
  value: z.string(),
  purpose: z.string(),
  /** null: not checked yet. */
  ok: z.boolean().nullable(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;
export const VERIFICATION_STATUSES = ['pending', 'verified', 'failed'] as const;

export const CustomDomain = z.object({
  domain: z.string(),
  appSubdomain: z.string(),
  apiSubdomain: z.string(),
  appHostname: z.string(),
  apiHostname: z.string(),
  authTokenHint: z.string().nullable(),
  status: z.enum(VERIFICATION_STATUSES),
  records: z.array(DnsRecord),
  checkedAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
});
export type CustomDomain = z.infer<typeof CustomDomain>;
export const EmailSender = z.object({
  email: z.string(),
  domain: z.string(),
  status: z.enum(VERIFICATION_STATUSES),
  records: z.array(DnsRecord),
  checkedAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
});
export type EmailSender = z.infer<typeof EmailSender>;

export const Tenant = z.object({
  id: z.number().int().nullable(),
  businessUnitId: z.number().int().nullable(),
  /** Whether the caller may change it (an owner or administrator of a company of the business unit). */
  canEdit: z.boolean(),
  information: TenantConfig,
  customDomain: CustomDomain.nullable(),
  emailSender: EmailSender.nullable(),
  /** DNS checks answer from the sandbox (records can be published from the app to try the flow). */
  sandboxDns: z.boolean(),
});
export type Tenant = z.infer<typeof Tenant>;
export const TenantBody = z.object({ data: Tenant });
export const TenantSaved = z.object({ message: z.string(), data: Tenant });

const optionalUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === '' || /^https:\/\/[^\s]+$/i.test(v) || /^\/[^\s]*$/.test(v), 'Use an https:// address.')
  .optional();
/** `PUT /companies/{companyId}/tenant/tenant-information`. Empty text clears an optional field. */
export const TenantInformationInput = z.object({
  name: z.string().trim().min(1, 'The name is required.').max(100, 'The name may not be greater than 100 characters.'),
  logoUrl: optionalUrl,
  faviconUrl: optionalUrl,
  primaryColor: HexColor,
  secondaryColor: HexColor,
  supportEmail: z.union([z.literal(''), z.string().trim().email('The support e-mail must be a valid e-mail address.')]).optional(),
  supportPhone: z
    .string()
    .trim()
    .refine((v) => v === '' || parsePhone(v) !== null, 'The support phone must be a valid phone number.')
    .optional(),
  websiteUrl: optionalUrl,
});
export type TenantInformationInput = z.infer<typeof TenantInformationInput>;

const Label = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, 'Use letters, digits and hyphens (at most 63).');
export const TldValidationQuery = z.object({ domainName: z.string().trim().min(1, 'The domain name is required.').max(253), businessUnitId: Id.optional() });
export const TldValidation = z.object({
  valid: z.boolean(),
  domain: z.string().nullable(),
  tld: z.string().nullable(),
  message: z.string(),
  /** Another tenant uses it already. */
  taken: z.boolean(),
});
export const CustomDomainQuery = z.object({ businessUnitId: Id });
export const CustomDomainInput = z.object({
  businessUnitId: Id,
  domain: z.string().trim().min(1, 'The domain is required.').max(253),
  appSubdomain: Label.default('app'),
  apiSubdomain: Label.default('api'),
  /** A DNS provider token, optional; only its last four characters are kept (docs/workspace.md). */
  authToken: z.string().max(500).optional(),
});
export const CustomDomainBody = z.object({ data: CustomDomain.nullable() });
export const CustomDomainSaved = z.object({ message: z.string(), data: CustomDomain });
export const EmailSenderInput = z.object({ email: z.string().trim().email('The e-mail must be a valid e-mail address.').max(254) });
export const EmailSenderSaved = z.object({ message: z.string(), data: EmailSender });

// ---------------------------------------------------------------------------------------------------------------
// Support

export const SUPPORT_MESSAGE_MAX = 5000;
export const SUPPORT_ATTACHMENTS_MAX = 5;
/** The text fields of `POST /contact/support-ticket/{companyId}` (multipart; files in `attachments`). */
export const SupportTicketFields = z.object({
  message: z
    .string()
    .trim()
    .min(1, 'The message is required.')
    .max(SUPPORT_MESSAGE_MAX, `The message may not be greater than ${SUPPORT_MESSAGE_MAX} characters.`),
  callback_requested: BoolFlag.optional().default(false),
  callback_number: z.string().trim().max(40).optional(),
  page_url: z.string().trim().max(2000).optional(),
});
export const SupportTicket = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  message: z.string(),
  callbackRequested: z.boolean(),
  callbackNumber: z.string().nullable(),
  pageUrl: z.string().nullable(),
  attachments: z.array(z.object({ name: z.string(), contentType: z.string(), size: z.number().int(), url: z.string() })),
  sentTo: z.string(),
  createdAt: z.string(),
});
export type SupportTicket = z.infer<typeof SupportTicket>;
export const SupportTicketSaved = z.object({ message: z.string(), data: SupportTicket });
export const SupportTicketListQuery = z.object({ companyId: Id });
export const SupportTicketList = z.object({ data: z.array(SupportTicket) });
/** The answer to a sent ticket. */
export const SUPPORT_TICKET_SENT = 'Your support request was sent. We will get back to you soon.';
export const TAG_CREATED = 'Tag was successfully created';
export const TAG_UPDATED = 'Tag was successfully updated';
export const TAG_DELETED = 'Tag was successfully deleted';
export const DATA_GROUP_CREATED = 'Data group was successfully created';
export const DATA_GROUP_UPDATED = 'Data group was successfully updated';
export const DATA_GROUP_DELETED = 'Data group was successfully deleted';
export const CUSTOM_DOMAIN_SAVED = 'Custom domain was successfully saved';
export const VERIFICATION_STARTED = 'Verification started: create the DNS records below';
