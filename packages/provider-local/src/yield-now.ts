/** Lets other work run during a long synchronous scan, so one huge directory cannot stall the host. */
export function yieldNow(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Entries a scan handles between two yields. */
export const ENTRIES_PER_SLICE = 8192;
