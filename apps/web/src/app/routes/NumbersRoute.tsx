/**
 * `/numbers`: the numbers list with its columns kept as a column preset of kind `numbers` (spec 001 "Column presets";
 * docs/reports-screens.md "Column presets"), composed with the report preferences' chooser (features never import
 * each other). Its own chunk, so the list loads nothing of the other telephony screens.
 */
import { NumbersPage } from '../../features/numbers/components/NumbersPage';
import { DEFAULT_NUMBER_COLUMNS, NUMBER_COLUMN_OPTIONS } from '../../features/numbers/components/number-columns';
import { ColumnChooser, useColumnPreset } from '../../features/report-preferences';
import { RequireAbility } from '../../components/RequireAbility';

const NUMBER_KEYS = NUMBER_COLUMN_OPTIONS.map((o) => o.key);

export function NumbersRoute() {
  return (
    <RequireAbility ability="numbers.read" title="Numbers">
      <Numbers />
    </RequireAbility>
  );
}

function Numbers() {
  const preset = useColumnPreset('numbers', { defaultColumns: DEFAULT_NUMBER_COLUMNS, available: NUMBER_KEYS });
  return <NumbersPage columns={preset.columns} columnTools={<ColumnChooser options={NUMBER_COLUMN_OPTIONS} preset={preset} />} />;
}
