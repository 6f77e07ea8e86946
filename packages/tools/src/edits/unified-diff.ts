// The unified diff lives in provider-kit so the overlay's review diff and edit_text_file share one renderer.
export { DIFF_CONTEXT_LINES, boundDiff, unifiedDiffLines } from '@libos/provider-kit';
export type { BoundedDiff } from '@libos/provider-kit';
