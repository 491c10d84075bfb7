/** Port-in requests (spec 002 §7 "Ports"; docs/numbers.md "Port-in requests"), inferred from packages/contracts. */
import type { Infer, Input, PortRequestInput as PortRequestInputSchema, PortRequestSchema } from '@switchboard/contracts';
import { PORT_STATES } from '@switchboard/contracts';

export { PORT_STATES };
export type PortState = (typeof PORT_STATES)[number];
export type PortRequest = Infer<typeof PortRequestSchema>;
export type PortRequestInput = Input<typeof PortRequestInputSchema>;
