// The unified diff lives in core so the overlay's review diff and edit_text_file share one renderer.
export { DIFF_CONTEXT_LINES, boundDiff, unifiedDiffLines } from '@libos/core';
export type { BoundedDiff } from '@libos/core';
