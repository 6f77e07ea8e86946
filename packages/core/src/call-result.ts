import type { ToolFailure } from './libos-error.js';

/** The outcome of one tool call: never thrown, always one of these two shapes. */
export type CallResult<Output = Record<string, unknown>> =
  | { readonly ok: true; readonly result: Output }
  | { readonly ok: false; readonly error: ToolFailure };
