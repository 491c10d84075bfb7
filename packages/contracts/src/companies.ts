/**
 * Company messaging settings (docs/messaging.md, docs/quiet-hours.md: HELP reply text, campaign quiet hours configurable per
 * company, links allowed per account, the company's time zone).
 * `GET|PUT /api/companies/{companyId}/settings`.
 */
import { isValidTimeZone, timeToMinutes } from '@switchboard/domain';
import { z } from 'zod';

/** Longest HELP/INFO reply text, in characters. */
export const HELP_TEXT_MAX = 300;

/** A local 24-hour "HH:mm" time (00:00 to 23:59). */
const ClockTime = z.string().refine((v) => /^\d{2}:\d{2}$/.test(v) && (timeToMinutes(v) ?? 24 * 60) < 24 * 60, 'Use a time such as 08:00.');

/** The settings as stored and returned. Times are local "HH:mm" in the recipient's zone. */
export const CompanySettingsSchema = z.object({
  help_text: z.string(),
  quiet_hours_enabled: z.boolean(),
  quiet_hours_start: z.string(),
  quiet_hours_end: z.string(),
  links_enabled: z.boolean(),
  timezone: z.string(),
});
export type CompanySettings = z.infer<typeof CompanySettingsSchema>;

/** PUT body: every field; start and end must differ; timezone an IANA name. */
export const PutCompanySettingsInput = z
  .object({
    help_text: z.string().max(HELP_TEXT_MAX, `The help text may not be greater than ${HELP_TEXT_MAX} characters.`),
    quiet_hours_enabled: z.boolean(),
    quiet_hours_start: ClockTime,
    quiet_hours_end: ClockTime,
    links_enabled: z.boolean(),
    timezone: z.string().refine((v) => isValidTimeZone(v), 'The timezone must be a valid zone.'),
  })
  .superRefine((v, c) => {
    if (v.quiet_hours_start === v.quiet_hours_end) {
      c.addIssue({ code: 'custom', path: ['quiet_hours_end'], message: 'The quiet hours end must be different from the start.' });
    }
  });
export type PutCompanySettingsInput = z.infer<typeof PutCompanySettingsInput>;

export const CompanySettingsBody = z.object({ data: CompanySettingsSchema });
export const CompanySettingsSaved = z.object({ message: z.string(), data: CompanySettingsSchema });
