/**
 * Reading the rows of a contact import file (docs/contacts.md "Import"; docs/operations.md "Bounds on
 * outside input"): XLSX through exceljs and vCard through ical.js, as rows of text with the header
 * first. Pure (no database, no context), so it runs on the import parse worker
 * (contacts.parse-worker.ts): a 2 MB workbook takes seconds of CPU to read, which must never be
 * the server's main thread. CSV is read where it is used (papaparse, streamed in chunks).
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import ICAL from 'ical.js';

/** The bytes are not a readable workbook or vCard file (answered 422 on `file`). */
export class UnreadableFileError extends Error {
  constructor() {
    super('The file could not be read.');
    this.name = 'UnreadableFileError';
  }
}

/** A cell of exceljs as text (rich text, hyperlinks, formulas and dates included). */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown };
    if (o.richText) return o.richText.map((r) => r.text).join('');
    if (o.text !== undefined) return cellText(o.text);
    if (o.result !== undefined) return cellText(o.result);
    return '';
  }
  return String(v).trim();
}

/** One worksheet row's cells as text (exceljs rows are 1-based). */
export function xlsxRowValues(row: ExcelJS.Row): string[] {
  const values = row.values as unknown[]; // 1-based
  const out: string[] = [];
  for (let i = 1; i < values.length; i++) out.push(cellText(values[i]));
  return out;
}

/** The text of a vCard property value (structured values joined; `tel:` URIs of vCard 4 unwrapped). */
function vcardText(v: unknown): string {
  if (Array.isArray(v))
    return v
      .map(vcardText)
      .filter((x) => x !== '')
      .join(', ');
  if (v === null || v === undefined) return '';
  return String(v).replace(/^tel:/i, '').trim();
}

/**
 * vCard 3.0/4.0 cards (ical.js; folded lines and several cards handled) as rows with Google's newer
 * headers: Name, First Name, Last Name, Organization Name, Notes, E-mail N - Value, Phone N - Label,
 * Phone N - Value. @throws UnreadableFileError when the text is not a vCard.
 */
export function vcardRows(text: string): string[][] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    if (e instanceof ICAL.parse.ParserError) throw new UnreadableFileError();
    throw e;
  }
  const list = (Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed : [parsed]) as unknown[];
  const cards: Array<{
    fn: string;
    first: string;
    last: string;
    org: string;
    note: string;
    emails: string[];
    phones: Array<{ label: string; value: string }>;
  }> = [];
  for (const jcard of list) {
    const comp = new ICAL.Component(jcard as never);
    if (comp.name !== 'vcard') continue;
    const n = comp.getFirstPropertyValue('n') as unknown;
    const nParts = Array.isArray(n) ? n.map(vcardText) : [vcardText(n)];
    const types = (p: ICAL.Property) => {
      const t = p.getParameter('type');
      return (Array.isArray(t) ? t : t ? [t] : []).map(String);
    };
    cards.push({
      fn: vcardText(comp.getFirstPropertyValue('fn')),
      last: nParts[0] ?? '',
      first: nParts[1] ?? '',
      org: vcardText(comp.getFirstPropertyValue('org')),
      note: vcardText(comp.getFirstPropertyValue('note')),
      emails: comp
        .getAllProperties('email')
        .map((p) => vcardText(p.getFirstValue()))
        .filter((x) => x !== ''),
      phones: comp
        .getAllProperties('tel')
        .map((p) => ({
          label: types(p)
            .filter((t) => !/^(voice|pref|internet)$/i.test(t))
            .join(' '),
          value: vcardText(p.getFirstValue()),
        }))
        .filter((x) => x.value !== ''),
    });
  }
  // A loop, not Math.max(...spread): a file of 100,000+ cards would overflow the call stack.
  let maxEmails = 0;
  let maxPhones = 0;
  for (const c of cards) {
    maxEmails = Math.max(maxEmails, c.emails.length);
    maxPhones = Math.max(maxPhones, c.phones.length);
  }
  const header = ['Name', 'First Name', 'Last Name', 'Organization Name', 'Notes'];
  for (let i = 1; i <= maxEmails; i++) header.push(`E-mail ${i} - Value`);
  for (let i = 1; i <= maxPhones; i++) header.push(`Phone ${i} - Label`, `Phone ${i} - Value`);
  const rows = [header];
  for (const c of cards) {
    const row = [c.fn, c.first, c.last, c.org, c.note];
    for (let i = 0; i < maxEmails; i++) row.push(c.emails[i] ?? '');
    for (let i = 0; i < maxPhones; i++) row.push(c.phones[i]?.label ?? '', c.phones[i]?.value ?? '');
    rows.push(row);
  }
  return rows;
}

/** One batch of {@link fileRows}: rows in file order, and how many rows the file has in all (header included). */
export type RowBatch = { rows: string[][]; total: number };

/**
 * Rows (header first) of an XLSX workbook's first sheet or of a vCard file, in batches of `batch`
 * rows, at most `limit` rows in all when given. `source` is the file's bytes or its path.
 * `keepBlank`: a worksheet's rows without values are kept (as empty rows), so row numbers stay
 * those of the spreadsheet (the import job); otherwise they are skipped (the preview).
 * @throws UnreadableFileError when the bytes are not such a file.
 */
export async function* fileRows(
  source: Uint8Array | string,
  type: 'xlsx' | 'vcf',
  opts: { limit?: number; batch?: number; keepBlank?: boolean } = {},
): AsyncGenerator<RowBatch> {
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const batch = opts.batch ?? 1000;
  if (type === 'vcf') {
    const text =
      typeof source === 'string' ? fs.readFileSync(source, 'utf8') : Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString('utf8');
    const all = vcardRows(text);
    const rows = all.slice(0, limit);
    for (let i = 0; i < rows.length; i += batch) yield { rows: rows.slice(i, i + batch), total: all.length };
    return;
  }
  const wb = new ExcelJS.Workbook();
  try {
    if (typeof source === 'string') await wb.xlsx.readFile(source);
    else await wb.xlsx.load(source as unknown as ArrayBuffer);
  } catch (e) {
    // ExcelJS (and the zip reader under it) rejects bytes that are not a workbook with a plain
    // Error: the uploaded file is unreadable (422). Anything that is not an Error is not that.
    if (e instanceof Error) throw new UnreadableFileError();
    throw e;
  }
  const ws = wb.worksheets[0];
  if (!ws) return;
  const total = ws.rowCount;
  let rows: string[][] = [];
  let taken = 0;
  for (let r = 1; r <= total && taken < limit; r++) {
    const row = ws.getRow(r);
    // Without keepBlank, rows without values are skipped, as exceljs' eachRow does.
    if (!opts.keepBlank && !row.hasValues) continue;
    rows.push(xlsxRowValues(row));
    taken++;
    if (rows.length >= batch) {
      yield { rows, total };
      rows = [];
    }
  }
  if (rows.length) yield { rows, total };
}
