export { OUTSIDE_AREA, OUTSIDE_CONTENT, createMemfsFixtures, createMemfsTestbed } from './create-memfs-fixtures.js';
export type { MemfsFixtures } from './create-memfs-fixtures.js';
