/**
 * Campaign rules shared by the web editor and the server (spec 001 §3 "Campaign", §4 "Campaign",
 * §5 "Validation rules", §9): stored states and the displayed status, filter labels, merge fields,
 * defaults of a new campaign, message length and link rules, and field validation.
 */
import { DEFAULT_UNSUBSCRIBE_TEXT, MERGE_FIELD_LENGTH, MMS_MAX_LENGTH, SMS_MAX_LENGTH } from './constants.js';
import { MMS_TOO_LONG, SMS_TOO_LONG } from './messages.js';

/** Stored campaign states (spec 001 §4). */
export const CAMPAIGN_STATES = ['pending', 'draft', 'queued', 'sending', 'canceled', 'paused', 'sent', 'failed'] as const;
/** A stored campaign state. */
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

/** Displayed campaign statuses (spec 001 §4). */
export const CAMPAIGN_DISPLAY_STATUSES = ['draft', 'scheduled', 'in-progress', 'paused', 'sent', 'canceled', 'failed'] as const;
/** A displayed campaign status. */
export type CampaignDisplayStatus = (typeof CAMPAIGN_DISPLAY_STATUSES)[number];

/** Filter labels of the campaign list with their displayed-status values (spec 001 §4), in the spec's order. */
export const CAMPAIGN_FILTER_LABELS: ReadonlyArray<{ readonly label: string; readonly value: CampaignDisplayStatus }> = [
  { label: 'Draft', value: 'draft' },
  { label: 'Scheduled', value: 'scheduled' },
  { label: 'In Progress', value: 'in-progress' },
  { label: 'Paused', value: 'paused' },
  { label: 'Sent', value: 'sent' },
  { label: 'Canceled', value: 'canceled' },
  { label: 'Failed', value: 'failed' },
];

type DateInput = Date | string | number | null | undefined;

function toTime(value: DateInput): number | null {
  if (value === null || value === undefined || value === '') return null;
  const time = (value instanceof Date ? value : new Date(value)).getTime();
  return Number.isNaN(time) ? null : time;
}

/**
 * Displayed status of a campaign (spec 001 §4): pending and draft → "draft"; queued → "in-progress"
 * when the send time is now or past (or not set: sent at once), otherwise "scheduled"; sending →
 * "in-progress"; paused, sent, canceled and failed → themselves; any unknown state → "draft".
 *
 * @param state the stored state
 * @param shouldBeSentAt the send time (Date, ISO text or epoch ms), or null
 * @param now the reference moment (default: the current time)
 */
export function campaignDisplayStatus(state: string | null | undefined, shouldBeSentAt: DateInput, now: Date = new Date()): CampaignDisplayStatus {
  switch (state) {
    case 'queued': {
      const sendAt = toTime(shouldBeSentAt);
      return sendAt === null || sendAt <= now.getTime() ? 'in-progress' : 'scheduled';
    }
    case 'sending':
      return 'in-progress';
    case 'paused':
    case 'sent':
    case 'canceled':
    case 'failed':
      return state;
    default:
      return 'draft';
  }
}

/**
 * Whether the campaign list shows a delivery time (spec 001 §4 "A draft whose send time has passed
 * shows no delivery time"). No send time shows none either.
 *
 * @param state the stored state
 * @param shouldBeSentAt the send time, or null
 * @param now the reference moment (default: the current time)
 */
export function showsDeliveryTime(state: string | null | undefined, shouldBeSentAt: DateInput, now: Date = new Date()): boolean {
  const sendAt = toTime(shouldBeSentAt);
  if (sendAt === null) return false;
  return !(campaignDisplayStatus(state, shouldBeSentAt, now) === 'draft' && sendAt <= now.getTime());
}

/**
 * The state a save sends (spec 001 §4): saving a draft sends "draft"; scheduling or sending sends "queued".
 *
 * @param action "draft" to save a draft, "send" to schedule or send
 */
export function campaignStateForSave(action: 'draft' | 'send'): 'draft' | 'queued' {
  return action === 'draft' ? 'draft' : 'queued';
}

/** Contact property a merge field is filled from. */
export type MergeFieldKey = 'firstname' | 'lastname' | 'phone' | 'email';

/** A campaign merge (dynamic) field, as stored in `dynamic_fields` (spec 001 §3). */
export interface MergeField {
  /** Display name, e.g. "First Name". */
  name: string;
  /** Tag placed in the message, e.g. "%%firstname%%". */
  tag: string;
  /** Which contact value fills it. */
  key: MergeFieldKey;
  /** Maximum characters of the filled value. */
  length: number;
  enabled: boolean;
}

/** The four merge fields (spec 001 §3, §9): tags, 10 characters each, enabled by default. */
export const MERGE_FIELDS: ReadonlyArray<Readonly<MergeField>> = Object.freeze([
  Object.freeze({ name: 'First Name', tag: '%%firstname%%', key: 'firstname', length: MERGE_FIELD_LENGTH, enabled: true } as const),
  Object.freeze({ name: 'Last Name', tag: '%%lastname%%', key: 'lastname', length: MERGE_FIELD_LENGTH, enabled: true } as const),
  Object.freeze({ name: 'Phone', tag: '%%phone%%', key: 'phone', length: MERGE_FIELD_LENGTH, enabled: true } as const),
  Object.freeze({ name: 'Email', tag: '%%email%%', key: 'email', length: MERGE_FIELD_LENGTH, enabled: true } as const),
]);

/** Form values of a new campaign (server field names, spec 001 §3, §7). */
export interface CampaignDraft {
  type: 'sms';
  title: string;
  text: string;
  unsubscribe_text: string;
  skip_inbox: boolean;
  groups: number[];
  number_id: number | null;
  should_be_sent_at: string | null;
  state: 'draft';
  media: string[];
  dynamic_fields: MergeField[];
}

/**
 * Defaults of a new campaign (spec 001 §5): unsubscribe text "Reply STOP to stop", skip_inbox
 * false, the four merge fields (fresh copies), everything else empty.
 */
export function newCampaignDefaults(): CampaignDraft {
  return {
    type: 'sms',
    title: '',
    text: '',
    unsubscribe_text: DEFAULT_UNSUBSCRIBE_TEXT,
    skip_inbox: false,
    groups: [],
    number_id: null,
    should_be_sent_at: null,
    state: 'draft',
    media: [],
    dynamic_fields: MERGE_FIELDS.map((field) => ({ ...field })),
  };
}

/** Contact values merge fields read. */
export interface MergeContact {
  name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  number?: string | null;
  email?: string | null;
}

function mergeValue(key: MergeFieldKey, contact: MergeContact): string {
  const words = (contact.name ?? '').trim().split(/\s+/).filter(Boolean);
  switch (key) {
    case 'firstname':
      return (contact.first_name ?? '').trim() || (words[0] ?? '');
    case 'lastname':
      return (contact.last_name ?? '').trim() || words.slice(1).join(' ');
    case 'phone': {
      const number = (contact.number ?? '').trim();
      const nanp = /^\+1(\d{10})$/.exec(number);
      return nanp ? nanp[1]! : number;
    }
    case 'email':
      return (contact.email ?? '').trim();
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Fills merge-field tags with a contact's values (spec 001 §3). Tags match case-insensitively; each
 * value is cut to the field's length (characters). First and last name come from `first_name` /
 * `last_name`, else from the first word / the remaining words of `name`; the phone of a +1 number is
 * its 10 national digits, any other number as stored. Missing values and tags of disabled fields
 * become "".
 *
 * @param text the message with tags, e.g. "Hi %%firstname%%"
 * @param contact the recipient's values
 * @param fields the campaign's merge fields ({@link MERGE_FIELDS} unless given)
 */
export function renderMergeFields(text: string, contact: MergeContact, fields: ReadonlyArray<Readonly<MergeField>> = MERGE_FIELDS): string {
  let out = text;
  for (const field of fields) {
    const value = field.enabled ? [...mergeValue(field.key, contact)].slice(0, Math.max(0, field.length)).join('') : '';
    out = out.replace(new RegExp(escapeRegExp(field.tag), 'gi'), () => value);
  }
  return out;
}

/** Number of characters (Unicode code points, so an emoji counts once). */
function charCount(text: string): number {
  return [...text].length;
}

/**
 * The message a recipient receives: the body, a line break, then the unsubscribe text (design
 * decision; an empty unsubscribe text adds nothing).
 *
 * @param text the (rendered) body
 * @param unsubscribeText the campaign's unsubscribe text
 */
export function composeCampaignMessage(text: string, unsubscribeText: string): string {
  const unsubscribe = unsubscribeText.trim();
  return unsubscribe === '' ? text : `${text}\n${unsubscribe}`;
}

/**
 * Message length error (spec 001 §5): the body plus the unsubscribe text may be at most 1000
 * characters; with media it is an MMS (limit 1000). An empty (blank) message shows no error.
 *
 * @param text the message body
 * @param unsubscribeText the unsubscribe text
 * @param hasMedia whether media is attached (MMS)
 * @returns null, "Max 1000 characters per SMS" or "Max 1000 characters per MMS"
 */
export function messageLengthError(text: string | null | undefined, unsubscribeText: string | null | undefined, hasMedia: boolean): string | null {
  const body = text ?? '';
  if (body.trim() === '') return null;
  const length = charCount(body) + charCount(unsubscribeText ?? '');
  if (hasMedia) return length > MMS_MAX_LENGTH ? MMS_TOO_LONG : null;
  return length > SMS_MAX_LENGTH ? SMS_TOO_LONG : null;
}

const LINK_PATTERN = new RegExp(
  [
    String.raw`\b[a-z][a-z0-9+.-]*:\/\/\S+`, // any scheme://
    String.raw`\bwww\.\S+`,
    String.raw`\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.(?:com|net|org|info|biz|edu|gov|io|co|us|ca|uk|me|ly|gl|to|app|dev|link|site|online|shop|store|xyz|tv|ai|gg|page|click|top|club|live)\b(?:[/?#]\S*)?`,
  ].join('|'),
  'i',
);

/**
 * Longest text {@link containsLink} looks at (characters). The bare-domain alternative of its pattern
 * backtracks quadratically over long runs like "a-a-a-…" (5,000 characters: 40 ms; 10,000: 160 ms),
 * and a message longer than this is refused for its length anyway (SMS_MAX_LENGTH), so only the
 * first 2,000 characters are searched (docs/operations.md "Bounds on outside input").
 */
export const LINK_SCAN_LIMIT = 2000;

/**
 * Whether a message contains a link or URL (spec 001 §5): a "scheme://" address, a "www." address,
 * or a bare domain with a common top-level domain ("example.com", "bit.ly/x"). Decimal numbers and
 * abbreviations such as "e.g." are not links. Only the first {@link LINK_SCAN_LIMIT} characters are searched.
 *
 * @param text the message body
 */
export function containsLink(text: string | null | undefined): boolean {
  return typeof text === 'string' && LINK_PATTERN.test(text.length > LINK_SCAN_LIMIT ? text.slice(0, LINK_SCAN_LIMIT) : text);
}

/** Designed validation messages of the campaign editor and server (spec 001 §5). */
export const CAMPAIGN_VALIDATION_MESSAGES = {
  titleRequired: 'The title field is required.',
  textRequired: 'The message field is required.',
  unsubscribeTextRequired: 'The unsubscribe text field is required.',
  groupRequired: 'Please choose a group.',
  numberRequired: 'Please choose a number.',
  sendAtInvalid: 'The delivery time is not a valid date.',
  sendAtInPast: 'The delivery time must be in the future.',
  linksNotAllowed: 'Links are not allowed in messages for this account.',
} as const;

/** Campaign fields validated by {@link validateCampaign} (server names, spec 001 §7). */
export interface CampaignInput {
  title?: string | null;
  text?: string | null;
  unsubscribe_text?: string | null;
  groups?: ReadonlyArray<number | string> | null;
  number_id?: number | string | null;
  should_be_sent_at?: DateInput;
  /** Media URLs or files; any entry makes it an MMS. */
  media?: ReadonlyArray<unknown> | null;
}

/** Options of {@link validateCampaign}. */
export interface CampaignValidationOptions {
  /** Whether the account may send links (spec 001 §5). */
  linksEnabled: boolean;
  /** The reference moment for "in the future" (default: the current time). */
  now?: Date;
  /** Saving a draft: only the title is required (spec 001 §5). */
  draft?: boolean;
}

/** Field errors by field name; an empty object means valid. */
export type CampaignErrors = Partial<Record<'title' | 'text' | 'unsubscribe_text' | 'groups' | 'number_id' | 'should_be_sent_at', string[]>>;

const blank = (value: string | null | undefined): boolean => (value ?? '').trim() === '';

/**
 * Validates a campaign before it is sent or saved as valid (spec 001 §5): title, message and
 * unsubscribe text not empty; a group and a number chosen; the delivery time, if set, in the future;
 * the message length within the limit; no link unless links are enabled. A draft needs only a title.
 * Used by both the web editor and the server (422 field errors).
 *
 * @param input the campaign fields (server names)
 * @param options linksEnabled, now, draft
 * @returns field name → messages; `{}` when valid
 */
export function validateCampaign(input: CampaignInput, options: CampaignValidationOptions): CampaignErrors {
  const errors: CampaignErrors = {};
  const add = (field: keyof CampaignErrors, message: string): void => {
    (errors[field] ??= []).push(message);
  };
  const m = CAMPAIGN_VALIDATION_MESSAGES;

  if (blank(input.title)) add('title', m.titleRequired);
  if (options.draft) return errors;

  if (blank(input.text)) add('text', m.textRequired);
  if (blank(input.unsubscribe_text)) add('unsubscribe_text', m.unsubscribeTextRequired);
  const groups = (input.groups ?? []).filter((g) => g !== '' && g !== null && g !== undefined);
  if (groups.length === 0) add('groups', m.groupRequired);
  if (input.number_id === null || input.number_id === undefined || input.number_id === '') add('number_id', m.numberRequired);

  const sendAt = input.should_be_sent_at;
  if (sendAt !== null && sendAt !== undefined && sendAt !== '') {
    const time = toTime(sendAt);
    if (time === null) add('should_be_sent_at', m.sendAtInvalid);
    else if (time <= (options.now ?? new Date()).getTime()) add('should_be_sent_at', m.sendAtInPast);
  }

  const lengthError = messageLengthError(input.text, input.unsubscribe_text, (input.media ?? []).length > 0);
  if (lengthError) add('text', lengthError);
  if (!options.linksEnabled && containsLink(input.text)) add('text', m.linksNotAllowed);
  return errors;
}
