/**
 * Type helpers for code that reads the contracts without depending on zod itself (the web):
 * `Infer<typeof Schema>` is what the server sends (zod output), `Input<typeof Schema>` what a
 * request may carry before the schema's defaults and coercions (zod input).
 */
import type { z } from 'zod';

/** The parsed (output) type of a contract schema: an answer, an event payload. */
export type Infer<T extends z.ZodType> = z.infer<T>;
/** The accepted (input) type of a contract schema: a request body or query before defaults. */
export type Input<T extends z.ZodType> = z.input<T>;
