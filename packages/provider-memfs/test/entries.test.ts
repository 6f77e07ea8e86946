import { describe, expect, it } from 'vitest';
import * as main from '../src/index.js';
import * as testing from '../src/testing.js';

describe('entries', () => {
  it('keeps the testbed and fixtures out of the main entry, in ./testing only', () => {
    expect(Object.keys(main).sort()).toEqual(['DEFAULT_MEMFS_ROOT', 'MEMFS_CAPABILITIES', 'SEED_LINKS_AREA', 'createMemfsProvider']);
    expect(Object.keys(testing).sort()).toEqual(['OUTSIDE_AREA', 'OUTSIDE_CONTENT', 'createMemfsFixtures', 'createMemfsTestbed']);
  });
});
