/**
 * The selected company's time zone: days and hours of every report are the company's (spec 002 "Dashboard": tz).
 * The one reading is lib/dates.ts `useCompanyTimeZone` (the browser's zone while the company list loads).
 */
export { useCompanyTimeZone as useCompanyTimezone } from '../../../lib/dates';
