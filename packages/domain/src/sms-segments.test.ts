import { describe, it, expect } from 'vitest';
import { SEGMENT_CAPACITY, campaignSegments, smsSegments } from './sms-segments.js';
import { SegmentedMessage } from 'sms-segments-calculator';

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

describe('smsSegments agrees with sms-segments-calculator and stays linear', () => {
  /** A deterministic pseudo-random generator (mulberry32), so a failure can be replayed. */
  function rng(seed: number): () => number {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const alphabets = {
    ascii: 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789.,!?\n',
    gsmExtended: 'abc def[]{}~^|\\€\f',
    latin: 'aéèñüÄÖØåçÇ ß',
    typographic: 'abc \u2019\u201c\u201d\u2026',
    emoji: ['a', ' ', '\u{1F600}', '\u{1F44D}\u{1F3FD}', '\u2764\uFE0F', 'e\u0301', '\r\n'],
  };

  it.each(Object.keys(alphabets))('gives the library’s answer for %s texts of 0 to 1,600 characters', (name) => {
    const chars = [...(alphabets as Record<string, string | string[]>)[name]!];
    const next = rng(name.length * 7919);
    for (let round = 0; round < 120; round++) {
      const length = Math.floor(next() * 1601);
      let text = '';
      for (let i = 0; i < length; i++) text += chars[Math.floor(next() * chars.length)];
      const lib = new SegmentedMessage(text, 'auto', false);
      const ours = smsSegments(text);
      if (text === '') continue;
      const encoding = lib.encodingName === 'UCS-2' ? 'UCS-2' : 'GSM-7';
      expect({ encoding: ours.encoding, segments: ours.segments, units: ours.units, ucs2: ours.ucs2Characters }, `${name} #${round} (${length})`).toEqual({
        encoding,
        segments: lib.segmentsCount,
        units: lib.messageSize / (encoding === 'GSM-7' ? 7 : 16),
        ucs2: [...new Set(lib.getNonGsmCharacters())],
      });
    }
  });

  it('agrees at the segment boundaries', () => {
    for (const unit of ['a', '€', '\u0101', '\u{1F600}', 'e\u0301']) {
      for (let n = 1; n <= 300; n++) {
        const text = unit.repeat(n);
        expect(smsSegments(text).segments, `${JSON.stringify(unit)} × ${n}`).toBe(new SegmentedMessage(text, 'auto', false).segmentsCount);
      }
    }
  });

  it('counts 2 MB of text in linear time (the library took minutes)', () => {
    const started = performance.now();
    expect(smsSegments('a'.repeat(2 * 1024 * 1024)).segments).toBe(Math.ceil((2 * 1024 * 1024) / 153));
    expect(smsSegments('\u{1F600}'.repeat(512 * 1024)).segments).toBe(Math.ceil((512 * 1024) / 33));
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
