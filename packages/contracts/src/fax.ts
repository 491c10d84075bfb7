/**
 * Fax contracts (spec 001 activity kind fax and conversation item type fax; spec 002 service type
 * fax 2 and "fax export"; docs/fax.md): a fax as the API shows it, the list query, sending
 * (multipart: fields below plus the PDF `file`), the Phone simulator's fax.
 */
import { z } from 'zod';
import { Id, PageMeta, Timestamp } from './common.js';

/** Fax statuses (docs/fax.md "Statuses"): outbound queued → sending → delivered | failed; inbound receiving → received | failed. */
export const FAX_STATUSES = ['queued', 'sending', 'delivered', 'receiving', 'received', 'failed'] as const;
export type FaxStatus = (typeof FAX_STATUSES)[number];

/** Largest PDF accepted for sending or from the simulator, bytes (docs/fax.md "Limits"). */
export const FAX_MAX_BYTES = 10 * 1024 * 1024;
/** Longest cover note, characters. */
export const FAX_COVER_NOTE_MAX = 2000;

/** One fax. `file_url` is `/api/faxes/{id}/file` (the company's members only), null until a received PDF is stored. */
export const Fax = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  number: z.object({ id: z.number().int(), number: z.string(), label: z.string() }),
  direction: z.enum(['inbound', 'outbound']),
  from: z.string(),
  to: z.string(),
  status: z.enum(FAX_STATUSES),
  pages: z.number().int().nullable(),
  error: z.string().nullable(),
  cover_note: z.string().nullable(),
  file_url: z.string().nullable(),
  file_size: z.number().int().nullable(),
  conversation_id: z.number().int().nullable(),
  user_id: z.number().int().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  completed_at: Timestamp.nullable(),
});
export type Fax = z.infer<typeof Fax>;

/** `GET /api/companies/{companyId}/faxes`: newest first, page-numbered, optional direction, status and number. */
export const FaxListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  direction: z.enum(['inbound', 'outbound']).optional(),
  status: z.enum(FAX_STATUSES).optional(),
  number_id: Id.optional(),
});
export type FaxListQuery = z.infer<typeof FaxListQuery>;
export const FaxList = z.object({ data: z.array(Fax), meta: PageMeta });
export type FaxList = z.infer<typeof FaxList>;

/** Text fields of `POST /api/companies/{companyId}/faxes` (multipart, with the PDF in `file`). */
export const SendFaxFields = z.object({
  number_id: Id,
  to: z.string().trim().min(1, 'The to field is required.').max(40),
  cover_note: z.string().max(FAX_COVER_NOTE_MAX).optional(),
});
export type SendFaxFields = z.infer<typeof SendFaxFields>;

/** Text fields of `POST /api/simulator/faxes` (multipart, with the PDF in `file`): an outside fax machine sends to our number `to`. */
export const SimulateFaxFields = z.object({
  from: z.string().trim().min(1, 'The from field is required.').max(40),
  to: z.string().trim().min(1, 'The to field is required.').max(40),
});
export const SimulateFaxBody = z.object({ fax_id: z.string(), webhook_status: z.number().int() });
