import { ROOT_PATH } from '@libos/core';
import { expect, it } from 'vitest';
import { resolveEncoding } from '../src/index.js';

it('resolves @libos/core from source', () => {
  expect(ROOT_PATH).toBe('.');
  expect(resolveEncoding('UTF8').name).toBe('utf-8');
});
