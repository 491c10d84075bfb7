/** Field errors of a 422 answer, keyed by dotted path (`routes.0.forwards.1.number`). */
export type FieldErrors = Record<string, string[]>;

/** The first message for `path`, or undefined. */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  return errors[path]?.[0];
}

/** The errors under `prefix.`, re-keyed without the prefix. */
export function errorsUnder(errors: FieldErrors, prefix: string): FieldErrors {
  const start = `${prefix}.`;
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([k]) => k.startsWith(start))
      .map(([k, v]) => [k.slice(start.length), v]),
  );
}
