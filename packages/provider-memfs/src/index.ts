export { DEFAULT_MEMFS_ROOT, MEMFS_CAPABILITIES, createMemfsProvider } from './create-memfs-provider.js';
export type { MemfsProviderOptions } from './create-memfs-provider.js';
export { SEED_LINKS_AREA } from './seed-volume.js';
