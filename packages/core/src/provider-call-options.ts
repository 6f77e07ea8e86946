/**
 * What every method's options may carry. `signal`: the caller gave up on the call (an MCP
 * cancellation, a closed client); a provider stops where it waits and fails with `provider_failure`
 * (`details.reason: "cancelled"`), effect `none` before anything changed, else `unknown`, or it
 * finishes as it would have. A signal already aborted when the call starts changes nothing.
 */
export interface ProviderCallOptions {
  readonly signal?: AbortSignal | undefined;
  /**
   * The caller's name for this call (the tools runtime gives the tool's, `write_text_file`; a
   * command its own), for a provider that keeps a history: the overlay records it (docs/overlay.md).
   * It is a name to show, nothing more: no provider may decide anything by it.
   */
  readonly label?: string | undefined;
  /**
   * @deprecated Use `label`. The name of the tool that made the call, as the tools runtime set it
   * before `label`; the overlay still reads it, after `label`, for one release.
   */
  readonly tool?: string | undefined;
}
