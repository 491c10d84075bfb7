/**
 * The chart of one pool's utilisation over time (loaded on its own with the reports page: the charting
 * library is not in any other tracking chunk). Peak numbers in use per bucket against the pool's size;
 * fallback sessions as a second series. The table beside it carries the same figures as text.
 */
import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import { formatDate, formatTime } from '../../../lib/dates';
import type { PoolReport } from '../api/reports';

function bucketLabel(at: string, bucket: PoolReport['bucket']): string {
  return bucket === 'hour' ? `${formatDate(at)} ${formatTime(at)}` : formatDate(at);
}

export default function UtilisationChart({ report }: { report: PoolReport }) {
  const data = report.utilisation.map((p) => ({
    at: bucketLabel(p.at, report.bucket),
    'Numbers in use (peak)': p.peak_in_use,
    'Shown the fallback': p.fallback_sessions,
  }));
  return (
    <AreaChart
      h={220}
      data={data}
      dataKey="at"
      series={[
        { name: 'Numbers in use (peak)', color: 'blue.6' },
        { name: 'Shown the fallback', color: 'red.6' },
      ]}
      referenceLines={[{ y: report.size, label: `Pool size ${report.size}`, color: 'gray.6' }]}
      yAxisProps={{ domain: [0, Math.max(report.size, report.recommended_size, ...report.utilisation.map((p) => p.peak_in_use)) + 1], allowDecimals: false }}
      withLegend
      curveType="stepAfter"
      tickLine="y"
      gridAxis="y"
      aria-label={`${report.pool_name}: numbers in use per ${report.bucket} against a pool of ${report.size}`}
      role="img"
    />
  );
}
