/** Usage per day of the period (minutes and messages), with the charting library the dashboard uses; lazy loaded. */
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { Usage } from '../api/billing';

export default function UsageChart({ daily }: { daily: Usage['daily'] }) {
  return (
    <BarChart
      h={220}
      data={daily.map((d) => ({ day: d.day.slice(5), Minutes: d.minutes, Messages: d.messages }))}
      dataKey="day"
      series={[
        { name: 'Minutes', color: 'blue.7' },
        { name: 'Messages', color: 'teal.8' },
      ]}
      withLegend
      aria-label="Minutes and messages per day"
    />
  );
}
