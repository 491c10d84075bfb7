import { describe, it, expect } from 'vitest';
import * as index from './index.js';
import * as constants from './constants.js';
import * as extensions from './extensions.js';
import * as labels from './labels.js';
import * as messages from './messages.js';
import * as phone from './phone.js';
import * as routing from './routing.js';
import * as schedule from './schedule.js';
import * as timezone from './timezone.js';
import * as tollFree from './toll-free.js';
import * as vanity from './vanity.js';
import * as website from './website.js';
import * as areaCodes from './area-codes.js';
import * as campaigns from './campaigns.js';
import * as contacts from './contacts.js';
import * as geo from './geo.js';
import * as optOut from './opt-out.js';
import * as quietHours from './quiet-hours.js';
import * as vanitySearch from './vanity-search.js';
import * as areaCodeZones from './area-code-zones.js';
import * as holidays from './holidays.js';
import * as quietHoursLaw from './quiet-hours-law.js';
import * as smsSegments from './sms-segments.js';
import * as contactImport from './contact-import.js';
import * as deliveryState from './delivery-state.js';
import * as permissions from './permissions.js';
import * as dateDisplay from './date-display.js';
import * as textBounds from './text-bounds.js';

const modules = {
  constants,
  extensions,
  labels,
  messages,
  phone,
  routing,
  schedule,
  timezone,
  tollFree,
  vanity,
  website,
  areaCodes,
  campaigns,
  contacts,
  geo,
  optOut,
  quietHours,
  vanitySearch,
  areaCodeZones,
  holidays,
  quietHoursLaw,
  smsSegments,
  contactImport,
  deliveryState,
  permissions,
  dateDisplay,
  textBounds,
};

describe('package entry point', () => {
  it.each(Object.entries(modules))('re-exports every runtime export of %s', (_name, mod) => {
    const missing = Object.keys(mod).filter((key) => !(key in index));
    expect(missing).toEqual([]);
    for (const key of Object.keys(mod)) expect((index as Record<string, unknown>)[key]).toBe((mod as Record<string, unknown>)[key]);
  });

  it('exports nothing that no module defines', () => {
    const defined = new Set(Object.values(modules).flatMap((mod) => Object.keys(mod)));
    expect(Object.keys(index).filter((key) => !defined.has(key))).toEqual([]);
  });
});
