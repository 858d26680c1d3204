/**
 * How a --wait reads a status: it goes on only while the status is one the spec says is still
 * under way. A status the spec does not list ("cancelled", "ARCHIVED") may never change, and
 * --wait has no time limit by default, so the wait ends there: the record is shown as it came,
 * one line on stderr says the status is unknown, and it is not the success (exit 1).
 */

/** The statuses the spec lists for something a --wait polls. */
export interface ListedStatuses {
  /** Still under way: the wait goes on. */
  readonly running: readonly string[];
  /** Final: the wait ends. */
  readonly final: readonly string[];
  /** The final status that means the work was done (exit 0); any other ending is exit 1. */
  readonly succeeded: string;
}

export const isStillRunning = (statuses: ListedStatuses, status: string): boolean => statuses.running.includes(status);

/**
 * What is said when a wait ends at a status the spec does not list (undefined for a listed one):
 * that status, the ones csafe knows, and the command that waits on, should it be a new status of
 * work still under way rather than a final one.
 */
export function unlistedStatusNote(statuses: ListedStatuses, describe: string, status: string, waitAgain: string): string | undefined {
  if (statuses.running.includes(status) || statuses.final.includes(status)) return undefined;
  const known = [...statuses.running, ...statuses.final].join(', ');
  return `${describe} has status ${JSON.stringify(status)}, which csafe does not know (it knows ${known}): stopped waiting, as it may never change; if it is work still under way, wait on with:\n  ${waitAgain}`;
}
