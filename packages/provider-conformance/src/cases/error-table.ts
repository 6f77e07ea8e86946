import { ROOT_PATH, isPathWithin, parentPath, parseCanonicalPath } from '@libos/core';
import type { ErrorCode } from '@libos/core';
import { defineCase } from '../conformance-case.js';
import type { CaseContext, ConformanceCase } from '../conformance-case.js';
import { detailValuesDrift } from './detail-values.js';
import { operations } from './operations.js';
import type { OperationName } from './operations.js';
import { basicPreconditions, isLeafPosition, linkKinds, linkPositions, linkPrecondition } from './preconditions.js';
import type { BasicPreconditionName, Precondition } from './preconditions.js';

/** One row: run `operation` on the state `precondition` builds; it must fail with one of the codes and change nothing. */
export type ErrorRow = readonly [operation: OperationName, precondition: BasicPreconditionName, expected: ErrorCode | readonly ErrorCode[]];

/**
 * Failures of states without links. Where the wrong kind and another rule both refuse, the kind wins;
 * where an option decides by existence (`overwrite: false`, `expectedSha256`), its own code is accepted
 * beside the hard-link refusal; where `overwrite: false` and `expectedSha256` both refuse, `already_exists` wins.
 */
export const errorRows: readonly ErrorRow[] = [
  ['stat', 'a missing parent', 'not_found'],
  ['stat', 'a path through a file', 'not_a_directory'],
  ['stat', 'a path through a nested file', 'not_a_directory'],
  ['stat', 'a path through a fifo', 'not_a_directory'],
  ['listDirectory', 'missing', 'not_found'],
  ['listDirectory', 'a missing parent', 'not_found'],
  ['listDirectory', 'a file', 'not_a_directory'],
  ['listDirectory', 'a path through a file', 'not_a_directory'],
  ['listDirectory', 'a fifo', 'not_a_directory'],
  ['listDirectory', 'a hard-linked file', 'not_a_directory'],
  ['readFile', 'missing', 'not_found'],
  ['readFile', 'a missing parent', 'not_found'],
  ['readFile', 'a directory', 'not_a_file'],
  ['readFile', 'the root', 'not_a_file'],
  ['readFile', 'a path through a file', 'not_a_directory'],
  ['readFile', 'a path through a nested file', 'not_a_directory'],
  ['readFile', 'a fifo', 'not_a_file'],
  ['readFile', 'a path through a fifo', 'not_a_directory'],
  ['readFile', 'a hard-linked file', 'hard_link_refused'],
  ['readFile', 'a hard-linked file in another directory', 'hard_link_refused'],
  ['readFile', 'a file hard-linked from outside', 'hard_link_refused'],
  ['writeFile', 'a directory', 'not_a_file'],
  ['writeFile', 'a non-empty directory', 'not_a_file'],
  ['writeFile', 'the root', 'not_a_file'],
  ['writeFile', 'a path through a file', 'not_a_directory'],
  ['writeFile', 'a path through a nested file', 'not_a_directory'],
  ['writeFile', 'a fifo', 'not_a_file'],
  ['writeFile', 'a path through a fifo', 'not_a_directory'],
  ['writeFile', 'a hard-linked file', 'hard_link_refused'],
  ['writeFile', 'a hard-linked file in another directory', 'hard_link_refused'],
  ['writeFile', 'a file hard-linked from outside', 'hard_link_refused'],
  ['writeFile overwrite:false', 'a file', 'already_exists'],
  ['writeFile overwrite:false', 'a directory', 'not_a_file'],
  ['writeFile overwrite:false', 'the root', 'not_a_file'],
  ['writeFile overwrite:false', 'a path through a file', 'not_a_directory'],
  ['writeFile overwrite:false', 'a fifo', 'not_a_file'],
  ['writeFile overwrite:false', 'a hard-linked file', ['already_exists', 'hard_link_refused']],
  ['writeFile expectedSha256:missing', 'a file', 'content_conflict'],
  ['writeFile expectedSha256:missing', 'a directory', 'not_a_file'],
  ['writeFile expectedSha256:missing', 'a fifo', 'not_a_file'],
  ['writeFile expectedSha256:missing', 'a hard-linked file', ['content_conflict', 'hard_link_refused']],
  ['writeFile expectedSha256 of the old bytes', 'missing', 'content_conflict'],
  ['writeFile expectedSha256 of the old bytes', 'a missing parent', 'content_conflict'],
  ['writeFile expectedSha256 of the old bytes', 'a directory', 'not_a_file'],
  ['writeFile expectedSha256 of the old bytes', 'a fifo', 'not_a_file'],
  ['writeFile expectedSha256 of the old bytes', 'a hard-linked file', 'hard_link_refused'],
  ['writeFile expectedSha256 of other bytes', 'a file', 'content_conflict'],
  ['writeFile expectedSha256 of other bytes', 'a hard-linked file', ['content_conflict', 'hard_link_refused']],
  // Both options refuse an existing file: existence is decided first, so overwrite:false wins.
  ['writeFile overwrite:false expectedSha256:missing', 'a file', 'already_exists'],
  ['writeFile overwrite:false expectedSha256 of other bytes', 'a file', 'already_exists'],
  ['writeFile overwrite:false expectedSha256 of other bytes', 'missing', 'content_conflict'],
  ['makeDirectory', 'a file', 'not_a_directory'],
  ['makeDirectory', 'a path through a file', 'not_a_directory'],
  ['makeDirectory', 'a path through a nested file', 'not_a_directory'],
  ['makeDirectory', 'a fifo', 'not_a_directory'],
  ['makeDirectory', 'a hard-linked file', 'not_a_directory'],
  ['makeDirectory existOk:false', 'a directory', 'already_exists'],
  ['makeDirectory existOk:false', 'the root', 'already_exists'],
  ['makeDirectory existOk:false', 'a file', 'not_a_directory'],
  ['makeDirectory parents:false', 'a missing parent', 'not_found'],
  ['makeDirectory parents:false', 'a path through a file', 'not_a_directory'],
  ['deleteFile', 'missing', 'not_found'],
  ['deleteFile', 'a missing parent', 'not_found'],
  ['deleteFile', 'a directory', 'not_a_file'],
  ['deleteFile', 'the root', 'not_a_file'],
  ['deleteFile', 'a path through a file', 'not_a_directory'],
  ['deleteFile', 'a fifo', 'not_a_file'],
  ['deleteFile', 'a hard-linked file', 'hard_link_refused'],
  ['deleteFile', 'a hard-linked file in another directory', 'hard_link_refused'],
  ['deleteFile', 'a file hard-linked from outside', 'hard_link_refused'],
  ['deleteFile missingOk', 'a directory', 'not_a_file'],
  ['deleteFile missingOk', 'a path through a file', 'not_a_directory'],
  ['deleteDirectory', 'missing', 'not_found'],
  ['deleteDirectory', 'a missing parent', 'not_found'],
  ['deleteDirectory', 'a file', 'not_a_directory'],
  ['deleteDirectory', 'a non-empty directory', 'directory_not_empty'],
  ['deleteDirectory', 'a directory holding only an empty directory', 'directory_not_empty'],
  ['deleteDirectory', 'a directory holding only a .git directory', 'directory_not_empty'],
  ['deleteDirectory', 'a directory holding only a link', 'directory_not_empty'],
  ['deleteDirectory', 'a directory holding only a fifo', 'directory_not_empty'],
  ['deleteDirectory', 'a path through a file', 'not_a_directory'],
  ['deleteDirectory', 'a fifo', 'not_a_directory'],
  ['deleteDirectory', 'a hard-linked file', 'not_a_directory'],
  // The runtime refuses the root before any provider call; a provider holds the line too.
  ['deleteDirectory', 'the root', 'root_refused'],
  ['deleteDirectory recursive', 'the root', 'root_refused'],
  ['deleteDirectory recursive missingOk', 'the root', 'root_refused'],
  ['deleteDirectory recursive', 'missing', 'not_found'],
  ['deleteDirectory recursive', 'a file', 'not_a_directory'],
  ['deleteDirectory recursive', 'a fifo', 'not_a_directory'],
  ['deleteDirectory recursive missingOk', 'a file', 'not_a_directory'],
  ['deleteDirectory recursive missingOk', 'a path through a file', 'not_a_directory'],
];

const leafOperations: readonly OperationName[] = [
  'listDirectory',
  'readFile',
  'writeFile',
  'writeFile overwrite:false',
  'writeFile expectedSha256:missing',
  'writeFile expectedSha256 of the old bytes',
  'makeDirectory',
  'makeDirectory existOk:false',
  'deleteFile',
  'deleteFile missingOk',
  'deleteDirectory',
  'deleteDirectory recursive',
];

// Options that decide by existence may answer with their own code for a link at the leaf: the link is
// still never followed, which the unchanged snapshot proves.
const existenceCodes: Partial<Record<OperationName, ErrorCode>> = {
  'writeFile overwrite:false': 'already_exists',
  'writeFile expectedSha256:missing': 'content_conflict',
  'writeFile expectedSha256 of the old bytes': 'content_conflict',
};

interface TableRow {
  readonly operation: OperationName;
  readonly name: string;
  readonly precondition: Precondition;
  readonly expected: readonly ErrorCode[];
}

/** Every link kind in every position under every operation: always `symlink_refused`. */
export function linkRows(): TableRow[] {
  const rows: TableRow[] = [];
  for (const position of linkPositions) {
    const leaf = isLeafPosition(position);
    const operationNames: readonly OperationName[] = leaf ? leafOperations : ['stat', ...leafOperations, 'makeDirectory parents:false'];
    for (const kind of linkKinds) {
      for (const operation of operationNames) {
        const existence = leaf ? existenceCodes[operation] : undefined;
        rows.push({
          operation,
          name: `a link ${kind} ${position}`,
          precondition: linkPrecondition(kind, position),
          expected: existence === undefined ? ['symlink_refused'] : ['symlink_refused', existence],
        });
      }
    }
  }
  return rows;
}

// The fixtures cannot list, so a stray entry (a temporary file left by a refused write) shows only in
// the provider's own listings of the root and of the target's parent; a refused listing is recorded as such.
async function listedNames(context: CaseContext, path: string): Promise<string> {
  const target = context.path(path);
  const directories = [...new Set([ROOT_PATH, parentPath(target) ?? ROOT_PATH])];
  const lines: string[] = [];
  for (const directory of directories) {
    try {
      const listing = await context.provider.listDirectory(directory, { limit: 1000 });
      lines.push(`${directory}: ${listing.entries.map((entry) => `${entry.name} ${entry.kind}`).join(', ')}`);
    } catch (error) {
      lines.push(`${directory}: not listed (${(error as { code?: unknown }).code ?? 'error'})`);
    }
  }
  return lines.join('\n');
}

/** The one loop that turns every row into a case: set up, snapshot, expect the error, compare the snapshot. */
export function errorTableCases(): ConformanceCase[] {
  const rows: TableRow[] = [
    ...errorRows.map(([operation, name, expected]) => ({
      operation,
      name,
      precondition: basicPreconditions[name] as Precondition,
      expected: typeof expected === 'string' ? [expected] : expected,
    })),
    ...linkRows(),
  ];
  return rows.map(({ operation, name, precondition, expected }) =>
    defineCase(
      precondition.group,
      `${operation} on ${name} -> ${expected.join(' | ')}`,
      async (context) => {
        const path = await precondition.setup(context.fixtures);
        const before = `${await context.snapshot([path])}\n${await listedNames(context, path)}`;
        const bytesBefore = (await context.fixtures.kindOf(path)) === 'file' ? await context.fixtures.readFile(path) : null;
        const error = await context.expectError(() => operations[operation](context.provider, context.path(path)), expected);
        const drift = detailValuesDrift(error, { operation, path, names: precondition.names ?? {}, before: bytesBefore });
        if (drift !== undefined) throw new Error(drift);
        // The path named is the one called, or the ancestor where resolution stopped: never another.
        const named = error.details?.path;
        const canonical = typeof named === 'string' ? parseCanonicalPath(named) : null;
        if (canonical === null || !isPathWithin(context.path(path), canonical)) {
          throw new Error(`The ${error.code} error names ${JSON.stringify(named)} as its path, which is neither '${path}' nor an ancestor of it.`);
        }
        const after = `${await context.snapshot([path])}\n${await listedNames(context, path)}`;
        if (after !== before) throw new Error(`The refused call changed the store.\nbefore:\n${before}\nafter:\n${after}`);
      },
      precondition.requires,
    ),
  );
}
