// The line diff lives in core so the overlay's review diff and edit_text_file share one algorithm.
export { diffLines } from '@libos/core';
export type { DiffRun } from '@libos/core';
