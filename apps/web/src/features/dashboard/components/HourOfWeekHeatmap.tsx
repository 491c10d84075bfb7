import { Box, Group, ScrollArea, Text } from '@mantine/core';
import type { DashboardBody } from '@switchboard/contracts';
import { formatHour } from '../format';

type Cell = DashboardBody['data']['byHourOfWeek'][number];

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Monday first, as business weeks read. */
const ORDER = [1, 2, 3, 4, 5, 6, 0];
const SHADES = [
  'var(--mantine-color-gray-1)',
  'var(--mantine-color-blue-1)',
  'var(--mantine-color-blue-3)',
  'var(--mantine-color-blue-5)',
  'var(--mantine-color-blue-7)',
  'var(--mantine-color-blue-9)',
];

/** Shade index 0 (no calls) … 5 (the busiest hour), on a linear scale of the busiest cell. */
export function shadeOf(calls: number, max: number): number {
  if (calls <= 0 || max <= 0) return 0;
  return Math.max(1, Math.ceil((calls / max) * 5));
}

/**
 * Calls by hour of the week (local weekday × hour of the company's zone) as a table whose cells are
 * shaded by volume; every cell names its weekday, hour and count for screen readers and on hover.
 */
export function HourOfWeekHeatmap({ cells }: { cells: Cell[] }) {
  const counts = new Map(cells.map((c) => [`${c.weekday}-${c.hour}`, c.calls]));
  const max = Math.max(0, ...cells.map((c) => c.calls));
  return (
    <div>
      <ScrollArea type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Calls by hour of the week, scrolls sideways' }}>
        <Box component="table" data-testid="heatmap" aria-describedby="heatmap-summary" style={{ borderCollapse: 'separate', borderSpacing: 2, minWidth: 640 }}>
          <thead>
            <tr>
              <th />
              {Array.from({ length: 24 }, (_, h) => (
                <Text component="th" key={h} scope="col" size="10px" c="dimmed" fw={400} style={{ width: 22 }}>
                  {h % 3 === 0 ? (
                    formatHour(h)
                  ) : (
                    <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{formatHour(h)}</span>
                  )}
                </Text>
              ))}
            </tr>
          </thead>
          <tbody>
            {ORDER.map((day) => (
              <tr key={day}>
                <Text component="th" scope="row" size="xs" fw={500} pr={6} ta="left" style={{ whiteSpace: 'nowrap' }}>
                  {WEEKDAYS[day]!.slice(0, 3)}
                </Text>
                {Array.from({ length: 24 }, (_, h) => {
                  const calls = counts.get(`${day}-${h}`) ?? 0;
                  const label = `${WEEKDAYS[day]} ${formatHour(h)}: ${calls} ${calls === 1 ? 'call' : 'calls'}`;
                  return (
                    <td key={h} title={label} aria-label={label} style={{ background: SHADES[shadeOf(calls, max)], height: 22, borderRadius: 3 }}>
                      <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{calls}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </Box>
      </ScrollArea>
      <Text size="xs" c="dimmed" mt={4} id="heatmap-summary">
        Calls by weekday and hour of the company's time zone, darker is busier. Busiest hour: {max} {max === 1 ? 'call' : 'calls'}.
      </Text>
      <Group gap={4} mt={6} aria-hidden>
        <Text size="xs" c="dimmed">
          Fewer
        </Text>
        {SHADES.map((s) => (
          <Box key={s} w={14} h={14} style={{ background: s, borderRadius: 3 }} />
        ))}
        <Text size="xs" c="dimmed">
          More
        </Text>
      </Group>
    </div>
  );
}
