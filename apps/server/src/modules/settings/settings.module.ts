/** The settings module's entry: general settings and feature toggles (spec 002 "General settings"; docs/workspace.md). See `platform/module.ts`. */
import type { ModuleEntry } from '../../platform/module.js';
import { registerSettingsRoutes } from './settings.routes.js';

export const settingsModule: ModuleEntry[] = [{ name: 'settings', routes: registerSettingsRoutes }];
