import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';

function zoneLabel(zone: string): string {
  try {
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
      .formatToParts(new Date())
      .find((p) => p.type === 'timeZoneName')?.value;
    return `${zone.replaceAll('_', ' ')}${offset ? ` (${offset})` : ''}`;
  } catch {
    return zone;
  }
}

/** IANA zones with friendly labels (foundation §9 "Timezones"), from the browser's own list. */
export function TimezoneSelect(props: Omit<SelectProps, 'data'>) {
  const data = useMemo(() => {
    const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    const all = zones.includes('UTC') ? zones : ['UTC', ...zones];
    if (props.value && !all.includes(props.value)) all.unshift(props.value);
    return all.map((zone) => ({ value: zone, label: zoneLabel(zone) }));
  }, [props.value]);
  return <Select searchable label="Timezone" data={data} {...props} />;
}
