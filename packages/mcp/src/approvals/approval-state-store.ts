/**
 * Where the server remembers which sealed `requestState`s (2026-07-28 approvals) were used. The
 * state itself travels with the client, sealed; only its single use must be shared by every server
 * instance a retry may reach, so a fleet backs this with its shared database.
 */
export interface ApprovalStateStore {
  /**
   * Marks the state `id` used and resolves true, or resolves false when it was used already. Must
   * be atomic across every instance sharing the store. `expiresAt` (ms since the epoch) is when the
   * state stops verifying anyway: the store may forget it after that.
   */
  consume(id: string, expiresAt: number): Promise<boolean>;
}

/** The one-process store: used ids in memory, each dropped once its state has expired. */
export class MemoryApprovalStateStore implements ApprovalStateStore {
  readonly #used = new Map<string, number>();
  #nextSweep = 0;

  async consume(id: string, expiresAt: number): Promise<boolean> {
    const now = Date.now();
    // Expired ids verify no more, so forgetting them bounds the map by what ten minutes can mint.
    // One sweep a second at most: a sweep per call would make a fast client's calls quadratic.
    if (now >= this.#nextSweep) {
      for (const [usedId, expiry] of this.#used) if (expiry <= now) this.#used.delete(usedId);
      this.#nextSweep = now + 1000;
    }
    if (this.#used.has(id)) return false;
    this.#used.set(id, expiresAt);
    return true;
  }
}
