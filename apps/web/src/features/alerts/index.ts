/** The alerts feature (spec 001 "Alerts"; docs/alerts.md): the /alerts screen. */
export { AlertsPage } from './components/AlertsPage';
