import { uniqueCases } from '@libos/conformance-harness';
import { cancellationCases } from './cases/cancellation-cases.js';
import { ledgerCases } from './cases/ledger-cases.js';
import { lifecycleCases } from './cases/lifecycle-cases.js';
import { memoryCases } from './cases/memory-cases.js';
import { namespaceCases } from './cases/namespace-cases.js';
import { objectCases } from './cases/object-cases.js';
import { quotaCases } from './cases/quota-cases.js';
import { raceCases } from './cases/race-cases.js';
import { textCases } from './cases/text-cases.js';
import type { StoreCase } from './store-case.js';

/** Every case of the kit, in report order; ids are unique and stable. */
export const storeConformanceCases: readonly StoreCase[] = uniqueCases([
  ...lifecycleCases,
  ...namespaceCases,
  ...objectCases,
  ...quotaCases,
  ...raceCases,
  ...textCases,
  ...ledgerCases,
  ...memoryCases,
  ...cancellationCases,
]);
