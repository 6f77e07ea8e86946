import { isAscii } from './listed-names.js';

/**
 * Builds the `/proc/self/fd/<fd>/<name>` paths that stand in for the `*at` system calls Node lacks:
 * the kernel resolves `name` inside the directory the fd pins, whatever has happened to its path.
 */
export class FdPaths {
  constructor(private readonly procFdDirectory: string) {}

  /** The magic link of an fd itself, e.g. to reopen an O_PATH handle or stream a directory. */
  of(fd: number): string {
    return `${this.procFdDirectory}/${fd}`;
  }

  /**
   * One raw name, given as a byte string (one char per byte), inside the directory `fd` pins. ASCII
   * names stay strings; any other name becomes a Buffer so the host sees exactly its bytes.
   */
  child(fd: number, raw: string): string | Buffer {
    if (isAscii(raw)) return `${this.procFdDirectory}/${fd}/${raw}`;
    return Buffer.concat([Buffer.from(`${this.procFdDirectory}/${fd}/`), Buffer.from(raw, 'latin1')]);
  }

  /** Like `child` for a string name, typed as a string. */
  named(fd: number, name: string): string {
    return `${this.procFdDirectory}/${fd}/${name}`;
  }
}
