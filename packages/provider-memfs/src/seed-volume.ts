import * as host from 'node:fs';
import { join } from 'node:path';
import { LibosError } from '@libos/core';
import { hostErrorCode } from '@libos/provider-kit';
import type { IFs } from 'memfs';

/** Where twin links of files hard-linked from outside the seed go: on the volume, outside the root. */
export const SEED_LINKS_AREA = '/.libos-seed-links';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

interface MultiLink {
  readonly volumePath: string;
  readonly hostLinks: number;
  found: number;
}

/**
 * Copies the host directory `seed` into `fs` at the volume directory `root`, reading the host with
 * lstat only: symlinks keep their target text, hard links inside the tree share one inode, FIFOs,
 * sockets and devices become inert nodes of the same type, and modes and mtimes come across. A file
 * whose host nlink counts names outside the seed gets a twin link outside the root, so it stays
 * hard-linked (and refused) as on disk. A host name that is not valid UTF-8 refuses the whole seed:
 * memfs would store it with U+FFFD, which a path on disk could never open.
 */
export function seedVolume(fs: IFs, seed: string, root: string): void {
  let seedStats: host.Stats;
  try {
    // The seed itself is named by the user, so it may be a link (macOS /tmp); nothing below is followed.
    seedStats = host.statSync(seed);
  } catch {
    throw new LibosError('invalid_arguments', 'The seed directory does not exist or cannot be read.');
  }
  if (!seedStats.isDirectory()) throw new LibosError('invalid_arguments', 'The seed path is not a directory.');
  if (root !== '/' && fs.lstatSync(root, { throwIfNoEntry: false }) !== undefined) {
    throw new LibosError('invalid_arguments', 'A seed needs a workspace root that does not exist yet on the volume.');
  }
  makeAncestors(fs, root);
  if (root !== '/') fs.mkdirSync(root, { mode: 0o700 });
  const multiLinks = new Map<string, MultiLink>();
  // Children before parents: adding an entry moves a directory's mtime, and a 0o555 one refuses entries.
  const directories: Array<[string, host.Stats]> = [];
  const finish = (volumePath: string, stats: host.Stats): void => {
    fs.chmodSync(volumePath, stats.mode & 0o7777); // before the times: memfs chmod moves mtime
    fs.lutimesSync(volumePath, stats.atime, stats.mtime);
  };

  const copyEntry = (hostDirectory: string, volumeDirectory: string, name: string, entryPath: string): void => {
    const from = join(hostDirectory, name);
    const to = `${volumeDirectory === '/' ? '' : volumeDirectory}/${name}`;
    const stats = host.lstatSync(from);
    const key = `${stats.dev}:${stats.ino}`;
    const known = multiLinks.get(key);
    if (stats.isSymbolicLink()) {
      fs.symlinkSync(host.readlinkSync(from), to);
      fs.lutimesSync(to, stats.atime, stats.mtime);
    } else if (stats.isDirectory()) {
      fs.mkdirSync(to, { mode: 0o700 });
      walk(from, to, entryPath);
      directories.push([to, stats]);
    } else if (stats.isFile() && known !== undefined) {
      fs.linkSync(known.volumePath, to);
      known.found++;
    } else if (stats.isFile()) {
      copyFile(fs, from, to, stats, entryPath);
      if (stats.nlink > 1) multiLinks.set(key, { volumePath: to, hostLinks: stats.nlink, found: 1 });
      finish(to, stats);
    } else {
      const { O_CREAT, O_EXCL, O_WRONLY, S_IFMT } = fs.constants;
      fs.closeSync(fs.openSync(to, O_CREAT | O_EXCL | O_WRONLY, (stats.mode & S_IFMT) | 0o600));
      finish(to, stats);
    }
  };
  const walk = (hostDirectory: string, volumeDirectory: string, relative: string): void => {
    const names = guarded(relative, () => host.readdirSync(hostDirectory, { encoding: 'buffer' }));
    for (const raw of names) {
      const name = decodeName(raw, relative);
      const entryPath = relative === '' ? name : `${relative}/${name}`;
      guarded(entryPath, () => copyEntry(hostDirectory, volumeDirectory, name, entryPath));
    }
  };
  walk(seed, root, '');
  // Before the directories get their real modes: a 0o000 one would refuse the link's path walk.
  guarded('', () => addTwinLinks(fs, root, multiLinks));
  directories.push([root, seedStats]);
  guarded('', () => {
    for (const [volumePath, stats] of directories) finish(volumePath, stats);
  });
}

/**
 * Runs one step of the seed, turning a host or volume error into a LibosError that names the
 * seed-relative path only: node's and memfs's messages hold host and volume paths.
 */
function guarded<T>(relative: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (LibosError.is(error)) throw error;
    const code = hostErrorCode(error) ?? null;
    const shown = relative === '' ? '.' : relative;
    throw new LibosError(
      'provider_failure',
      `Seeding failed at '${shown}' (${code ?? 'unknown error'}); the seed directory may have changed while it was copied.`,
      {
        details: { path: shown, host_code: code },
      },
    );
  }
}

function decodeName(raw: Buffer, relative: string): string {
  try {
    return strictUtf8.decode(raw);
  } catch {
    const shown = new TextDecoder('utf-8').decode(raw);
    throw new LibosError('invalid_arguments', 'The seed directory holds a name that is not valid UTF-8, which memfs cannot store.', {
      details: { path: relative === '' ? shown : `${relative}/${shown}` },
    });
  }
}

function copyFile(fs: IFs, from: string, to: string, stats: host.Stats, relative: string): void {
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = host.constants;
  const fd = host.openSync(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  let bytes: Buffer;
  try {
    const opened = host.fstatSync(fd);
    // An inode number freed by an unlink is often reused at once, by a directory too.
    if (!opened.isFile() || opened.ino !== stats.ino || opened.dev !== stats.dev) {
      throw new LibosError('provider_failure', 'A seed file changed while it was being copied.', { details: { path: relative } });
    }
    bytes = host.readFileSync(fd);
  } finally {
    host.closeSync(fd);
  }
  const { O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
  // Written as 0o600 and given its real mode afterwards: memfs refuses to write a 0o444 file it creates.
  const target = fs.openSync(to, O_WRONLY | O_CREAT | O_EXCL, 0o600);
  try {
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(target, bytes, written, bytes.length - written, written);
  } finally {
    fs.closeSync(target);
  }
}

/** Keeps nlink above 1 for files whose other names live outside the seed (packages/provider-memfs/README.md, Why memfs). */
function addTwinLinks(fs: IFs, root: string, multiLinks: Map<string, MultiLink>): void {
  // With the workspace at the volume root there is no outside to hide twins in.
  if (root === '/') return;
  let created = false;
  let counter = 0;
  for (const link of multiLinks.values()) {
    for (let missing = link.hostLinks - link.found; missing > 0; missing--) {
      if (!created && fs.lstatSync(SEED_LINKS_AREA, { throwIfNoEntry: false }) === undefined) fs.mkdirSync(SEED_LINKS_AREA, { mode: 0o700 });
      created = true;
      fs.linkSync(link.volumePath, `${SEED_LINKS_AREA}/${counter++}`);
    }
  }
}

function makeAncestors(fs: IFs, root: string): void {
  let current = '';
  const segments = root.split('/').filter((segment) => segment !== '');
  for (const segment of segments.slice(0, -1)) {
    current = `${current}/${segment}`;
    if (fs.lstatSync(current, { throwIfNoEntry: false }) === undefined) fs.mkdirSync(current, { mode: 0o755 });
  }
}
