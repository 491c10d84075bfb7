/** The general-settings feature (spec 002 "General settings"; docs/workspace.md): the /general-settings screen. */
export { GeneralSettingsPage } from './components/GeneralSettingsPage';
