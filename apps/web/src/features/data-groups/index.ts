/** The data-groups feature (spec 002 "Data groups"; docs/workspace.md): the /data-groups screen. */
export { DataGroupsPage } from './components/DataGroupsPage';
