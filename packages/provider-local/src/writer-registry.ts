import { renameSync, unlinkSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { hostCode } from './map-node-error.js';

/**
 * A writer's registration: a listening Unix socket at `writer-<id>.sock` in the staging directory,
 * bound by path (not in Linux's abstract namespace). A path socket is found through the filesystem,
 * so a process in another network namespace that sees the directory reaches it; the directory is
 * owner-only, so no other user can bind or remove a name in it; and the kernel closes the listener
 * the moment its process dies, however it dies, after which a connect is refused. So a writer id is
 * alive while a connect to its socket succeeds, and provably gone once it is refused (or the socket
 * was removed: its writer closed, or a sweep found it refused). Node 20 has no flock; this needs no
 * native code.
 */
export interface WriterRegistration {
  /** Closes the listener and removes its name. Idempotent. */
  release(): void;
}

// The bind's failure is also emitted later as an 'error' event, which must not go unhandled.
const ignore = (): void => undefined;

/** The socket name of writer `id`. */
export function writerSocketName(id: string): string {
  return `writer-${id}.sock`;
}

/** Matches a writer's socket name, or the name it is bound under before it listens, and captures its id. */
export const WRITER_SOCKET = /^(?:writer|bind)-([0-9a-f]{16})\.sock$/;

/**
 * Registers writer `id` in the directory whose entries `at` names; null if the bind failed.
 * Synchronous: Node binds and listens inside `listen()`. The socket is bound as `bind-<id>.sock`
 * and renamed into place once it listens, so no prober ever sees `writer-<id>.sock` refusing
 * between bind and listen and takes a live writer for a gone one. A sweep may remove a refusing
 * `bind-` name (one left by a writer killed in that window, or ours before it listens): the rename
 * then fails and the bind is tried again.
 */
export function registerWriter(at: (name: string) => string, id: string): WriterRegistration | null {
  for (let attempt = 0; attempt < 3; attempt++) {
    const registration = bindAndRename(at, id);
    if (registration !== 'retry') return registration;
  }
  return null;
}

function bindAndRename(at: (name: string) => string, id: string): WriterRegistration | null | 'retry' {
  const server = createServer();
  server.on('error', ignore);
  const binding = at(`bind-${id}.sock`);
  // exclusive: a cluster worker must bind for itself, not share the primary's handle.
  server.listen({ path: binding, exclusive: true });
  if (!server.listening) return null;
  const socket = at(writerSocketName(id));
  try {
    renameSync(binding, socket);
  } catch (error) {
    server.close();
    return hostCode(error) === 'ENOENT' ? 'retry' : null;
  }
  // The registration never keeps the process alive by itself; a prober is hung up on at once.
  server.unref();
  server.on('connection', (connection) => connection.destroy());
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      // Removed first, so nobody connects to it between the close and the unlink.
      removeQuietly(socket);
      server.close();
    },
  };
}

/**
 * Whether the writer socket at `hostPath` proves its writer gone: a connect refused (no
 * listener: its process died) or no socket there (it closed, or a sweep removed a gone one). Any
 * other outcome, success included, and a full backlog (EAGAIN) of a writer stopped or busy, counts
 * as alive: only a proof of death lets anyone touch what a writer owns.
 */
export function probeGone(hostPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path: hostPath });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error) => {
      socket.destroy();
      const code = hostCode(error);
      resolve(code === 'ECONNREFUSED' || code === 'ENOENT');
    });
  });
}

function removeQuietly(hostPath: string): void {
  try {
    unlinkSync(hostPath);
  } catch {
    // Already gone (the host removed the staging directory).
  }
}
