/** Integrations with ad platforms, analytics, CRMs and Slack (spec 002 §7 "Integrations"; docs/integrations.md): the /integrations page. */
export { IntegrationsPage } from './components/IntegrationsPage';
