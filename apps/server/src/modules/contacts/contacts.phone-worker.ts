/**
 * Worker thread of the contact import (contacts.import.ts `PhoneParser`): parses batches of raw
 * phone numbers with the domain's `parsePhone` (E.164 or null) off the import's main thread, so
 * parsing the next rows overlaps with writing the previous ones. Message in: `{ id, numbers }`
 * (strings or null); message out: `{ id, parsed }` in the same order.
 */
import { parentPort } from 'node:worker_threads';
import { parsePhone } from '@switchboard/domain';

parentPort?.on('message', (m: { id: number; numbers: Array<string | null> }) => {
  parentPort!.postMessage({ id: m.id, parsed: m.numbers.map((n) => (n ? parsePhone(n) : null)) });
});
