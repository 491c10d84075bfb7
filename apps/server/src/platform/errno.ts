/**
 * Naming the system errors code expects (docs/architecture.md "Errors": handle the named case,
 * rethrow the rest). Node.js reports failed system calls as errors with a `code` (`ENOENT`,
 * `ESRCH`, …).
 */

/** Whether `error` is a Node.js system error whose `code` is one of `codes`. */
export function isErrno(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && codes.includes((error as NodeJS.ErrnoException).code!);
}
