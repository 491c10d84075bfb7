/**
 * SMS encoding and segment count of a message (docs/campaigns.md "Segments and UCS-2"), shared by the
 * campaign editor (live counter and UCS-2 warning) and the server (the segments of a campaign, the
 * SMS segments metered for billing).
 *
 * A message whose characters are all in the GSM 03.38 basic set or its extension table is sent as
 * GSM-7: 160 septets in a single segment, 153 per segment of a longer message, extension-table
 * characters (e.g. "€", "[", "{", "~") counting two. Any other character forces UCS-2: 70 UTF-16
 * code units in a single segment, 67 per part (an emoji counts two). A character (a grapheme: an
 * emoji with its modifiers, a letter with its combining accents) is never cut across two segments.
 *
 * Linear in the length of the text (docs/operations.md "Bounds on outside input"): the answers are
 * those of Twilio's `sms-segments-calculator` (tested against it), whose splitting is quadratic
 * (64,000 characters took 77 s on one thread), so it is not used at run time. Pure; no I/O.
 */
import { MERGE_FIELDS, type MergeField, composeCampaignMessage } from './campaigns.js';

/** GSM 03.38 basic character set (one septet each), as Unicode. */
const GSM_BASIC =
  '\n\r !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz' +
  '\u00a1\u00a3\u00a4\u00a5\u00a7\u00bf\u00c4\u00c5\u00c6\u00c7\u00c9\u00d1\u00d6\u00d8\u00dc\u00df\u00e0\u00e4\u00e5\u00e6' +
  '\u00e8\u00e9\u00ec\u00f1\u00f2\u00f6\u00f8\u00f9\u00fc\u0393\u0394\u0398\u039b\u039e\u03a0\u03a3\u03a6\u03a8\u03a9';
/** GSM 03.38 extension table (an escape septet plus one: two septets each). */
const GSM_EXTENSION = '\u000c[\\]^{|}~\u20ac';
/** Septets of each GSM-7 character by UTF-16 code unit; absent: not GSM-7. */
const GSM_SEPTETS: ReadonlyMap<number, number> = new Map([
  ...[...GSM_BASIC].map((c) => [c.charCodeAt(0), 1] as [number, number]),
  ...[...GSM_EXTENSION].map((c) => [c.charCodeAt(0), 2] as [number, number]),
]);

/** Bits of one SMS (140 octets); a part of a longer message gives 6 of those octets to its header. */
const SEGMENT_BITS = 1120;
const HEADER_BITS = 48;

let segmenter: Intl.Segmenter | undefined;

/**
 * The graphemes of `text` in order, with "\r\n" counted as two characters (as carriers do).
 * Below U+0300 every UTF-16 unit is its own grapheme (no combining mark, joiner or surrogate there),
 * so plain Latin text skips the segmenter.
 */
function graphemes(text: string): string[] {
  let simple = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x300) {
      simple = false;
      break;
    }
  }
  if (simple) return text.split('');
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    if (segment === '\r\n') out.push('\r', '\n');
    else out.push(segment);
  }
  return out;
}

/**
 * Segments a sequence of characters of `bits` each fills: one 1,120-bit SMS, else parts of
 * 1,072 bits (1,120 less the 48-bit header), no character split across two parts. One pass; the
 * first segment's tail moves to the second when it turns out to need a header (as the carrier does).
 */
function countSegments(bits: readonly number[]): number {
  if (bits.length === 0) return 1;
  let total = 0;
  for (const b of bits) total += b;
  if (total <= SEGMENT_BITS) return 1;
  let segments = 0;
  let free = 0;
  for (const b of bits) {
    if (segments === 0 || free < b) {
      segments++;
      free = SEGMENT_BITS - HEADER_BITS;
    }
    free -= b;
  }
  return segments;
}

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
  const chars = graphemes(text);
  const ucs2 = new Set<string>();
  for (const c of chars) if (c.length !== 1 || !GSM_SEPTETS.has(c.charCodeAt(0))) ucs2.add(c);
  const encoding: SmsEncoding = ucs2.size > 0 ? 'UCS-2' : 'GSM-7';
  // GSM-7: 7 bits per septet; UCS-2: 16 bits per UTF-16 unit (a GSM character too).
  const bits = chars.map((c) => (encoding === 'GSM-7' ? 7 * GSM_SEPTETS.get(c.charCodeAt(0))! : 16 * c.length));
  let units = 0;
  for (const b of bits) units += encoding === 'GSM-7' ? b / 7 : b / 16;
  const segments = countSegments(bits);
  const capacity = SEGMENT_CAPACITY[encoding];
  return { encoding, segments, units, perSegment: segments > 1 ? capacity.multipart : capacity.single, ucs2Characters: [...ucs2] };
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
