/**
 * Domain events of the messaging family (owned by the messaging and conversations modules; others
 * only subscribe). Each entry: event name → zod schema of its payload. See `platform/events/index.ts`.
 * Add an event here before emitting it.
 */
import { z } from 'zod';

export const MESSAGE_EVENTS = {} as const;
