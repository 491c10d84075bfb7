/** The operators' tools (docs/operations.md "Domain-event outbox"): the /ops/outbox "Event delivery" screen. */
export { EventDeliveryPage, type OperatorAccess } from './components/EventDeliveryPage';
