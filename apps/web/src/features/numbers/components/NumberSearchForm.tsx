import { Anchor, Button, Group, SegmentedControl, Select, Text, TextInput } from '@mantine/core';
import { NUMBER_SEARCH_MODES, TOLL_FREE_SEARCH_PREFIXES, US_AREA_CODE_LENGTH, vanityToDigits } from '@switchboard/domain';
import { IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNumberPrefixes } from '../api/get-number-prefixes';
import { useOverlays } from '../api/get-overlays';
import type { NumberSearchParams } from '../types';

const RESULT_LIMIT = 20;

/** Search inputs: Local (area code, mode Contains/Starts with/Ends with, pattern) or Toll-free (prefix). */
export function NumberSearchForm({ onSearch, loading }: { onSearch: (params: NumberSearchParams) => void; loading: boolean }) {
  const [type, setType] = useState<'local' | 'toll_free'>('local');
  const [areaCode, setAreaCode] = useState('');
  const [mode, setMode] = useState<NonNullable<NumberSearchParams['mode']>>(NUMBER_SEARCH_MODES[0].value);
  const [pattern, setPattern] = useState('');
  const [prefix, setPrefix] = useState<string>(TOLL_FREE_SEARCH_PREFIXES[0]);
  const [error, setError] = useState<string | null>(null);
  const prefixes = useNumberPrefixes();
  const prefixData = prefixes.data?.data ?? TOLL_FREE_SEARCH_PREFIXES.map((p) => ({ value: p, label: p }));
  const overlays = useOverlays(type === 'local' && areaCode.length === US_AREA_CODE_LENGTH ? areaCode : null);
  const overlayCodes = overlays.data?.data ?? [];
  const patternDigits = pattern.trim() ? vanityToDigits(pattern.trim()) : '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (type === 'local') {
      if (areaCode && !new RegExp(`^\\d{${US_AREA_CODE_LENGTH}}$`).test(areaCode)) {
        setError(`Enter a ${US_AREA_CODE_LENGTH}-digit area code`);
        return;
      }
      setError(null);
      onSearch({ type, areaCode: areaCode || undefined, mode: pattern ? mode : undefined, pattern: pattern || undefined, limit: RESULT_LIMIT });
    } else {
      onSearch({ type, prefix, limit: RESULT_LIMIT });
    }
  };

  return (
    <form onSubmit={submit}>
      <SegmentedControl
        fullWidth
        mb="md"
        value={type}
        onChange={(v) => setType(v as 'local' | 'toll_free')}
        data={[
          { value: 'local', label: 'Local' },
          { value: 'toll_free', label: 'Toll-free' },
        ]}
        aria-label="Number type"
      />
      <Group align="flex-end" gap="sm" wrap="wrap">
        {type === 'local' ? (
          <>
            <TextInput
              label="Area code"
              placeholder="212"
              inputMode="numeric"
              maxLength={US_AREA_CODE_LENGTH}
              value={areaCode}
              error={error}
              onChange={(e) => setAreaCode(e.currentTarget.value.replace(/\D/g, ''))}
              w={110}
            />
            <Select
              label="Match"
              data={NUMBER_SEARCH_MODES.map((m) => ({ value: m.value, label: m.label }))}
              value={mode}
              onChange={(v) => v && setMode(v as typeof mode)}
              allowDeselect={false}
              w={150}
            />
            <TextInput
              label="Digits or letters"
              placeholder="e.g. 555 or CALL"
              value={pattern}
              onChange={(e) => setPattern(e.currentTarget.value)}
              style={{ flex: 1 }}
              miw={140}
            />
          </>
        ) : (
          <Select label="Prefix" data={prefixData} value={prefix} onChange={(v) => v && setPrefix(v)} allowDeselect={false} w={150} />
        )}
        <Button type="submit" leftSection={<IconSearch size={16} />} loading={loading}>
          Search
        </Button>
      </Group>
      {type === 'local' && /[a-z]/i.test(pattern) && patternDigits ? (
        <Text size="sm" c="dimmed" mt="xs" data-testid="vanity-hint">
          Letters search their keypad digits: {pattern.trim().toUpperCase()} = {patternDigits}
        </Text>
      ) : null}
      {type === 'local' && overlayCodes.length > 0 ? (
        <Text size="sm" c="dimmed" mt="xs" data-testid="overlay-hint">
          Same region, also try:{' '}
          {overlayCodes.map((code, i) => (
            <span key={code}>
              {i > 0 ? ', ' : ''}
              <Anchor component="button" type="button" size="sm" onClick={() => setAreaCode(code)}>
                {code}
              </Anchor>
            </span>
          ))}
        </Text>
      ) : null}
    </form>
  );
}
