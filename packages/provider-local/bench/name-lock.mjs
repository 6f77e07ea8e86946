// The name lock alone: taking and giving up the lock of one name, as a link in an owner-only
// directory (one symlink, one unlink; src/host-lock.ts) against the socket bound in Linux's abstract
// namespace it replaced (socket, bind, listen, close). The mechanisms are reproduced here, since
// neither is exported. Informational: on ext4 the link is journaled, and the target is the write
// itself (write-file.mjs), where the lock is taken while the bytes flush.
import { chmodSync, mkdirSync, symlinkSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { compare, scratch } from './bench-util.mjs';

const ignore = () => undefined;

function abstractSocketLock(name) {
  const server = createServer();
  server.on('error', ignore);
  server.listen({ path: `\0${name}`, exclusive: true });
  if (!server.listening) throw new Error('held');
  server.unref();
  server.close();
}

export async function benchNameLock() {
  const { base, done } = scratch('lock');
  try {
    const directory = join(base, 'staging');
    mkdirSync(directory);
    chmodSync(directory, 0o700);
    const link = join(directory, 'lock-0123456789abcdef0123456789abcdef01234567');
    const name = `libos-bench-${process.pid}`;
    const timing = await compare({
      ours: () => {
        symlinkSync('0123456789abcdef', link);
        unlinkSync(link);
      },
      baseline: () => abstractSocketLock(name),
      rounds: 31,
      callsPerRound: 500,
      warmup: 200,
    });
    const [ours, old] = [timing.ours * 1000, timing.baseline * 1000];
    console.log(
      `name lock taken and given up: symlink + unlink ${ours.toFixed(1)} µs vs abstract socket bind + close ${old.toFixed(1)} µs (informational)`,
    );
  } finally {
    done();
  }
}
