import { describe, it, expect } from 'vitest';
import { SEGMENT_CAPACITY, campaignSegments, smsSegments } from './sms-segments.js';

describe('smsSegments (GSM-7 160/153, UCS-2 70/67, extension characters count two)', () => {
  it('counts GSM-7 single and multipart messages', () => {
    expect(smsSegments('')).toMatchObject({ segments: 0, units: 0, encoding: 'GSM-7' });
    expect(smsSegments('Hello')).toEqual({ encoding: 'GSM-7', segments: 1, units: 5, perSegment: 160, ucs2Characters: [] });
    expect(smsSegments('a'.repeat(160))).toMatchObject({ segments: 1, units: 160 });
    expect(smsSegments('a'.repeat(161))).toMatchObject({ segments: 2, units: 161, perSegment: 153 });
    expect(smsSegments('a'.repeat(306))).toMatchObject({ segments: 2 });
    expect(smsSegments('a'.repeat(307))).toMatchObject({ segments: 3 });
  });

  it('counts extension-table characters twice and keeps GSM-7 for them', () => {
    expect(smsSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(smsSegments('€'.repeat(81))).toMatchObject({ encoding: 'GSM-7', segments: 2, units: 162 });
    expect(smsSegments('[a]{b}~^|\\')).toMatchObject({ encoding: 'GSM-7', units: 18, ucs2Characters: [] });
    // Accented letters of the basic set stay GSM-7.
    expect(smsSegments('é è ñ ü Ä Ö Ø å')).toMatchObject({ encoding: 'GSM-7', ucs2Characters: [] });
  });

  it('switches to UCS-2 for any other character and names each one once', () => {
    const text = 'Caf\u00e7 \u201csale\u201d \u{1F600} \u{1F600}'; // ç, curly quotes and an emoji
    const info = smsSegments(text);
    expect(info.encoding).toBe('UCS-2');
    expect(info.ucs2Characters).toEqual(['\u00e7', '\u201c', '\u201d', '\u{1F600}']);
    expect(info.perSegment).toBe(SEGMENT_CAPACITY['UCS-2'].single);
    expect(smsSegments('\u0101'.repeat(70))).toMatchObject({ segments: 1, units: 70 });
    expect(smsSegments('\u0101'.repeat(71))).toMatchObject({ segments: 2, perSegment: 67 });
    expect(smsSegments('\u0101'.repeat(134))).toMatchObject({ segments: 2 });
    expect(smsSegments('\u0101'.repeat(135))).toMatchObject({ segments: 3 });
    // An emoji is two UTF-16 code units.
    expect(smsSegments('\u{1F600}'.repeat(35))).toMatchObject({ segments: 1, units: 70 });
    expect(smsSegments('\u{1F600}'.repeat(36))).toMatchObject({ segments: 2, units: 72 });
  });

  it('one non-GSM character turns a one-segment GSM text into a three-segment UCS-2 text', () => {
    expect(smsSegments('a'.repeat(159)).segments).toBe(1);
    expect(smsSegments(`${'a'.repeat(150)}\u2019`).segments).toBe(3);
  });
});

describe('campaignSegments (body with merge fields at full length, then the unsubscribe text)', () => {
  it('adds the unsubscribe text on its own line and fills merge tags to their length', () => {
    // "Hi " + 10 + "\n" + "Reply STOP to stop" (18) = 32.
    expect(campaignSegments('Hi %%firstname%%', 'Reply STOP to stop')).toMatchObject({ units: 32, segments: 1 });
    expect(campaignSegments('', 'Reply STOP to stop').segments).toBe(0);
    expect(campaignSegments(`${'a'.repeat(141)}`, 'Reply STOP to stop').segments).toBe(1); // 141 + 1 + 18 = 160
    expect(campaignSegments(`${'a'.repeat(142)}`, 'Reply STOP to stop').segments).toBe(2);
    const disabled = [{ name: 'First Name', tag: '%%firstname%%', key: 'firstname' as const, length: 10, enabled: false }];
    expect(campaignSegments('Hi %%firstname%%', '', disabled)).toMatchObject({ units: 3 });
  });
});
