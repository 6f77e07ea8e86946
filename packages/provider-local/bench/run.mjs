// Runs every provider-local benchmark against the built dist (run `npx tsup` in core and here first).
import { benchAppendFile } from './append-file.mjs';
import { benchEditFile } from './edit-file.mjs';
import { benchSearchTree } from './search-tree.mjs';
import { benchListLargeDirectory } from './list-large-directory.mjs';
import { benchNameLock } from './name-lock.mjs';
import { benchReadSmallFile } from './read-small-file.mjs';
import { benchRecursiveDelete } from './recursive-delete.mjs';
import { benchSparsePrefix } from './sparse-prefix.mjs';
import { benchWriteFile, benchWriteFileOnTmpfs } from './write-file.mjs';

console.log(`@libos/provider-local benchmarks (Node ${process.version}, ${process.platform})`);
await benchReadSmallFile();
await benchSparsePrefix();
await benchListLargeDirectory();
await benchRecursiveDelete();
await benchNameLock();
await benchWriteFile();
await benchWriteFileOnTmpfs();
await benchAppendFile();
await benchEditFile();
await benchSearchTree();
