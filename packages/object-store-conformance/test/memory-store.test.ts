import { createMemoryObjectStore } from '@libos/object-memory';
import { describeObjectStore } from '../src/index.js';

describeObjectStore('memory', () => ({ store: createMemoryObjectStore() }));
