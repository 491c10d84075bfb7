/**
 * PDF downloads of the dashboard and of a call report (spec 002 "Dashboard": "Files: generic GET
 * download as PDF blob"; docs/analytics.md "PDF downloads"). The same figures as the JSON answers
 * (`dashboard`, `callReport`: same scope, access checks, cache and 403/422), laid out on A4 pages with
 * pdfkit: a title with the company, range and zone; the KPIs beside the comparison period; the
 * series as vector bars; tables (paginated). Text uses the standard Helvetica fonts (WinAnsi: other
 * characters print as `?`).
 */
import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { CallReportBody, CallReportGroup, CallReportQuery, CallReportRow, DashboardBody, DashboardQuery, Kpi } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { getCompanySummary } from '../companies/companies.service.js';
import { callReport, dashboard } from './analytics.reports.js';

type Doc = InstanceType<typeof PDFDocument>;

const MARGIN = 40;
const INK = '#1f2933';
const MUTED = '#616e7c';
const BAR = '#2f6fdf';
const BAR_PREVIOUS = '#b7c9ee';

/** Labels of the report groupings (the web's report names). */
const GROUP_TITLES: Readonly<Record<CallReportGroup, string>> = {
  number_day: 'Calls by number and day',
  answered_by_day: 'Calls by who answered and day',
  number: 'Calls by number',
  tag_day: 'Calls by tag and day',
  day_hour: 'Calls by day and hour',
  hour_day: 'Calls by hour and day',
  traffic_source_day: 'Calls by traffic source and day',
  dni_pool_day: 'Calls by tracking pool and day',
  geo: 'Calls by caller state',
};

const fmt = (n: number | null | undefined, digits = 0) =>
  n === null || n === undefined ? '-' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const change = (k: Kpi) => (k.changePct === null ? '-' : `${k.changePct > 0 ? '+' : ''}${k.changePct.toFixed(1)} %`);
const arrow = (k: Kpi) => (k.direction === 'up' ? 'up' : k.direction === 'down' ? 'down' : 'flat');
/** WinAnsi-safe text: characters Helvetica cannot show become '?'. */
const safe = (s: string) => s.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');

function newDoc(title: string): Doc {
  return new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title, Creator: 'Switchboard' } });
}

function header(doc: Doc, title: string, lines: string[]): void {
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(18).text(safe(title));
  doc.moveDown(0.2).font('Helvetica').fontSize(10).fillColor(MUTED);
  for (const l of lines) doc.text(safe(l));
  doc.moveDown(0.8).fillColor(INK);
}

function sectionTitle(doc: Doc, title: string, needed = 60): void {
  if (doc.y + needed > doc.page.height - MARGIN) doc.addPage();
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(12).fillColor(INK).text(safe(title), MARGIN);
  doc.moveDown(0.3).font('Helvetica').fontSize(9);
}

/**
 * A table: `widths` in points (the first column left-aligned, the others right-aligned); a new page
 * (with the header row again) when the page is full.
 */
function table(doc: Doc, head: string[], rows: string[][], widths: number[]): void {
  const rowHeight = 14;
  const drawRow = (cells: string[], bold: boolean) => {
    if (doc.y + rowHeight > doc.page.height - MARGIN) {
      doc.addPage();
      drawRow(head, true);
    }
    const y = doc.y;
    let x = MARGIN;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(9)
      .fillColor(INK);
    cells.forEach((c, i) => {
      doc.text(safe(c), x + 2, y + 3, { width: widths[i]! - 4, align: i === 0 ? 'left' : 'right', lineBreak: false, ellipsis: true });
      x += widths[i]!;
    });
    doc
      .moveTo(MARGIN, y + rowHeight)
      .lineTo(x, y + rowHeight)
      .lineWidth(0.3)
      .strokeColor('#cbd2d9')
      .stroke();
    doc.x = MARGIN;
    doc.y = y + rowHeight;
  };
  drawRow(head, true);
  for (const r of rows) drawRow(r, false);
  doc.moveDown(0.5);
}

/**
 * Vertical bars of `values` (and, lighter and behind, `previous` aligned by position), labelled below
 * with every n-th label so they do not overlap; the largest value on the axis.
 */
function barChart(doc: Doc, labels: string[], values: number[], previous?: number[]): void {
  const height = 120;
  const width = doc.page.width - 2 * MARGIN;
  if (doc.y + height + 30 > doc.page.height - MARGIN) doc.addPage();
  const top = doc.y;
  const max = Math.max(1, ...values, ...(previous ?? []));
  const n = Math.max(1, values.length);
  const slot = width / n;
  const bar = Math.max(0.5, slot * 0.7);
  doc
    .font('Helvetica')
    .fontSize(7)
    .fillColor(MUTED)
    .text(fmt(max), MARGIN, top - 2, { width: 60 });
  doc
    .moveTo(MARGIN, top + height)
    .lineTo(MARGIN + width, top + height)
    .lineWidth(0.5)
    .strokeColor('#9aa5b1')
    .stroke();
  values.forEach((v, i) => {
    const x = MARGIN + i * slot + (slot - bar) / 2;
    const p = previous?.[i];
    if (p !== undefined && p > 0) {
      const h = (p / max) * (height - 10);
      doc.rect(x, top + height - h, bar, h).fill(BAR_PREVIOUS);
    }
    if (v > 0) {
      const h = (v / max) * (height - 10);
      doc.rect(x + bar * 0.2, top + height - h, bar * 0.6, h).fill(BAR);
    }
  });
  const every = Math.max(1, Math.ceil(n / 12));
  doc.fillColor(MUTED).fontSize(7);
  labels.forEach((l, i) => {
    if (i % every === 0) doc.text(safe(l), MARGIN + i * slot, top + height + 3, { width: slot * every, lineBreak: false });
  });
  doc.fillColor(INK);
  doc.x = MARGIN;
  doc.y = top + height + 18;
}

function renderDashboard(doc: Doc, company: string, d: DashboardBody['data']): void {
  header(doc, `Dashboard: ${company}`, [
    `${d.currentRange.fromDate} to ${d.currentRange.toDate} (${d.timezone}), compared with ${d.previousRange.fromDate} to ${d.previousRange.toDate}`,
    `Downloaded ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  ]);
  sectionTitle(doc, 'Key figures');
  const k = d.kpis;
  const kpiRows: Array<[string, Kpi, number]> = [
    ['Total calls', k.totalCalls, 0],
    ['Answered', k.answered, 0],
    ['Missed', k.missed, 0],
    ['Voicemails', k.voicemails, 0],
    ['First-time callers', k.firstTimeCallers, 0],
    ['Average answer time (s)', k.avgAnswerTimeS, 1],
    ['Average duration (s)', k.avgDurationS, 1],
    ['Messages', k.messages, 0],
    ['Faxes', k.faxes, 0],
  ];
  table(
    doc,
    ['Figure', 'This period', 'Comparison period', 'Change', 'Trend'],
    kpiRows.map(([label, kpi, digits]) => [label, fmt(kpi.value, digits), fmt(kpi.previous, digits), change(kpi), arrow(kpi)]),
    [175, 90, 100, 80, 70],
  );
  sectionTitle(doc, `Calls by ${d.groupBy} (dark) beside the comparison period (light)`, 170);
  barChart(
    doc,
    d.series.map((p) => (d.groupBy === 'day' ? p.bucket.slice(5) : p.bucket.slice(11))),
    d.series.map((p) => p.calls),
    d.previousSeries.map((p) => p.calls),
  );
  sectionTitle(doc, 'Calls by source');
  table(
    doc,
    ['Source', 'Calls', 'Answered', 'Missed', 'First-time'],
    d.bySource.map((r) => [r.source || 'No tracking source', fmt(r.calls), fmt(r.answered), fmt(r.missed), fmt(r.firstTimeCallers)]),
    [195, 80, 80, 80, 80],
  );
  sectionTitle(doc, 'Calls by number');
  table(
    doc,
    ['Number', 'Calls', 'Answered', 'Missed', 'Voicemails'],
    d.byNumber.map((r) => [r.label ? `${r.label} (${r.number})` : r.number, fmt(r.calls), fmt(r.answered), fmt(r.missed), fmt(r.voicemails)]),
    [195, 80, 80, 80, 80],
  );
  sectionTitle(doc, 'Missed calls by number (voicemails included)');
  table(
    doc,
    ['Number', 'Missed', 'Calls', 'Missed %'],
    d.missedByNumber.map((r) => [
      r.label ? `${r.label} (${r.number})` : r.number,
      fmt(r.missed),
      fmt(r.calls),
      r.missedPct === null ? '-' : `${fmt(r.missedPct, 1)} %`,
    ]),
    [235, 90, 90, 100],
  );
}

/** The text of a report row's grouping keys. */
function rowKeys(r: CallReportRow, group: CallReportGroup): string[] {
  const number = () => (r.numberLabel ? `${r.numberLabel} (${r.number ?? ''})` : (r.number ?? ''));
  const hour = () => `${String(r.hour ?? 0).padStart(2, '0')}:00`;
  switch (group) {
    case 'number_day':
      return [number(), r.day ?? ''];
    case 'answered_by_day':
      return [r.answeredByName || 'Nobody in the app', r.day ?? ''];
    case 'number':
      return [number()];
    case 'tag_day':
      return [r.tagName || 'No tag', r.day ?? ''];
    case 'day_hour':
      return [r.day ?? '', hour()];
    case 'hour_day':
      return [hour(), r.day ?? ''];
    case 'traffic_source_day':
      return [r.trafficSource || 'No tracking source', r.day ?? ''];
    case 'dni_pool_day':
      return [r.dniPoolName || 'No pool', r.day ?? ''];
    case 'geo':
      return [r.geo || 'Unknown'];
  }
}

const KEY_HEADS: Readonly<Record<CallReportGroup, string[]>> = {
  number_day: ['Number', 'Day'],
  answered_by_day: ['Answered by', 'Day'],
  number: ['Number'],
  tag_day: ['Tag', 'Day'],
  day_hour: ['Day', 'Hour'],
  hour_day: ['Hour', 'Day'],
  traffic_source_day: ['Traffic source', 'Day'],
  dni_pool_day: ['Tracking pool', 'Day'],
  geo: ['Caller state'],
};

function renderReport(doc: Doc, company: string, d: CallReportBody['data']): void {
  header(doc, `${GROUP_TITLES[d.group]}: ${company}`, [
    `${d.range.fromDate} to ${d.range.toDate} (${d.timezone}); chart: ${d.target.replace(/_/g, ' ')}`,
    `Downloaded ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  ]);
  const t = d.totals;
  sectionTitle(doc, 'Totals');
  table(
    doc,
    ['Calls', 'Answered', 'Missed', 'Voicemails', 'First-time', 'Avg duration (s)'],
    [[fmt(t.calls), fmt(t.answered), fmt(t.missed), fmt(t.voicemails), fmt(t.firstTimeCallers), fmt(t.avgDurationS, 1)]],
    [85, 85, 85, 85, 85, 90],
  );
  // The chart: the target's value per first key (summed over the second), in the table's order.
  const byFirst = new Map<string, number>();
  for (const r of d.rows) {
    const key = rowKeys(r, d.group)[0]!;
    byFirst.set(key, (byFirst.get(key) ?? 0) + r.value);
  }
  const bars = [...byFirst].slice(0, 60);
  sectionTitle(doc, `${d.target.replace(/_/g, ' ')} by ${KEY_HEADS[d.group][0]!.toLowerCase()}`, 170);
  barChart(
    doc,
    bars.map(([k]) => k),
    bars.map(([, v]) => v),
  );
  const heads = KEY_HEADS[d.group];
  const keyWidths = heads.length === 2 ? [150, 70] : [220];
  sectionTitle(doc, 'Rows');
  table(
    doc,
    [...heads, 'Calls', 'Answered', 'Missed', 'Voicemails', 'First-time'],
    d.rows.map((r) => [...rowKeys(r, d.group), fmt(r.calls), fmt(r.answered), fmt(r.missed), fmt(r.voicemails), fmt(r.firstTimeCallers)]),
    [...keyWidths, 59, 59, 59, 59, 59],
  );
}

/** A finished document as a stream (pdfkit writes as it goes; `end()` is called here). */
function finish(doc: Doc): Readable {
  doc.end();
  return doc as unknown as Readable;
}

/**
 * `GET /dashboard/pdf`: the dashboard of `q` as a PDF.
 * @throws ForbiddenError (403), ValidationError (422) as `GET /dashboard`.
 */
export async function dashboardPdf(ctx: AppContext, userId: number, q: DashboardQuery): Promise<{ fileName: string; stream: Readable }> {
  const { data } = await dashboard(ctx, userId, q);
  const company = await getCompanySummary(ctx, userId, q.company_id);
  const doc = newDoc(`Dashboard ${data.currentRange.fromDate} to ${data.currentRange.toDate}`);
  renderDashboard(doc, company.name, data);
  return { fileName: `dashboard_${data.currentRange.fromDate}_${data.currentRange.toDate}.pdf`, stream: finish(doc) };
}

/**
 * `GET /analytics/calls/pdf`: the call report of `q` (its grouping, target and filters) as a PDF.
 * @throws ForbiddenError (403), ValidationError (422) as `GET /analytics/calls`.
 */
export async function reportPdf(ctx: AppContext, userId: number, q: CallReportQuery): Promise<{ fileName: string; stream: Readable }> {
  const { data } = await callReport(ctx, userId, { ...q, format: 'json', async: false });
  const company = await getCompanySummary(ctx, userId, q.company_id);
  const doc = newDoc(`${GROUP_TITLES[data.group]} ${data.range.fromDate} to ${data.range.toDate}`);
  renderReport(doc, company.name, data);
  return { fileName: `report_${data.group}_${data.range.fromDate}_${data.range.toDate}.pdf`, stream: finish(doc) };
}
