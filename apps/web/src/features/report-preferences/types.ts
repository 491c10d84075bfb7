/** Types of report preferences, inferred from the contracts (column presets, favourite reports). */
import type {
  ColumnPreset as ColumnPresetSchema,
  ColumnPresetKind as ColumnPresetKindSchema,
  FavoriteReport as FavoriteReportSchema,
  FavoriteReportState as FavoriteReportStateSchema,
  Infer,
  Input,
} from '@switchboard/contracts';

export type ColumnPreset = Infer<typeof ColumnPresetSchema>;
export type ColumnPresetKind = Infer<typeof ColumnPresetKindSchema>;
export type FavoriteReport = Infer<typeof FavoriteReportSchema>;
/** A favourite's parsed value: name, app path, filters, grouping, columns. */
export type FavoriteReportState = Infer<typeof FavoriteReportStateSchema>;
/** What a screen hands in to save (filters/grouping/columns may be left out). */
export type FavoriteReportStateInput = Input<typeof FavoriteReportStateSchema>;
/** A column a report table can show: its key (saved in presets) and the label a person reads. */
export interface ColumnOption {
  key: string;
  label: string;
}
