import { LibosError } from '@libos/core';
import { broken, turn, type BrokenCase } from './broken-provider.js';
import type { Volume } from './memfs-testbed.js';

const parentOf = (hostPath: string) => hostPath.slice(0, hostPath.lastIndexOf('/'));
const isDirectory = (volume: Volume, hostPath: string): boolean => {
  try {
    return volume.lstatSync(hostPath).isDirectory();
  } catch {
    return false;
  }
};

function depthBelow(volume: Volume, hostPath: string): number {
  let deepest = 0;
  for (const name of volume.readdirSync(hostPath) as string[]) {
    const child = `${hostPath}/${name}`;
    if (isDirectory(volume, child)) deepest = Math.max(deepest, 1 + depthBelow(volume, child));
  }
  return deepest;
}

/** Providers whose intermediate state shows, or whose deletes fall short of the path bound; with the ids they must fail. */
export const stagingBrokenProviders: readonly BrokenCase[] = [
  {
    name: 'stages its temporary beside the target, where a listing sees it',
    factory: broken((inner, volume, at) => ({
      writeFile: async (path, bytes, options) => {
        const temporary = `${at(path)}.staging`;
        if (isDirectory(volume, parentOf(at(path)))) {
          volume.writeFileSync(temporary, bytes);
          for (let index = 0; index < 3; index++) await turn();
          volume.unlinkSync(temporary);
        }
        return inner.writeFile(path, bytes, options);
      },
    })),
    fails: ['temporaries > listings during writes show only the names written'],
    passes: ['temporaries > a file created with overwrite: false is never seen empty or partial'],
  },
  {
    name: 'creates a new file in place, half written first',
    factory: broken((inner, volume, at) => ({
      writeFile: async (path, bytes, options) => {
        const target = at(path);
        if (!isDirectory(volume, parentOf(target)) || volume.existsSync(target)) return inner.writeFile(path, bytes, options);
        volume.writeFileSync(target, bytes.subarray(0, bytes.length >> 1));
        for (let index = 0; index < 3; index++) await turn();
        volume.writeFileSync(target, bytes);
        return { created: true };
      },
    })),
    fails: [
      'temporaries > a file created with overwrite: false is never seen empty or partial',
      "temporaries > a file created with expectedSha256: 'missing' is never seen empty or partial",
      'temporaries > a file created with overwrite: true is never seen empty or partial',
    ],
    passes: ['temporaries > listings during writes show only the names written'],
  },
  {
    name: 'refuses to delete a tree more than 1000 levels deep',
    factory: broken((inner, volume, at) => ({
      deleteDirectory: async (path, options) => {
        if (options.recursive && isDirectory(volume, at(path)) && depthBelow(volume, at(path)) > 1000) {
          throw new LibosError('provider_failure', 'The tree is too deep.', { effect: 'none' });
        }
        return inner.deleteDirectory(path, options);
      },
    })),
    fails: ['names > the deepest tree a canonical path can reach is made, written into and deleted whole'],
    passes: ['.git > recursive delete refuses a .git forty levels down'],
  },
  {
    name: 'says it reserves a name its writes still accept',
    factory: broken(() => ({
      checkPath: (path, options) => {
        if (path.split('/').includes('.libos-staging')) {
          throw options.creates ? new LibosError('protected_path', 'reserved', { details: { path } }) : new LibosError('not_found', 'reserved');
        }
      },
    })),
    fails: ['check path > refuses exactly the paths its writes refuse, with the same code, and changes nothing'],
  },
];
