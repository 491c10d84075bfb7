/** Shapes of the sandbox carrier's simulator endpoints (/api/simulator/...), inferred from packages/contracts. */
import type { HandsetMessageSchema, Infer, Input, SimulateCallBody, SimulateCallInput, SimulatorLogEntry } from '@switchboard/contracts';

/** What the simulator needs to know about a company number (the app passes the numbers in). */
export interface SimulatorNumber {
  id: number;
  number: string;
  label: string | null;
  routes: Array<{ extension: number; label: string; forwards: Array<{ number: string }>; confirm_key: number | null; voicemail_enabled: boolean }>;
}

export type PlaceCallInput = Input<typeof SimulateCallInput>;
export type ForwardOutcome = NonNullable<PlaceCallInput['forwards']>[string];
export type CallLogStep = Infer<typeof SimulatorLogEntry>;
export type PlaceCallResult = Infer<typeof SimulateCallBody>;

/** A message on the simulated handset; `direction` is seen from the company ('inbound' = the handset texted the business number). */
export type HandsetMessage = Infer<typeof HandsetMessageSchema>;
