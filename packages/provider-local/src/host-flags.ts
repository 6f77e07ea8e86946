import { constants } from 'node:fs';

// Node does not export O_PATH; this is its Linux value on every architecture Node supports.
export const O_PATH = 0o10000000;

/** A directory handle used only as a parent in `/proc/self/fd/<fd>/<name>` paths. */
export const DIRECTORY_HANDLE = O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** A handle on whatever entry a name holds, links included, opened for no I/O at all. */
export const ENTRY_HANDLE = O_PATH | constants.O_NOFOLLOW;
/**
 * Reopening a probed regular file for reading through its `/proc/self/fd/<fd>` magic link. That link
 * names the held inode, not a path, and O_NOFOLLOW would refuse the magic link itself; a FIFO or
 * tty can never block or attach anyway.
 */
export const REOPEN_FILE = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
/** Reopening a pinned directory for real through its magic link (fsync needs more than O_PATH). */
export const REOPEN_DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY;
/** Opening the configured root, which is trusted configuration resolved once. */
export const OPEN_ROOT = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** Exclusive creation: fails on any existing entry, dangling links included, never follows one. */
export const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NOCTTY;

/** The host mode bits of a file type, from `stat().mode`. */
export const S_IFMT = constants.S_IFMT;
