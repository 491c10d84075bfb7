import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import type { CallReportBody, CallReportGroup, CallReportRow } from '@switchboard/contracts';
import { addDays, formatDay, rangeLength } from '../ranges';
import { formatHour, keyLabel } from '../columns';

const SERIES_COLORS = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'cyan.6', 'gray.5'];
const TOP_SERIES = 5;
const KEYED_BY_DAY: CallReportGroup[] = ['number_day', 'answered_by_day', 'tag_day', 'traffic_source_day', 'dni_pool_day'];

/** Every local day of the report's range, so empty days show as zero (days come back only with calls). */
function daysOf(report: CallReportBody['data']): string[] {
  const from = report.range.fromDate;
  const n = Math.min(rangeLength({ from, to: report.range.toDate }), 800);
  return Array.from({ length: n }, (_, i) => addDays(from, i));
}

/** Stacked bars by day: the five biggest keys and "Other". */
function keyedByDay(report: CallReportBody['data'], valueLabel: string) {
  const totals = new Map<string, number>();
  for (const r of report.rows) totals.set(keyLabel(report.group, r), (totals.get(keyLabel(report.group, r)) ?? 0) + r.value);
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  const top = ranked.slice(0, TOP_SERIES);
  const hasOther = ranked.length > TOP_SERIES;
  const names = hasOther ? [...top, 'Other'] : top;
  const byDay = new Map<string, Record<string, number | string>>();
  for (const day of daysOf(report))
    byDay.set(day, Object.fromEntries([['day', formatDay(day, Number(report.range.toDate.slice(0, 4)))], ...names.map((n) => [n, 0])]));
  for (const r of report.rows) {
    const point = r.day ? byDay.get(r.day) : undefined;
    if (!point) continue;
    const label = keyLabel(report.group, r);
    const series = top.includes(label) ? label : 'Other';
    point[series] = (point[series] as number) + r.value;
  }
  return {
    data: [...byDay.values()],
    series: names.map((name, i) => ({ name, color: SERIES_COLORS[i] ?? 'gray.5' })),
    summary: `${valueLabel} by day for ${names.join(', ')}`,
  };
}

/**
 * The chart of a grouped call report (the table below it holds the same figures as text):
 * per-day groupings as stacked bars by day (top five keys and "Other"), number and location as bars
 * by key, day-and-hour as an area over time, hour-of-day as bars by hour.
 */
export function ReportChart({ report, valueLabel }: { report: CallReportBody['data']; valueLabel: string }) {
  const { group, rows } = report;
  let chart: React.ReactNode;
  let summary: string;
  if (KEYED_BY_DAY.includes(group)) {
    const c = keyedByDay(report, valueLabel);
    summary = c.summary;
    chart = <BarChart h={280} data={c.data} dataKey="day" type="stacked" series={c.series} withLegend={c.series.length > 1} tickLine="y" gridAxis="y" />;
  } else if (group === 'number' || group === 'geo') {
    const data = [...rows]
      .sort((a, b) => b.value - a.value)
      .slice(0, 15)
      .map((r) => ({ key: keyLabel(group, r), [valueLabel]: r.value }));
    summary = `${valueLabel} by ${group === 'number' ? 'number' : 'caller location'}`;
    chart = (
      <BarChart
        h={Math.max(160, data.length * 32 + 40)}
        data={data}
        dataKey="key"
        orientation="vertical"
        yAxisProps={{ width: 160 }}
        series={[{ name: valueLabel, color: 'blue.6' }]}
        gridAxis="x"
      />
    );
  } else if (group === 'hour_day') {
    const byHour = Array.from({ length: 24 }, (_, hour) => ({ hour: formatHour(hour), [valueLabel]: 0 }));
    for (const r of rows) if (r.hour !== undefined) (byHour[r.hour]![valueLabel] as number) += r.value;
    summary = `${valueLabel} by hour of day`;
    chart = <BarChart h={260} data={byHour} dataKey="hour" series={[{ name: valueLabel, color: 'blue.6' }]} tickLine="y" gridAxis="y" />;
  } else {
    const points = new Map<string, { at: string; [k: string]: number | string }>();
    for (const day of daysOf(report))
      for (let hour = 0; hour < 24; hour++)
        points.set(`${day} ${hour}`, { at: `${formatDay(day, Number(report.range.toDate.slice(0, 4)))} ${formatHour(hour)}`, [valueLabel]: 0 });
    for (const r of rows) {
      const p = points.get(`${r.day} ${r.hour}`);
      if (p) (p[valueLabel] as number) += r.value;
    }
    summary = `${valueLabel} by day and hour`;
    chart = (
      <AreaChart
        h={260}
        data={[...points.values()]}
        dataKey="at"
        series={[{ name: valueLabel, color: 'blue.6' }]}
        curveType="monotone"
        withDots={false}
        tickLine="y"
        gridAxis="y"
      />
    );
  }
  return (
    <figure style={{ margin: 0 }} data-testid="report-chart" aria-label={summary}>
      {chart}
      <Text component="figcaption" size="xs" c="dimmed" mt={4}>
        {summary}. The table below lists the same figures.
      </Text>
    </figure>
  );
}

export type { CallReportRow };
