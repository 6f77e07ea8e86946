import { broken, type BrokenCase } from './broken-provider.js';

/** Providers that break a promise of appendFile, copyFile or readFileRange; with the ids they must fail. */
export const appendCopyBrokenProviders: readonly BrokenCase[] = [
  {
    name: 'appends without checking the expected size',
    factory: broken((inner) => ({
      appendFile: (path, bytes, { expectedSizeBytes: _ignored, ...options }) => inner.appendFile!(path, bytes, options),
    })),
    fails: [
      'append > expectedSizeBytes must match the size at the append, else content_conflict and nothing written',
      'append > of two appenders expecting the same size exactly one lands, and racing plain appends all land',
    ],
    passes: ['append > adds bytes at the end and reports the new size'],
  },
  {
    name: 'writes the empty-file prefix before every append',
    factory: broken((inner) => ({
      appendFile: async (path, bytes, options) => {
        const prefix = options.emptyFilePrefix ?? new Uint8Array(0);
        const whole = new Uint8Array(prefix.length + bytes.length);
        whole.set(prefix);
        whole.set(bytes, prefix.length);
        const { emptyFilePrefix: _dropped, ...rest } = options;
        return inner.appendFile!(path, whole, rest);
      },
    })),
    fails: ['append > the empty-file prefix lands only on an empty or new file'],
  },
  {
    name: 'copies over an existing file when overwrite is false',
    factory: broken((inner) => ({
      copyFile: (from, to) => inner.copyFile!(from, to, { overwrite: true }),
    })),
    fails: ['copy > overwrite false refuses anything at the target, overwrite true replaces a file'],
    passes: ['copy > copies bytes and mode to a new name, creating missing parents'],
  },
  {
    name: 'reads a tail from the start of the file',
    factory: broken((inner) => ({
      readFileRange: (path, { fromEnd: _ignored, ...options }) => inner.readFileRange!(path, options),
    })),
    fails: ['reading ranges > reads at an offset and from the end'],
  },
];
