/** The support feature (spec 002 "Support"; docs/workspace.md): the /support form. */
export { SupportPage } from './components/SupportPage';
