export { DEFAULT_MEMFS_ROOT, MEMFS_CAPABILITIES, createMemfsProvider } from './create-memfs-provider.js';
export type { MemfsProviderOptions } from './create-memfs-provider.js';
export { OUTSIDE_AREA, OUTSIDE_CONTENT, createMemfsFixtures, createMemfsTestbed } from './create-memfs-fixtures.js';
export type { MemfsFixtures } from './create-memfs-fixtures.js';
export { SEED_LINKS_AREA } from './seed-volume.js';
