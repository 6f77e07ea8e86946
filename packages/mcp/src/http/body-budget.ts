/**
 * The request-body bytes the whole server holds at once: bodies being read, and bodies read but
 * not yet taken by their session (which waits while its client does not take its replies). Each
 * body is bounded on its own; this bounds how many of them any number of connections can hold.
 */
export class BodyBudget {
  #left: number;

  constructor(readonly maxBytes: number) {
    this.#left = maxBytes;
  }

  /** Takes `bytes` of the budget, or nothing and false when they are not left. */
  take(bytes: number): boolean {
    if (bytes > this.#left) return false;
    this.#left -= bytes;
    return true;
  }

  give(bytes: number): void {
    this.#left = Math.min(this.maxBytes, this.#left + bytes);
  }
}
