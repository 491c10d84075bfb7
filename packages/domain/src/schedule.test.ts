import { describe, it, expect } from 'vitest';
import {
  ALL_DAY,
  CLOSED,
  PRESET_TEMPLATES,
  SCHEDULE_HOURS_MESSAGES,
  SCHEDULE_PRESETS,
  TIME_CHOICES,
  WEEKDAYS,
  applyDayChoice,
  applyPreset,
  dayChoiceValue,
  defaultSchedule,
  effectiveHours,
  emptyHours,
  fromBlocks,
  isOpenAt,
  isSchedulePreset,
  minutesToTime,
  scheduleHoursErrors,
  scheduleLabel,
  timeToMinutes,
  to12h,
  to24h,
  toBlocks,
  type Schedule,
  type WeekHours,
} from './schedule.js';

const NY = 'America/New_York';

function custom(hours: Partial<WeekHours>, timezone = NY): Schedule {
  return { preset: 4, timezone, hours: { ...emptyHours(), ...hours } };
}

function everyDay(open: string, close: string, timezone = NY): Schedule {
  return { preset: 4, timezone, hours: Object.fromEntries(WEEKDAYS.map((d) => [d, { open, close }])) as WeekHours };
}

describe('schedule presets (foundation §4, spec 002 §3)', () => {
  it('labels the six presets exactly', () => {
    expect(SCHEDULE_PRESETS).toEqual({
      1: '24/7',
      2: 'Mon-Fri (9-5)',
      3: 'Sat-Sun (9-5)',
      4: 'Custom',
      5: 'Direct Voicemail',
      6: 'Business Hours',
    });
    expect([...WEEKDAYS]).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
  });

  it('recognises preset ids', () => {
    expect(isSchedulePreset(1)).toBe(true);
    expect(isSchedulePreset(6)).toBe(true);
    expect(isSchedulePreset(0)).toBe(false);
    expect(isSchedulePreset(7)).toBe(false);
    expect(isSchedulePreset('1')).toBe(false);
  });
});

describe('defaultSchedule (foundation §4)', () => {
  it('is preset 1 with every day empty in the given zone', () => {
    const schedule = defaultSchedule('America/Chicago');
    expect(schedule.preset).toBe(1);
    expect(schedule.timezone).toBe('America/Chicago');
    expect(Object.keys(schedule.hours)).toEqual([...WEEKDAYS]);
    for (const day of WEEKDAYS) expect(schedule.hours[day]).toEqual({ open: null, close: null });
  });

  it('uses UTC when no zone or an unknown zone is given', () => {
    expect(defaultSchedule().timezone).toBe('UTC');
    expect(defaultSchedule('Atlantis/Capital').timezone).toBe('UTC');
  });

  it('returns independent hours each time', () => {
    const a = defaultSchedule();
    a.hours.mon.open = '09:00';
    expect(defaultSchedule().hours.mon.open).toBeNull();
  });
});

describe('scheduleLabel (foundation §4)', () => {
  it('shows Direct Voicemail whenever the voicemail flag is set, regardless of preset', () => {
    expect(scheduleLabel({ preset: 1 }, true)).toBe('Direct Voicemail');
    expect(scheduleLabel({ preset: 6 }, true)).toBe('Direct Voicemail');
    expect(scheduleLabel(null, true)).toBe('Direct Voicemail');
  });

  it('otherwise shows the preset label when known', () => {
    expect(scheduleLabel({ preset: 1 }, false)).toBe('24/7');
    expect(scheduleLabel({ preset: 2 }, false)).toBe('Mon-Fri (9-5)');
    expect(scheduleLabel({ preset: 5 }, false)).toBe('Direct Voicemail');
    expect(scheduleLabel({ preset: 6 }, false)).toBe('Business Hours');
  });

  it('otherwise shows nothing', () => {
    expect(scheduleLabel({ preset: 9 }, false)).toBe('');
    expect(scheduleLabel({}, false)).toBe('');
    expect(scheduleLabel(undefined, false)).toBe('');
  });
});

describe('12-hour and 24-hour times (foundation §3)', () => {
  it('converts 24-hour to 12-hour lowercase am/pm', () => {
    expect(to12h('13:30')).toBe('1:30pm');
    expect(to12h('00:00')).toBe('12:00am');
    expect(to12h('00:15')).toBe('12:15am');
    expect(to12h('09:15')).toBe('9:15am');
    expect(to12h('12:00')).toBe('12:00pm');
    expect(to12h('21:15')).toBe('9:15pm');
    expect(to12h('23:45:00')).toBe('11:45pm');
    expect(to12h('24:00')).toBe('12:00am');
  });

  it('converts 12-hour to 24-hour HH:mm', () => {
    expect(to24h('1:30pm')).toBe('13:30');
    expect(to24h('12:00am')).toBe('00:00');
    expect(to24h('12:30pm')).toBe('12:30');
    expect(to24h('9:15 AM')).toBe('09:15');
    expect(to24h('11:45PM')).toBe('23:45');
    expect(to24h('07:05 p.m.')).toBe('19:05');
    expect(to24h('17:00')).toBe('17:00');
  });

  it('rejects text that is not a time', () => {
    expect(to12h('25:00')).toBeNull();
    expect(to12h('9:00')).toBeNull();
    expect(to12h('24:30')).toBeNull();
    expect(to12h(null)).toBeNull();
    expect(to24h('13:30pm')).toBeNull();
    expect(to24h('0:30am')).toBeNull();
    expect(to24h('1:75pm')).toBeNull();
    expect(to24h('noon')).toBeNull();
  });

  it('round-trips every time choice', () => {
    for (const choice of TIME_CHOICES.slice(2)) expect(to24h(choice.label)).toBe(choice.value);
  });

  it('converts between HH:mm and minutes', () => {
    expect(timeToMinutes('09:30')).toBe(570);
    expect(timeToMinutes('24:00')).toBe(1440);
    expect(timeToMinutes('23:60')).toBeNull();
    expect(minutesToTime(570)).toBe('09:30');
    expect(minutesToTime(1440)).toBe('24:00');
    expect(minutesToTime(1500)).toBe('01:00');
  });
});

describe('TIME_CHOICES (foundation §3, §9)', () => {
  it('offers Closed and All Day, then every 15 minutes from 12:00am to 11:45pm', () => {
    expect(TIME_CHOICES).toHaveLength(2 + 96);
    expect(TIME_CHOICES[0]).toEqual({ value: 'closed', label: 'Closed' });
    expect(TIME_CHOICES[1]).toEqual({ value: 'all_day', label: 'All Day' });
    expect(TIME_CHOICES[2]).toEqual({ value: '00:00', label: '12:00am' });
    expect(TIME_CHOICES[3]).toEqual({ value: '00:15', label: '12:15am' });
    expect(TIME_CHOICES).toContainEqual({ value: '21:15', label: '9:15pm' });
    expect(TIME_CHOICES.at(-1)).toEqual({ value: '23:45', label: '11:45pm' });
  });
});

describe('day choices', () => {
  it('shows Closed, All Day or the hour', () => {
    expect(dayChoiceValue(CLOSED, 'open')).toBe('closed');
    expect(dayChoiceValue(ALL_DAY, 'close')).toBe('all_day');
    expect(dayChoiceValue({ open: '09:00', close: '17:00' }, 'close')).toBe('17:00');
    expect(dayChoiceValue({ open: '09:00', close: null }, 'close')).toBe('');
  });

  it('applies Closed, All Day or an hour', () => {
    expect(applyDayChoice({ open: '09:00', close: '17:00' }, 'open', 'closed')).toEqual({ open: null, close: null });
    expect(applyDayChoice(CLOSED, 'close', 'all_day')).toEqual({ open: '00:00', close: '24:00' });
    expect(applyDayChoice({ open: '09:00', close: '17:00' }, 'close', '18:30')).toEqual({ open: '09:00', close: '18:30' });
    expect(applyDayChoice(ALL_DAY, 'open', '08:00')).toEqual({ open: '08:00', close: null });
    expect(applyDayChoice({ open: '09:00', close: '17:00' }, 'open', 'bogus')).toEqual({ open: '09:00', close: '17:00' });
  });
});

describe('applyPreset', () => {
  it('fills the fixed-hour templates', () => {
    const weekdays = applyPreset(2, NY);
    expect(weekdays.preset).toBe(2);
    expect(weekdays.timezone).toBe(NY);
    expect(weekdays.hours.mon).toEqual({ open: '09:00', close: '17:00' });
    expect(weekdays.hours.fri).toEqual({ open: '09:00', close: '17:00' });
    expect(weekdays.hours.sat).toEqual({ open: null, close: null });

    const weekends = applyPreset(3, NY);
    expect(weekends.hours.sun).toEqual({ open: '09:00', close: '17:00' });
    expect(weekends.hours.wed).toEqual({ open: null, close: null });

    const business = applyPreset(6, NY);
    expect(business.hours.tue).toEqual({ open: '08:00', close: '18:00' });
    expect(business.hours.sun).toEqual({ open: null, close: null });
  });

  it('keeps hours empty for 24/7 and Direct Voicemail', () => {
    expect(applyPreset(1, NY).hours).toEqual(emptyHours());
    expect(applyPreset(5, NY).hours).toEqual(emptyHours());
  });

  it('keeps the current hours for Custom, or starts from Mon-Fri 9-5', () => {
    const current = { ...emptyHours(), wed: { open: '10:00', close: '14:00' } };
    expect(applyPreset(4, NY, current).hours).toEqual(current);
    expect(applyPreset(4, NY).hours).toEqual(PRESET_TEMPLATES[2]);
  });

  it('does not share the template objects', () => {
    const s = applyPreset(2, NY);
    s.hours.mon.open = '07:00';
    expect(PRESET_TEMPLATES[2].mon.open).toBe('09:00');
  });
});

describe('toBlocks and fromBlocks (foundation §3: sent as 24-hour HH:mm blocks)', () => {
  it('gives one block per open day, Monday first', () => {
    const schedule = custom({ sun: { open: '10:00', close: '14:00' }, mon: { open: '09:00', close: '17:00' } });
    expect(toBlocks(schedule)).toEqual([
      { day: 'mon', start: '09:00', end: '17:00' },
      { day: 'sun', start: '10:00', end: '14:00' },
    ]);
  });

  it('skips closed and incomplete days and keeps 24:00', () => {
    const schedule = custom({ tue: { open: '09:00', close: null }, wed: ALL_DAY, thu: { open: '12:00', close: '12:00' } });
    expect(toBlocks(schedule)).toEqual([{ day: 'wed', start: '00:00', end: '24:00' }]);
  });

  it('expresses what the preset means', () => {
    expect(toBlocks(defaultSchedule(NY))).toEqual(WEEKDAYS.map((day) => ({ day, start: '00:00', end: '24:00' })));
    expect(toBlocks(applyPreset(5, NY))).toEqual([]);
    expect(toBlocks({ preset: 3, timezone: NY, hours: emptyHours() })).toEqual([
      { day: 'sat', start: '09:00', end: '17:00' },
      { day: 'sun', start: '09:00', end: '17:00' },
    ]);
  });

  it('rebuilds a custom schedule from blocks', () => {
    const schedule = custom({ mon: { open: '09:00', close: '17:00' }, fri: { open: '22:00', close: '02:00' }, sat: ALL_DAY });
    expect(fromBlocks(toBlocks(schedule), 4, NY)).toEqual(schedule);
  });

  it('ignores invalid blocks and later blocks of the same day', () => {
    const schedule = fromBlocks(
      [
        { day: 'mon', start: '09:00', end: '17:00' },
        { day: 'mon', start: '18:00', end: '20:00' },
        { day: 'tue', start: '9am', end: '17:00' },
        { day: 'xyz' as 'mon', start: '09:00', end: '17:00' },
      ],
      4,
      NY,
    );
    expect(schedule.hours.mon).toEqual({ open: '09:00', close: '17:00' });
    expect(schedule.hours.tue).toEqual({ open: null, close: null });
    expect(Object.keys(schedule.hours)).toEqual([...WEEKDAYS]);
  });

  it('round-trips the canonical presets', () => {
    for (const preset of [1, 2, 3, 5, 6] as const) {
      const schedule = applyPreset(preset, NY);
      expect(fromBlocks(toBlocks(schedule), preset, NY)).toEqual(schedule);
    }
  });
});

describe('effectiveHours', () => {
  it('ignores stored hours for presets with fixed meaning', () => {
    const stored = { ...emptyHours(), mon: { open: '01:00', close: '02:00' } };
    expect(effectiveHours({ preset: 6, timezone: NY, hours: stored }).mon).toEqual({ open: '08:00', close: '18:00' });
    expect(effectiveHours({ preset: 5, timezone: NY, hours: stored }).mon).toEqual({ open: null, close: null });
    expect(effectiveHours({ preset: 1, timezone: NY, hours: stored }).mon).toEqual({ open: '00:00', close: '24:00' });
    expect(effectiveHours({ preset: 4, timezone: NY, hours: stored }).mon).toEqual({ open: '01:00', close: '02:00' });
  });
});

describe('isOpenAt', () => {
  it('is always open for 24/7 with empty hours', () => {
    const schedule = defaultSchedule(NY);
    expect(isOpenAt(schedule, new Date('2026-05-02T03:00:00Z'))).toBe(true);
    expect(isOpenAt(schedule, new Date('2026-05-06T15:00:00Z'))).toBe(true);
  });

  it('is never open for Direct Voicemail', () => {
    const schedule: Schedule = { preset: 5, timezone: NY, hours: PRESET_TEMPLATES[6] as WeekHours };
    expect(isOpenAt(schedule, new Date('2026-05-06T15:00:00Z'))).toBe(false);
  });

  it('evaluates the Mon-Fri 9-5 preset in the schedule zone, open inclusive, close exclusive', () => {
    const schedule = applyPreset(2, NY); // EDT = UTC-4 in May
    expect(isOpenAt(schedule, new Date('2026-05-06T12:59:00Z'))).toBe(false); // Wed 08:59
    expect(isOpenAt(schedule, new Date('2026-05-06T13:00:00Z'))).toBe(true); // Wed 09:00
    expect(isOpenAt(schedule, new Date('2026-05-06T20:59:59Z'))).toBe(true); // Wed 16:59:59
    expect(isOpenAt(schedule, new Date('2026-05-06T21:00:00Z'))).toBe(false); // Wed 17:00
    expect(isOpenAt(schedule, new Date('2026-05-09T15:00:00Z'))).toBe(false); // Sat 11:00
  });

  it('uses the local weekday, not the UTC one', () => {
    const schedule = custom({ fri: { open: '20:00', close: '24:00' } });
    // Friday 21:00 in New York is already Saturday in UTC.
    expect(isOpenAt(schedule, new Date('2026-05-09T01:00:00Z'))).toBe(true);
    expect(isOpenAt(schedule, new Date('2026-05-08T01:00:00Z'))).toBe(false); // Thursday 21:00
  });

  it('treats close 24:00 as the end of the day', () => {
    const schedule = custom({ fri: { open: '20:00', close: '24:00' } });
    expect(isOpenAt(schedule, new Date('2026-05-09T03:59:00Z'))).toBe(true); // Fri 23:59
    expect(isOpenAt(schedule, new Date('2026-05-09T04:00:00Z'))).toBe(false); // Sat 00:00
  });

  it('is open all day for All Day and closed all day for Closed', () => {
    const schedule = custom({ mon: ALL_DAY, tue: CLOSED });
    expect(isOpenAt(schedule, new Date('2026-05-04T04:00:00Z'))).toBe(true); // Mon 00:00
    expect(isOpenAt(schedule, new Date('2026-05-05T03:59:00Z'))).toBe(true); // Mon 23:59
    expect(isOpenAt(schedule, new Date('2026-05-05T16:00:00Z'))).toBe(false); // Tue 12:00
  });

  it('runs an overnight day past midnight', () => {
    const schedule = custom({ fri: { open: '22:00', close: '02:00' } });
    expect(isOpenAt(schedule, new Date('2026-05-09T01:30:00Z'))).toBe(false); // Fri 21:30
    expect(isOpenAt(schedule, new Date('2026-05-09T03:00:00Z'))).toBe(true); // Fri 23:00
    expect(isOpenAt(schedule, new Date('2026-05-09T05:30:00Z'))).toBe(true); // Sat 01:30
    expect(isOpenAt(schedule, new Date('2026-05-09T06:00:00Z'))).toBe(false); // Sat 02:00
  });

  it('treats incomplete and zero-length days as closed', () => {
    const schedule = custom({ mon: { open: '09:00', close: null }, tue: { open: null, close: '17:00' }, wed: { open: '09:00', close: '09:00' } });
    expect(isOpenAt(schedule, new Date('2026-05-04T15:00:00Z'))).toBe(false);
    expect(isOpenAt(schedule, new Date('2026-05-05T15:00:00Z'))).toBe(false);
    expect(isOpenAt(schedule, new Date('2026-05-06T13:00:00Z'))).toBe(false);
  });

  it('is correct across the spring-forward change (America/New_York, 2026-03-08)', () => {
    const schedule = everyDay('09:00', '17:00');
    // Saturday 13:30Z is 08:30 EST (UTC-5): closed. Sunday 13:30Z is 09:30 EDT (UTC-4): open.
    expect(isOpenAt(schedule, new Date('2026-03-07T13:30:00Z'))).toBe(false);
    expect(isOpenAt(schedule, new Date('2026-03-08T13:30:00Z'))).toBe(true);
    expect(isOpenAt(schedule, new Date('2026-03-08T20:59:00Z'))).toBe(true); // 16:59 EDT
    expect(isOpenAt(schedule, new Date('2026-03-08T21:00:00Z'))).toBe(false); // 17:00 EDT

    const night = custom({ sun: { open: '01:00', close: '03:30' } });
    expect(isOpenAt(night, new Date('2026-03-08T06:30:00Z'))).toBe(true); // 01:30 EST
    expect(isOpenAt(night, new Date('2026-03-08T07:15:00Z'))).toBe(true); // 03:15 EDT
    expect(isOpenAt(night, new Date('2026-03-08T07:30:00Z'))).toBe(false); // 03:30 EDT
  });

  it('is correct across the fall-back change (America/New_York, 2026-11-01)', () => {
    const schedule = everyDay('09:00', '17:00');
    // Saturday 13:30Z is 09:30 EDT: open. Sunday 13:30Z is 08:30 EST: closed; 14:00Z is 09:00 EST: open.
    expect(isOpenAt(schedule, new Date('2026-10-31T13:30:00Z'))).toBe(true);
    expect(isOpenAt(schedule, new Date('2026-11-01T13:30:00Z'))).toBe(false);
    expect(isOpenAt(schedule, new Date('2026-11-01T14:00:00Z'))).toBe(true);
    expect(isOpenAt(schedule, new Date('2026-11-01T21:59:00Z'))).toBe(true); // 16:59 EST
    expect(isOpenAt(schedule, new Date('2026-11-01T22:00:00Z'))).toBe(false); // 17:00 EST

    const night = custom({ sun: { open: '01:00', close: '02:00' } });
    expect(isOpenAt(night, new Date('2026-11-01T05:30:00Z'))).toBe(true); // first 01:30 (EDT)
    expect(isOpenAt(night, new Date('2026-11-01T06:30:00Z'))).toBe(true); // second 01:30 (EST)
    expect(isOpenAt(night, new Date('2026-11-01T07:00:00Z'))).toBe(false); // 02:00 EST
  });

  it('closes on holidays, dated in the schedule zone', () => {
    const schedule = applyPreset(2, NY);
    const christmasMorning = new Date('2026-12-25T15:00:00Z'); // Friday 10:00 EST
    expect(isOpenAt(schedule, christmasMorning)).toBe(true);
    expect(isOpenAt(schedule, christmasMorning, ['2026-12-25'])).toBe(false);
    expect(isOpenAt(defaultSchedule(NY), christmasMorning, ['2026-12-25'])).toBe(false);
    // 2026-12-26T03:00Z is still 2026-12-25 in New York (22:00).
    expect(isOpenAt(defaultSchedule(NY), new Date('2026-12-26T03:00:00Z'), ['2026-12-25'])).toBe(false);
    expect(isOpenAt(defaultSchedule(NY), new Date('2026-12-26T06:00:00Z'), ['2026-12-25'])).toBe(true);
  });

  it('evaluates an unknown zone as UTC', () => {
    const schedule = everyDay('09:00', '17:00', 'Not/AZone');
    expect(isOpenAt(schedule, new Date('2026-05-06T09:30:00Z'))).toBe(true);
    expect(isOpenAt(schedule, new Date('2026-05-06T17:30:00Z'))).toBe(false);
  });
});

describe('scheduleHoursErrors (foundation §3: close after open, both sides)', () => {
  it('accepts closed days, All Day and a close after the open', () => {
    expect(scheduleHoursErrors(custom({ mon: { open: '09:00', close: '17:00' }, tue: ALL_DAY, wed: CLOSED, thu: { open: '23:45', close: '24:00' } }))).toEqual(
      {},
    );
  });

  it('refuses a close before or equal to the open, on the close field', () => {
    const errors = scheduleHoursErrors(custom({ mon: { open: '17:00', close: '09:00' }, fri: { open: '09:00', close: '09:00' } }));
    expect(errors).toEqual({
      'hours.mon.close': [SCHEDULE_HOURS_MESSAGES.closeNotAfterOpen],
      'hours.fri.close': [SCHEDULE_HOURS_MESSAGES.closeNotAfterOpen],
    });
  });

  it('refuses a day with only one hour, and unreadable or impossible times', () => {
    expect(scheduleHoursErrors(custom({ mon: { open: '09:00', close: null }, tue: { open: null, close: '17:00' } }))).toEqual({
      'hours.mon.close': [SCHEDULE_HOURS_MESSAGES.missingClose],
      'hours.tue.open': [SCHEDULE_HOURS_MESSAGES.missingOpen],
    });
    expect(scheduleHoursErrors(custom({ mon: { open: '24:00', close: '24:00' }, tue: { open: '9:00', close: '25:00' } }))).toEqual({
      'hours.mon.open': [SCHEDULE_HOURS_MESSAGES.invalidTime],
      'hours.tue.open': [SCHEDULE_HOURS_MESSAGES.invalidTime],
      'hours.tue.close': [SCHEDULE_HOURS_MESSAGES.invalidTime],
    });
  });

  it('checks only the hours that count: fixed and empty presets are not checked', () => {
    const backwards = { ...emptyHours(), mon: { open: '17:00', close: '09:00' } };
    for (const preset of [1, 2, 3, 5, 6] as const) expect(scheduleHoursErrors({ preset, hours: backwards })).toEqual({});
    expect(Object.keys(scheduleHoursErrors({ preset: 4, hours: backwards }))).toEqual(['hours.mon.close']);
    expect(scheduleHoursErrors({ preset: 4, hours: null })).toEqual({});
  });
});
