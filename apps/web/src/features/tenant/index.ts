/** The tenant feature (spec 002 "Organizations and tenant"; docs/workspace.md): the /tenant screen. */
export { TenantPage } from './components/TenantPage';
