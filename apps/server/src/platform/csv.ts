/**
 * The one way the server writes CSV (contact exports, number exports, import reports), with
 * spreadsheet formula injection neutralised as OWASP's "CSV Injection" guidance says: a cell
 * whose text starts with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading
 * single quote, so Excel, LibreOffice and Google Sheets show it as text instead of running it.
 *
 * One exception, documented in docs/contacts.md "Exports and formulas": a cell that is only an
 * optional sign and digits (an E.164 phone number such as `+15551234567`, a negative count) is
 * written as it is. It cannot call a function or reach another cell, and a quote would corrupt
 * the numbers people re-import.
 *
 * Writing goes through papaparse's own `escapeFormulae` (with the rule below as its pattern).
 */
import Papa from 'papaparse';

/** Cells that get the leading quote: a formula trigger first, unless the whole cell is a signed integer. */
export const FORMULA_TRIGGER = /^(?![+-]?\d+$)[=+\-@\t\r]/;

/** The papaparse `unparse` options every CSV writer uses (formula escaping, CRLF line ends). */
export const CSV_OPTIONS = { escapeFormulae: FORMULA_TRIGGER, newline: '\r\n' } as const;

type Cell = string | number | boolean | null | undefined | Date;

/**
 * Rows as CSV text (RFC 4180 quoting, CRLF), formula cells neutralised. With `fields`, a header
 * row comes first; `header: false` writes the data rows only (for writing a file in pages).
 * No trailing line break.
 */
export function toCsv(data: Cell[][], options: { fields?: readonly string[]; header?: boolean } = {}): string {
  const rows = data.map((r) => r.map((c) => (c === undefined ? null : c)));
  if (options.fields) return Papa.unparse({ fields: [...options.fields], data: rows }, { ...CSV_OPTIONS, header: options.header ?? true });
  return Papa.unparse(rows, { ...CSV_OPTIONS, header: false });
}

/** One cell's text as the CSV writer would store it (for writers other than papaparse, e.g. XLSX). */
export function neutralizeCell(value: string): string {
  return FORMULA_TRIGGER.test(value) ? `'${value}` : value;
}
