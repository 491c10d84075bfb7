/** Transcriptions are bounded before the product sees them (transcription.port.ts `boundTranscription`; docs/operations.md "Bounds on outside input"). */
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_LIMITS, boundTranscription, type TranscriptionResult } from './transcription.port.js';

const result = (segments: TranscriptionResult['segments']): TranscriptionResult => ({
  provider: 'deepgram',
  language: 'en',
  audioS: 60,
  channels: 2,
  segments,
});

describe('boundTranscription', () => {
  it('passes an ordinary transcription through untouched (same object)', () => {
    const r = result([{ channel: 0, transcript: 'Hello, I would like to book a table.', start: 0, end: 2 }]);
    expect(boundTranscription(r)).toEqual({ result: r, truncated: false });
    expect(boundTranscription(r).result).toBe(r);
  });

  it('cuts a 2 MB utterance to its limit, keeping an emoji whole', () => {
    const text = `${'é'.repeat(TRANSCRIPT_LIMITS.segmentChars - 1)}\u{1F600}${'x'.repeat(2 * 1024 * 1024)}`;
    const started = performance.now();
    const { result: r, truncated } = boundTranscription(result([{ channel: 1, transcript: text, start: 0, end: 5 }]));
    expect(performance.now() - started).toBeLessThan(500);
    expect(truncated).toBe(true);
    expect(r.segments[0]).toMatchObject({ channel: 1, start: 0, end: 5 });
    expect(r.segments[0]!.transcript).toBe(`${'é'.repeat(TRANSCRIPT_LIMITS.segmentChars - 1)}\u{1F600}`);
  });

  it('keeps at most the segment count and the total characters', () => {
    const many = Array.from({ length: TRANSCRIPT_LIMITS.segments + 500 }, (_, i) => ({ channel: 0, transcript: 'ok', start: i, end: i + 1 }));
    const a = boundTranscription(result(many));
    expect(a.truncated).toBe(true);
    expect(a.result.segments).toHaveLength(TRANSCRIPT_LIMITS.segments);
    const long = Array.from({ length: 1000 }, (_, i) => ({ channel: 0, transcript: 'y'.repeat(TRANSCRIPT_LIMITS.segmentChars), start: i, end: i + 1 }));
    const b = boundTranscription(result(long));
    expect(b.truncated).toBe(true);
    expect(b.result.segments.reduce((n, s) => n + s.transcript.length, 0)).toBeLessThanOrEqual(TRANSCRIPT_LIMITS.totalChars);
    expect(b.result.segments).toHaveLength(TRANSCRIPT_LIMITS.totalChars / TRANSCRIPT_LIMITS.segmentChars);
  });
});
