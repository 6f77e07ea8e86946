// The line diff lives in provider-kit so the overlay's review diff and edit_text_file share one algorithm.
export { diffLines } from '@libos/provider-kit';
export type { DiffRun } from '@libos/provider-kit';
