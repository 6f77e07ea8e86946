/**
 * Compares two strings by Unicode code point. JavaScript's `<` compares UTF-16 code units, which
 * put an astral character (a surrogate pair, 0xD800-0xDFFF) before U+E000-U+FFFF.
 */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a !== b) return codePointRank(a) - codePointRank(b);
  }
  return left.length - right.length;
}

// Moves surrogates above the rest of the BMP, which turns code-unit order into code-point order.
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit <= 0xdfff ? unit + 0x2000 : unit - 0x800;
}

/**
 * Keeps the `limit` smallest items offered, in a bounded max-heap: memory stays O(limit) and each
 * item costs O(log limit), however many stream past. Listings use it so a directory of millions of
 * entries costs no more memory than its first page.
 */
export class SmallestItems<T> {
  private readonly heap: T[] = [];
  private overflow = false;

  constructor(
    private readonly limit: number,
    private readonly compare: (left: T, right: T) => number,
  ) {}

  /** True once more than `limit` items were offered. */
  get overflowed(): boolean {
    return this.overflow;
  }

  /** Offers one item; it is kept while it is among the `limit` smallest so far. */
  offer(item: T): void {
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(item);
      this.siftUp(heap.length - 1);
      return;
    }
    this.overflow = true;
    if (heap.length === 0 || this.compare(item, heap[0]!) >= 0) return;
    heap[0] = item;
    this.siftDown(0);
  }

  /** The items kept, smallest first. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  private siftUp(start: number): void {
    const heap = this.heap;
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.compare(heap[index]!, heap[parent]!) <= 0) return;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let largest = index;
      if (left < heap.length && this.compare(heap[left]!, heap[largest]!) > 0) largest = left;
      if (right < heap.length && this.compare(heap[right]!, heap[largest]!) > 0) largest = right;
      if (largest === index) return;
      [heap[index], heap[largest]] = [heap[largest]!, heap[index]!];
      index = largest;
    }
  }
}
