export { createKeyValueFixtures, createKeyValueProvider, createKeyValueStore } from './example/key-value-provider.js';
export type { KeyValueStore, StoredEntry } from './example/key-value-provider.js';
