import { Select, type SelectProps } from '@mantine/core';
import { timeZoneNames } from '@switchboard/domain';
import { useMemo } from 'react';

function zoneLabel(zone: string): string {
  try {
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
      .formatToParts(new Date())
      .find((p) => p.type === 'timeZoneName')?.value;
    return `${zone.replaceAll('_', ' ')}${offset ? ` (${offset})` : ''}`;
  } catch (error) {
    if (error instanceof RangeError) return zone; // a zone this browser does not know
    throw error;
  }
}

/**
 * IANA zones with friendly labels (foundation §9 "Timezones"): the browser's own list under
 * today's names ("Asia/Kolkata", "Europe/Kyiv"), plus the current value if it is not among them.
 */
export function TimezoneSelect(props: Omit<SelectProps, 'data'>) {
  const data = useMemo(() => {
    const all = timeZoneNames();
    if (props.value && !all.includes(props.value)) all.unshift(props.value);
    return all.map((zone) => ({ value: zone, label: zoneLabel(zone) }));
  }, [props.value]);
  return <Select searchable label="Timezone" data={data} {...props} />;
}
