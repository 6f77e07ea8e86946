import { readFileSync } from 'node:fs';

const rootMounts = new WeakMap<object, number | null>();

/**
 * The kernel's mount id of an open fd, from `/proc/self/fdinfo`. Unlike `st_dev` it tells a bind
 * mount of the same filesystem from its parent. Null when the kernel does not report one.
 */
export function mountIdOf(fd: number): number | null {
  try {
    const match = /^mnt_id:\s*(\d+)$/mu.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'));
    return match === null ? null : Number(match[1]);
  } catch {
    return null;
  }
}

/** The root's mount id, read once per pinned root (the root itself may be a mount point). */
export function rootMountId(root: { readonly fd: number }): number | null {
  let id = rootMounts.get(root);
  if (id === undefined) {
    id = mountIdOf(root.fd);
    rootMounts.set(root, id);
  }
  return id;
}
