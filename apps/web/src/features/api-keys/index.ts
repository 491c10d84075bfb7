/** The API keys feature (spec 001 "API keys"; docs/api-and-webhooks.md): the /api-keys screen. */
export { ApiKeysPage } from './components/ApiKeysPage';
