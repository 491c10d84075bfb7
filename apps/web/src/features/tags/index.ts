/** The tags feature (spec 002 "Other: tags CRUD"; docs/workspace.md): the /tags screen. */
export { TagsPage } from './components/TagsPage';
