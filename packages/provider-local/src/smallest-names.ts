import { isUtf8 } from 'node:buffer';

/** A listed name: its raw bytes on disk and the bytes that order it. */
export interface NameRecord {
  readonly raw: Buffer;
  /** UTF-8 of the shown name: UTF-8 byte order is code-point order, so one memcmp compares names. */
  readonly key: Buffer;
}

/** The name shown for raw bytes: valid UTF-8 as is, anything else with U+FFFD for the bad bytes. */
export function shownName(raw: Buffer): string {
  return raw.toString('utf8');
}

/** Orders by the shown name in code-point order, then by raw bytes when two raw names show alike. */
export function compareNames(left: NameRecord, right: NameRecord): number {
  return Buffer.compare(left.key, right.key) || Buffer.compare(left.raw, right.raw);
}

/**
 * Keeps the `limit` smallest names seen, in a max-heap: memory is O(limit) however many names
 * stream past, and a name larger than the current maximum costs one comparison.
 */
export class SmallestNames {
  private readonly heap: NameRecord[] = [];
  /** True once more than `limit` names were offered. */
  overflowed = false;

  constructor(private readonly limit: number) {}

  offer(raw: Buffer): void {
    const key = isUtf8(raw) ? raw : Buffer.from(shownName(raw));
    const record = { raw, key };
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(record);
      this.siftUp(heap.length - 1);
      return;
    }
    this.overflowed = true;
    const top = heap[0];
    if (top === undefined || compareNames(record, top) >= 0) return;
    heap[0] = record;
    this.siftDown(0);
  }

  /** The names kept, smallest first. */
  sorted(): NameRecord[] {
    return [...this.heap].sort(compareNames);
  }

  private siftUp(start: number): void {
    const heap = this.heap;
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (compareNames(heap[index]!, heap[parent]!) <= 0) return;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    let index = start;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let largest = index;
      if (left < heap.length && compareNames(heap[left]!, heap[largest]!) > 0) largest = left;
      if (right < heap.length && compareNames(heap[right]!, heap[largest]!) > 0) largest = right;
      if (largest === index) return;
      [heap[index], heap[largest]] = [heap[largest]!, heap[index]!];
      index = largest;
    }
  }
}
