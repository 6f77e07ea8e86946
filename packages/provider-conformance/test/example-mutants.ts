/**
 * One-line mutants of the shipped example provider (`src/example/key-value-provider.ts`), each
 * breaking one documented promise: `find` must occur exactly once in the example, and the kit must
 * fail the mutant. Written as a stranger would break a provider written from the docs.
 */
export const exampleMutants: ReadonlyArray<{ readonly name: string; readonly find: string; readonly replace: string }> = [
  { name: 'not_found names no missing ancestor', find: 'throw providerErrors.notFound(path, at);', replace: 'throw providerErrors.notFound(path);' },
  {
    name: 'not_found names the last missing ancestor, not the first',
    find: 'for (const at of ancestors(path)) {',
    replace: 'for (const at of ancestors(path).reverse()) {',
  },
  {
    name: 'content_conflict without the actual hash',
    find: "if (expected !== undefined && expected !== 'missing' && actual !== expected) throw providerErrors.contentConflict(path, expected, actual);",
    replace: "if (expected !== undefined && expected !== 'missing' && actual !== expected) throw providerErrors.contentConflict(path, expected);",
  },
  {
    name: 'not_a_directory without the file component',
    find: 'throw providerErrors.notADirectory(path, at);',
    replace: 'throw providerErrors.notADirectory(path);',
  },
  {
    name: 'protected_path names the tree, not the .git entry',
    find: "throw providerErrors.protectedPath(path, segments.slice(0, at + 1).join('/') as WorkspacePath);",
    replace: 'throw providerErrors.protectedPath(path, path);',
  },

  {
    name: 'not_a_file says other for a directory',
    find: "if (entry.kind !== 'file') throw providerErrors.notAFile(path, 'directory');",
    replace: "if (entry.kind !== 'file') throw providerErrors.notAFile(path, 'other');",
  },
  {
    name: 'a written file has a modifiedAt that is not ISO 8601',
    find: "store.set(path, { kind: 'file', bytes: bytes.slice(), modifiedAt: now() });",
    replace: "store.set(path, { kind: 'file', bytes: bytes.slice(), modifiedAt: new Date().toString() });",
  },
  {
    name: 'a made directory has a modifiedAt that is not ISO 8601',
    find: "store.set(path, { kind: 'directory', modifiedAt: now() });",
    replace: "store.set(path, { kind: 'directory', modifiedAt: String(Date.now()) });",
  },
  {
    name: 'a rename of a file onto itself is refused',
    find: 'if (from === to) return { replaced: false };',
    replace: 'if (from === to) throw providerErrors.alreadyExists(to);',
  },
  {
    name: 'deleteFile with missingOk fails when an ancestor is missing',
    find: 'if (lookup(path, options.missingOk) === undefined && options.missingOk) return { deleted: false };',
    replace: 'if (lookup(path) === undefined && options.missingOk) return { deleted: false };',
  },
  {
    name: 'deleteDirectory with missingOk fails when an ancestor is missing',
    find: 'const entry = lookup(path, options.missingOk);',
    replace: 'const entry = lookup(path);',
  },
  {
    name: 'a removed root is provider_failure, not not_found',
    find: "if (store.get(ROOT_PATH)?.kind !== 'directory') throw providerErrors.rootGone(path);",
    replace: "if (store.get(ROOT_PATH)?.kind !== 'directory') throw providerErrors.failure(path, null);",
  },
  {
    name: 'a removed root goes unnoticed',
    find: "if (store.get(ROOT_PATH)?.kind !== 'directory') throw providerErrors.rootGone(path);",
    replace: '',
  },
  { name: 'the signal is ignored', find: 'checkSignal(options?.signal, path);', replace: '' },
  { name: 'close does nothing', find: 'close: () => gate.close(),', replace: 'close: async () => {},' },
  {
    name: 'listing ignores limit',
    find: 'new SmallestItems<string>(options.limit, compareCodePoints)',
    replace: 'new SmallestItems<string>(Number.MAX_SAFE_INTEGER, compareCodePoints)',
  },
  {
    name: 'listing sorts by UTF-16 units',
    find: 'new SmallestItems<string>(options.limit, compareCodePoints)',
    replace: 'new SmallestItems<string>(options.limit, (a, b) => (a < b ? -1 : a > b ? 1 : 0))',
  },
  { name: 'listing shows deeper entries', find: 'if (parentPath(key as WorkspacePath) === path) kept.offer(key);', replace: 'kept.offer(key);' },
  {
    name: 'a directory has a size',
    find: "sizeBytes: entry.kind === 'file' ? entry.bytes.length : null",
    replace: "sizeBytes: entry.kind === 'file' ? entry.bytes.length : 0",
  },
  {
    name: 'readFile ignores maxBytes',
    find: 'return { bytes: bytes.slice(0, options.maxBytes), truncated',
    replace: 'return { bytes: bytes.slice(), truncated',
  },
  {
    name: 'readFile hands out the stored bytes',
    find: 'return { bytes: bytes.slice(0, options.maxBytes), truncated',
    replace: 'return { bytes: bytes.subarray(0, options.maxBytes), truncated',
  },
  { name: 'truncated is off by one', find: 'truncated: bytes.length > options.maxBytes', replace: 'truncated: bytes.length >= options.maxBytes' },
  {
    name: 'writeFile ignores overwrite: false',
    find: 'if (entry !== undefined && !options.overwrite) throw providerErrors.alreadyExists(path);',
    replace: '',
  },
  {
    name: 'writeFile ignores a mismatching expectedSha256',
    find: "if (expected !== undefined && expected !== 'missing' && actual !== expected) throw providerErrors.contentConflict(path, expected, actual);",
    replace: '',
  },
  {
    name: "writeFile ignores expectedSha256: 'missing'",
    find: "if (expected === 'missing' && entry !== undefined) throw providerErrors.contentConflict(path, expected, actual);",
    replace: '',
  },
  {
    name: 'writeFile keeps the caller buffer',
    find: "store.set(path, { kind: 'file', bytes: bytes.slice(), modifiedAt: now() });",
    replace: "store.set(path, { kind: 'file', bytes, modifiedAt: now() });",
  },
  { name: 'writeFile always says created', find: 'return { created: entry === undefined };', replace: 'return { created: true };' },
  {
    name: 'a write onto a directory replaces it',
    find: "if (entry?.kind === 'directory') throw providerErrors.notAFile(path, 'directory');",
    replace: '',
  },
  {
    name: 'makeDirectory ignores existOk: false',
    find: 'if (entry !== undefined && !options.existOk) throw providerErrors.alreadyExists(path);',
    replace: '',
  },
  {
    name: 'makeDirectory says created for an existing directory',
    find: 'if (entry !== undefined) return { created: false };',
    replace: 'if (entry !== undefined) return { created: true };',
  },
  { name: 'deleteDirectory of the root is not refused', find: 'if (path === ROOT_PATH) throw providerErrors.rootRefused(path);', replace: '' },
  {
    name: 'a non-recursive delete removes a directory holding one entry',
    find: 'if (inside.length > 0 && !options.recursive)',
    replace: 'if (inside.length > 1 && !options.recursive)',
  },
  { name: 'a recursive delete misses a .git one level down', find: 'if (at >= 0) throw', replace: 'if (at > 1) throw' },
  {
    name: 'rename ignores overwrite: false',
    find: 'if (target !== undefined && !options.overwrite) throw providerErrors.alreadyExists(to);',
    replace: '',
  },
  { name: 'rename never says replaced', find: 'return { replaced: target !== undefined };', replace: 'return { replaced: false };' },
  { name: 'rename leaves the source behind', find: 'store.delete(from);', replace: '' },
];
