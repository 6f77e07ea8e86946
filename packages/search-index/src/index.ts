export type { SearchIndexStats } from './search-index.js';
export { withSearchIndex } from './with-search-index.js';
export type { IndexedProvider, SearchIndexOptions } from './with-search-index.js';
