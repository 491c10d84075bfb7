/** The webhooks feature (docs/api-and-webhooks.md): the /webhooks screen. */
export { WebhooksPage } from './components/WebhooksPage';
