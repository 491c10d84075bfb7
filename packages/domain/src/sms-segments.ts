/**
 * SMS encoding and segment count of a message (docs/campaigns.md "Segments and UCS-2"), shared by the
 * campaign editor (live counter and UCS-2 warning) and the server (the segments of a campaign).
 *
 * A message whose characters are all in the GSM 03.38 basic set or its extension table is sent as
 * GSM-7: 160 septets in a single segment, 153 per segment of a longer message, extension-table
 * characters (e.g. "€", "[", "{", "~") counting two. Any other character forces UCS-2: 70 UTF-16
 * code units in a single segment, 67 per part (an emoji counts two). The splitting itself (a
 * character pair is never cut across two segments) is the well-kept `sms-segments-calculator`.
 * Pure; no I/O.
 */
import { SegmentedMessage } from 'sms-segments-calculator';
import { MERGE_FIELDS, type MergeField, composeCampaignMessage } from './campaigns.js';

/** The two SMS encodings. */
export type SmsEncoding = 'GSM-7' | 'UCS-2';

/** Per-segment capacity of each encoding: a single segment, and each part of a longer message. */
export const SEGMENT_CAPACITY: Readonly<Record<SmsEncoding, { readonly single: number; readonly multipart: number }>> = Object.freeze({
  'GSM-7': Object.freeze({ single: 160, multipart: 153 }),
  'UCS-2': Object.freeze({ single: 70, multipart: 67 }),
});

/** What sending a text costs. */
export interface SmsSegmentInfo {
  encoding: SmsEncoding;
  /** Number of SMS segments (0 for an empty message). */
  segments: number;
  /** Length in the encoding's units: GSM-7 septets (extension characters count 2) or UCS-2 code units. */
  units: number;
  /** Units one segment holds at this length (single or multipart capacity). */
  perSegment: number;
  /** The characters that force UCS-2, each once, in order of appearance (empty for GSM-7). */
  ucs2Characters: string[];
}

/**
 * Encoding, segment count and the characters forcing UCS-2 of a message.
 *
 * @param text the exact text sent (for a campaign: body, line break, unsubscribe text)
 */
export function smsSegments(text: string): SmsSegmentInfo {
  if (text === '') return { encoding: 'GSM-7', segments: 0, units: 0, perSegment: SEGMENT_CAPACITY['GSM-7'].single, ucs2Characters: [] };
  const message = new SegmentedMessage(text, 'auto', false);
  const encoding: SmsEncoding = message.encodingName === 'UCS-2' ? 'UCS-2' : 'GSM-7';
  const units = message.messageSize / (encoding === 'GSM-7' ? 7 : 16);
  const capacity = SEGMENT_CAPACITY[encoding];
  return {
    encoding,
    segments: message.segmentsCount,
    units,
    perSegment: message.segmentsCount > 1 ? capacity.multipart : capacity.single,
    ucs2Characters: [...new Set(message.getNonGsmCharacters())],
  };
}

/**
 * Segments of a campaign message as recipients will get it: the body with each enabled merge field
 * filled to its full length (the longest a recipient can get; a value with characters outside
 * GSM-7 may still switch one recipient's text to UCS-2), then the unsubscribe text
 * ({@link composeCampaignMessage}).
 *
 * @param text the body with merge tags, e.g. "Hi %%firstname%%"
 * @param unsubscribeText the campaign's unsubscribe text
 * @param fields the campaign's merge fields ({@link MERGE_FIELDS} unless given)
 */
export function campaignSegments(text: string, unsubscribeText: string, fields: ReadonlyArray<Readonly<MergeField>> = MERGE_FIELDS): SmsSegmentInfo {
  if (text.trim() === '') return smsSegments('');
  let body = text;
  for (const field of fields) {
    const filler = field.enabled ? 'x'.repeat(Math.max(0, field.length)) : '';
    body = body.replace(new RegExp(field.tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), () => filler);
  }
  return smsSegments(composeCampaignMessage(body, unsubscribeText));
}
