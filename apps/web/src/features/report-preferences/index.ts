/**
 * Report preferences for the report screens (compose them in app/, features never import features): column presets
 * ({@link useColumnPreset}, {@link ColumnChooser}) and favourite reports ({@link SaveFavoriteButton},
 * {@link FavoritesMenu}, {@link FavoriteReportsPage}, {@link favoriteHref}).
 */
export { useColumnPreset, type ColumnPresetOptions, type ColumnPresetState } from './use-column-preset';
export { ColumnChooser, type ColumnChooserProps } from './components/ColumnChooser';
export { SaveFavoriteButton, type SaveFavoriteButtonProps, type FavoriteStateToSave } from './components/SaveFavoriteButton';
export { FavoritesMenu } from './components/FavoritesMenu';
export { FavoriteReportsPage } from './components/FavoriteReportsPage';
export { favoriteHref, filtersFromSearch, screenLabel } from './favorites';
export type { ColumnOption, ColumnPreset, ColumnPresetKind, FavoriteReport, FavoriteReportState } from './types';
