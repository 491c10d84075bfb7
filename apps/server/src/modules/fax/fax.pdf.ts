/**
 * PDFs of faxes (docs/fax.md "Sending"): checking an upload (type, size, readable by pdf-lib),
 * counting pages, and the cover page (pdfkit, US Letter) merged in front of the document (pdf-lib).
 */
import { FAX_MAX_BYTES } from '@switchboard/contracts';
import {
  DEFAULT_DATE_DISPLAY,
  displayCalendarDay,
  displayClock,
  formatPhone,
  resolveTimeZone,
  zonedDateTime,
  type DateDisplayFormat,
  type TimeDisplayFormat,
} from '@switchboard/domain';
import PDFKit from 'pdfkit';
import { PDFDocument } from 'pdf-lib';
import { fieldError } from '../../platform/http/errors.js';

/**
 * What a cover page shows. `pages` counts the cover page too; `at` is printed in `timeZone` (the company's) with the
 * company's General settings date and clock formats (`@switchboard/domain` date-display, as on its screens).
 */
export type CoverPage = {
  from: string;
  to: string;
  fromLabel: string;
  company: string;
  pages: number;
  note: string;
  at: Date;
  timeZone: string;
  dateFormat?: DateDisplayFormat;
  timeFormat?: TimeDisplayFormat;
};

/** "Nov 28, 2026, 4:59 PM (America/New_York)": the sending time on paper, always with the year and the zone. */
export function coverPageTime(c: Pick<CoverPage, 'at' | 'timeZone' | 'dateFormat' | 'timeFormat'>): string {
  const zone = resolveTimeZone(c.timeZone);
  const z = zonedDateTime(c.at, zone);
  const dateFormat = c.dateFormat ?? DEFAULT_DATE_DISPLAY.dateFormat;
  // A year no date has: the month-name format then carries the year too (a sheet of paper outlives "this year").
  const date = displayCalendarDay(z.year, z.month, z.day, dateFormat, 0);
  const time = displayClock(z.hour, z.minute, c.timeFormat ?? DEFAULT_DATE_DISPLAY.timeFormat);
  return `${date}${dateFormat === 'MMM D, YYYY' ? ', ' : ' '}${time} (${zone})`;
}

/**
 * Loads an uploaded PDF. @param field the form field named in errors.
 * @returns the document and its page count (≥ 1).
 * @throws ValidationError 422 on `field` when the file is not a PDF (type or content), is larger than FAX_MAX_BYTES, has no page or is encrypted.
 */
export async function readUploadedPdf(file: { mimetype: string; data: Buffer } | undefined, field = 'file'): Promise<{ doc: PDFDocument; pages: number }> {
  if (!file) throw fieldError(field, 'The file field is required.');
  if (file.data.length > FAX_MAX_BYTES) throw fieldError(field, `The file may not be greater than ${FAX_MAX_BYTES / 1024 / 1024} MB.`);
  const typeOk = file.mimetype === 'application/pdf' || file.mimetype === 'application/x-pdf' || file.mimetype === 'application/octet-stream';
  if (!typeOk || file.data.subarray(0, 5).toString('latin1') !== '%PDF-') throw fieldError(field, 'The file must be a PDF.');
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(file.data);
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    const encrypted = /encrypt/i.test(error.message);
    throw fieldError(field, encrypted ? 'The PDF is password-protected.' : 'The file is not a readable PDF.');
  }
  const pages = doc.getPageCount();
  if (pages === 0) throw fieldError(field, 'The PDF has no page.');
  return { doc, pages };
}

/** Pages of a PDF, or null when the bytes are no readable PDF. */
export async function countPages(data: Uint8Array): Promise<number | null> {
  try {
    return (await PDFDocument.load(data, { ignoreEncryption: true })).getPageCount();
  } catch (error) {
    if (error instanceof Error) return null;
    throw error;
  }
}

/** A one-page cover sheet (US Letter) as PDF bytes. */
export async function coverPagePdf(c: CoverPage): Promise<Buffer> {
  const doc = new PDFKit({ size: 'LETTER', margin: 72, info: { Title: 'Fax cover page', Creator: 'Switchboard' } });
  const chunks: Buffer[] = [];
  doc.on('data', (b: Buffer) => chunks.push(b));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const when = coverPageTime(c);
  doc.font('Helvetica-Bold').fontSize(40).text('FAX', { align: 'left' });
  doc.moveDown(0.5);
  doc.moveTo(72, doc.y).lineTo(540, doc.y).lineWidth(2).stroke();
  doc.moveDown(1);
  const row = (label: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(13).text(`${label}  `, { continued: true });
    doc.font('Helvetica').text(value);
    doc.moveDown(0.3);
  };
  row('To:', formatPhone(c.to));
  row('From:', `${c.company}${c.fromLabel ? ` (${c.fromLabel})` : ''}, ${formatPhone(c.from)}`);
  row('Date:', when);
  row('Pages:', `${c.pages} (including this cover page)`);
  doc.moveDown(1);
  doc.moveTo(72, doc.y).lineTo(540, doc.y).lineWidth(1).stroke();
  doc.moveDown(1);
  doc.font('Helvetica').fontSize(12).text(c.note, { align: 'left' });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** `cover` (its pages) followed by every page of `doc`, as PDF bytes. */
export async function prependCover(cover: Buffer, doc: PDFDocument): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  const coverDoc = await PDFDocument.load(cover);
  for (const p of await out.copyPages(coverDoc, coverDoc.getPageIndices())) out.addPage(p);
  for (const p of await out.copyPages(doc, doc.getPageIndices())) out.addPage(p);
  return out.save();
}
