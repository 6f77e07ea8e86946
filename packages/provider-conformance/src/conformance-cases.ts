import { uniqueCases } from '@libos/conformance-harness';
import { appendCases } from './cases/append-cases.js';
import { copyCases } from './cases/copy-cases.js';
import { rangeCases } from './cases/range-cases.js';
import { checkPathCases } from './cases/check-path-cases.js';
import { cancellationCases } from './cases/cancellation-cases.js';
import { atomicReplaceCases, exclusiveCreateCases } from './cases/concurrency-cases.js';
import { deleteDirectoryCases, deleteFileCases } from './cases/delete-cases.js';
import { directoryCases } from './cases/directory-cases.js';
import { directoryBatchReadCases } from './cases/directory-batch-read-cases.js';
import { directoryHandleCases } from './cases/directory-handle-cases.js';
import { treeSearchCases } from './cases/tree-search-cases.js';
import { errorTableCases } from './cases/error-table.js';
import { gitCases } from './cases/git-cases.js';
import { hardLinkCases, symlinkCases } from './cases/link-cases.js';
import { lifecycleCases } from './cases/lifecycle-cases.js';
import { listingCases } from './cases/listing-cases.js';
import { nameCases } from './cases/name-cases.js';
import { readCases } from './cases/read-cases.js';
import { renameCases } from './cases/rename-cases.js';
import { specialFileCases } from './cases/special-file-cases.js';
import { stagingCases } from './cases/staging-cases.js';
import { statCases } from './cases/stat-cases.js';
import { writeCases } from './cases/write-cases.js';
import { modeCases } from './cases/mode-cases.js';
import type { ConformanceCase } from './conformance-case.js';

/**
 * Every case of the kit, grouped by feature (`stat`, `listing`, ..., `symlinks`, `.git`); as data, so a
 * test can run any of them with `runCase`, outside `describeProvider`.
 */
export const conformanceCases: readonly ConformanceCase[] = uniqueCases([
  ...statCases,
  ...listingCases,
  ...readCases,
  ...writeCases,
  ...modeCases,
  ...nameCases,
  ...atomicReplaceCases,
  ...exclusiveCreateCases,
  ...stagingCases,
  ...directoryCases,
  ...deleteFileCases,
  ...deleteDirectoryCases,
  ...renameCases,
  ...appendCases,
  ...copyCases,
  ...rangeCases,
  ...checkPathCases,
  ...directoryHandleCases,
  ...directoryBatchReadCases,
  ...treeSearchCases,
  ...symlinkCases,
  ...hardLinkCases,
  ...specialFileCases,
  ...gitCases,
  ...lifecycleCases,
  ...cancellationCases,
  ...errorTableCases(),
]);
