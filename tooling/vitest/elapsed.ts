/** A duration as a person reads it: "9 min 12 s", "48 s". */
export function formatElapsed(milliseconds: number): string {
  const seconds = Math.max(0, Math.round(milliseconds / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds} s` : `${minutes} min ${seconds % 60} s`;
}

/**
 * The line saying how long the run took, printed just above the summary: the tests alone, and, when
 * `pnpm test` set LIBOS_TEST_STARTED (Unix seconds at its start), the whole command with lint, build
 * and services, so the README's "about 10 minutes" can be checked on any run.
 */
export function elapsedLine(testsMilliseconds: number, startedSeconds: string | undefined, nowMilliseconds: number): string {
  const tests = `tests took ${formatElapsed(testsMilliseconds)}`;
  const started = Number(startedSeconds);
  if (startedSeconds === undefined || startedSeconds === '' || !Number.isFinite(started)) return tests;
  return `${tests}; pnpm test took ${formatElapsed(nowMilliseconds - started * 1000)} in all (lint, build, services, tests)`;
}
