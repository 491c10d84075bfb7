/** The report-preferences module's entry: report preferences (favourite reports, column presets; spec 001 "Column presets", spec 002 "Favorite reports"). See `platform/module.ts`. */
import type { ModuleEntry } from '../../platform/module.js';
import { registerReportPreferencesRoutes } from './report-preferences.routes.js';

export const reportPreferencesModule: ModuleEntry[] = [{ name: 'report-preferences', routes: registerReportPreferencesRoutes }];
