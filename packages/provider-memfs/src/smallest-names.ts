/**
 * Compares two strings by Unicode code point. JavaScript's `<` and memfs's readdir compare UTF-16
 * code units, which put an astral character (a surrogate pair, 0xD800-0xDFFF) before U+E000-U+FFFF.
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
 * Keeps the `limit` smallest names seen, in code-point order, in a bounded max-heap: memory stays
 * O(limit) and each name costs O(log limit), however large the directory.
 */
export class SmallestNames {
  private readonly heap: string[] = [];
  private seen = 0;

  constructor(private readonly limit: number) {}

  /** How many names were offered. */
  get count(): number {
    return this.seen;
  }

  offer(name: string): void {
    this.seen++;
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(name);
      this.siftUp(heap.length - 1);
    } else if (heap.length > 0 && compareCodePoints(name, heap[0]!) < 0) {
      heap[0] = name;
      this.siftDown(0);
    }
  }

  /** The kept names, smallest first. */
  sorted(): string[] {
    return [...this.heap].sort(compareCodePoints);
  }

  private siftUp(start: number): void {
    const heap = this.heap;
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (compareCodePoints(heap[index]!, heap[parent]!) <= 0) return;
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
      if (left < heap.length && compareCodePoints(heap[left]!, heap[largest]!) > 0) largest = left;
      if (right < heap.length && compareCodePoints(heap[right]!, heap[largest]!) > 0) largest = right;
      if (largest === index) return;
      [heap[index], heap[largest]] = [heap[largest]!, heap[index]!];
      index = largest;
    }
  }
}
