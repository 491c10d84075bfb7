/** The activity filter in the URL (features/activity/filter-state.ts) and the body sent to GET /api/activity. */
import { describe, expect, it } from 'vitest';
import { showsProgress } from './api/get-activity';
import { activityParams, readActivityFilter, reportFilterCount, toActivityFilterBody } from './filter-state';

describe('activity filter', () => {
  it('defaults to the spec type flags: calls, voicemails, messages, faxes on, notes off', () => {
    const f = readActivityFilter(new URLSearchParams(''));
    expect(f).toMatchObject({ calls: true, voicemails: true, messages: true, faxes: true, notes: false, trackingmatch: true, dniSessionId: null });
    expect(activityParams(f)).toEqual({});
    expect(reportFilterCount(f)).toBe(0);
  });

  it('reads a visit link from the tracking screens and round-trips every filter', () => {
    const params = new URLSearchParams(
      'dniSessionId=abc-123&messages=0&notes=1&from=2026-11-01&to=2026-11-23&number_ids=4,x,7&answerStatus=missed,bogus&isFirstContact=1&trafficSource=google&minDuration=30',
    );
    const f = readActivityFilter(params);
    expect(f.dniSessionId).toBe('abc-123');
    expect(f.messages).toBe(false);
    expect(f.notes).toBe(true);
    expect(f.report).toEqual({
      from: '2026-11-01',
      to: '2026-11-23',
      number_ids: [4, 7],
      answerStatus: ['missed'],
      isFirstContact: true,
      trafficSource: ['google'],
      minDuration: 30,
    });
    expect(reportFilterCount(f)).toBe(6);
    expect(readActivityFilter(new URLSearchParams(activityParams(f)))).toEqual(f);
  });

  it('sends the flags, the visit and only the filters that are set', () => {
    const f = readActivityFilter(new URLSearchParams('dniSessionId=s1&answerStatus=voicemail&from=2026-03-01'));
    expect(toActivityFilterBody(f, 'America/New_York')).toEqual({
      calls: true,
      voicemails: true,
      messages: true,
      faxes: true,
      notes: false,
      trackingmatch: true,
      dniSessionId: 's1',
      dates: { from: '2026-03-01', to: undefined },
      timezone: 'America/New_York',
      answerStatus: ['voicemail'],
    });
  });

  it('hides the progress bar on the first page of 10 only', () => {
    expect(showsProgress(1, 10)).toBe(false);
    expect(showsProgress(2, 10)).toBe(true);
    expect(showsProgress(1, 25)).toBe(true);
    expect(showsProgress(1, 10, true)).toBe(true);
  });
});
