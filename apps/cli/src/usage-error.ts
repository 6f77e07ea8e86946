/** A bad command line or a bad start-up input (flag, config, checkpoint): one line on stderr, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The exit status for usage errors (apps/cli/README.md). */
export const USAGE_EXIT_STATUS = 2;
