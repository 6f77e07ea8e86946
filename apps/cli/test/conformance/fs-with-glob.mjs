// Node 20's fs, plus globSync from the `glob` package (see register-fs-glob.mjs).
import fs from 'node:fs';

export * from 'node:fs';
export { globSync } from 'glob';
export default fs;
