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

  /** One name inside the directory `fd` pins; `name` is a single component, never `.` or `..`. */
  child(fd: number, name: string | Buffer): string | Buffer {
    if (typeof name === 'string') return `${this.procFdDirectory}/${fd}/${name}`;
    return Buffer.concat([Buffer.from(`${this.procFdDirectory}/${fd}/`), name]);
  }

  /** Like `child` for a string name, typed as a string. */
  named(fd: number, name: string): string {
    return `${this.procFdDirectory}/${fd}/${name}`;
  }
}
