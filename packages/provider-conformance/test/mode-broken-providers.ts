import { broken, type BrokenCase } from './broken-provider.js';

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/** Providers that break a promise of `writeFile`'s `mode`. */
export const modeBrokenProviders: readonly BrokenCase[] = [
  {
    name: 'ignores the mode it is given',
    factory: broken((inner) => ({
      writeFile: (path, bytes, { mode: _mode, ...options }) => inner.writeFile(path, bytes, options),
    })),
    fails: [
      'write modes > a new file gets exactly the mode given, whatever the default',
      'write modes > a replaced file ends with the mode given, narrower or wider, plain or guarded',
    ],
  },
  {
    name: 'creates the file with the default mode and narrows it afterwards',
    factory: broken((inner, volume, at) => ({
      writeFile: async (path, bytes, { mode, ...options }) => {
        const written = await inner.writeFile(path, bytes, options);
        // The window a chmod after creation leaves: the bytes sit under the default bits meanwhile.
        await turn();
        await turn();
        if (mode !== undefined) volume.chmodSync(at(path), mode);
        return written;
      },
    })),
    fails: ['write modes > a new file with a narrow mode is never seen with wider bits while it is written'],
    passes: ['write modes > a new file gets exactly the mode given, whatever the default'],
  },
  {
    name: 'takes setuid and other bits that are not permission bits',
    factory: broken((inner, volume, at) => ({
      writeFile: async (path, bytes, { mode, ...options }) => {
        const written = await inner.writeFile(path, bytes, options);
        if (mode !== undefined) volume.chmodSync(at(path), Number.isInteger(mode) && mode >= 0 ? mode : 0o644);
        return written;
      },
    })),
    fails: ['write modes > a mode that is not permission bits is invalid_arguments and changes nothing'],
  },
];
