import { Buffer } from 'node:buffer';
import { LibosError, type Permit, type Right, type WorkspacePath } from '@libos/core';
import { z } from 'zod';
import { boundDiff } from '../edits/unified-diff.js';
import { landPatch } from '../patches/land-patch.js';
import { type PatchOperation, parsePatch } from '../patches/parse-patch.js';
import { type PatchPlan, type PlannedFile, type ResolvedOperation, planPatch } from '../patches/plan-patch.js';
import { sha256Hex } from '../sha256-hex.js';
import { type ToolContext, defineTool } from '../tool-definition.js';
import { assertNoEgress } from './assert-no-egress.js';
import { identityField, sha256Pattern } from './tool-fields.js';

// More file operations than any model edit needs; it keeps one patch's work, approval and result bounded.
const MAX_OPERATIONS = 1000;

const fileSchema = z.strictObject({
  path: identityField,
  operation: z.enum(['add', 'update', 'delete']),
  moved_to: identityField.nullable().describe('Where an updated file was moved to, or null.'),
  bytes_written: z.number().int().min(0),
  content_sha256: z.string().regex(sha256Pattern).nullable().describe('SHA-256 of the bytes the file now holds (null when deleted).'),
});

/** `apply_patch`: a V4A patch over several files, every change located before any file is written. */
export const applyPatch = defineTool({
  name: 'apply_patch',
  title: 'Apply patch',
  description:
    'Applies a patch in the apply_patch (V4A) format: "*** Begin Patch", then file sections "*** Add File: PATH" (every ' +
    'line "+" text), "*** Delete File: PATH", or "*** Update File: PATH" with an optional "*** Move to: PATH" and changes ' +
    '(optional "@@ line" anchors, then " " kept, "-" removed and "+" added lines, optionally "*** End of File"), then ' +
    '"*** End Patch". Paths are relative to the working directory. A malformed patch is invalid_arguments naming the line. ' +
    'Every change is located before anything is written: its kept and removed lines must occur exactly once after its ' +
    'anchors and the previous change, else edit_mismatch naming the file and patch line, and nothing changes; an added ' +
    'file or a move target that exists is already_exists. Then each file is written only if it still holds the bytes the ' +
    'patch was matched on (content_conflict otherwise); a failure after some files were written has effect "unknown" and ' +
    'lists them in details.written. Line endings and a byte-order mark stay as the file has them. Returns each file and ' +
    'a unified diff of the whole patch. Files are UTF-8 text of at most bounds.edit_max_bytes.',
  inputSchema: (bounds) =>
    z.strictObject({
      patch: z.string().min(1).max(bounds.arguments_max_bytes).describe('The whole patch, from "*** Begin Patch" to "*** End Patch".'),
    }),
  outputSchema: z.strictObject({
    files: z.array(fileSchema).describe('Each file operation, in the order of the patch.'),
    diff: z.string().describe('Unified diff of the whole patch, 3 lines of context.'),
    diff_truncated: z.boolean().describe('True when the diff was cut to fit the result bound.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async execute(input, context) {
    const parsed = parsePatch(input.patch);
    if (parsed.length > MAX_OPERATIONS) {
      throw new LibosError('invalid_arguments', `The patch has ${parsed.length} file operations; at most ${MAX_OPERATIONS} are accepted.`, {
        details: { operations: parsed.length, max_operations: MAX_OPERATIONS },
      });
    }
    const operations = resolveOperations(context, parsed);
    let planned: Promise<PatchPlan> | undefined;
    const plan = () => (planned ??= planPatch(context, operations));
    const permits = await authorizeAll(context, operations, plan);
    for (const operation of operations)
      if (operation.destination !== undefined) assertNoEgress(context, operation.target, operation.destination, 'Moving');
    if (operations.some((operation) => operation.destination !== undefined) && context.provider.rename === undefined) {
      throw new LibosError('provider_failure', `The provider "${context.provider.name}" cannot move files.`, { effect: 'none' });
    }
    for (const permit of permits) permit.spend();
    const ready = await plan();
    await landPatch(context, ready);
    return patchResult(context, ready);
  },
});

/** Path rules for every path of the patch, before anything else; a path named twice is refused (one file, one operation). */
function resolveOperations(context: ToolContext, parsed: readonly PatchOperation[]): ResolvedOperation[] {
  const seen = new Map<string, number>();
  const claim = (path: WorkspacePath, line: number) => {
    const first = seen.get(path);
    if (first !== undefined) {
      throw new LibosError('invalid_arguments', `The patch names "${path}" at line ${line} after line ${first}; each file may appear once.`, {
        details: { line, path, first_line: first },
      });
    }
    seen.set(path, line);
  };
  return parsed.map((operation) => {
    const target = context.resolvePath(operation.path);
    claim(target, operation.line);
    if (operation.kind !== 'update' || operation.moveTo === undefined) return { ...operation, target };
    const destination = context.resolvePath(operation.moveTo.path);
    claim(destination, operation.moveTo.line);
    return { ...operation, target, destination };
  });
}

/**
 * One authority question per file and right, in patch order; a question an earlier permit already
 * answers (the same ask grant approved, an allow grant) is not asked again. Whoever is asked is
 * shown the whole patch's diff and the hash of the bytes that would land at that path.
 */
async function authorizeAll(context: ToolContext, operations: readonly ResolvedOperation[], plan: () => Promise<PatchPlan>): Promise<Permit[]> {
  const permits: Permit[] = [];
  for (const operation of operations) {
    const needs: [Right, WorkspacePath][] =
      operation.kind === 'add'
        ? [['write', operation.target]]
        : operation.kind === 'delete'
          ? [['delete', operation.target]]
          : operation.destination === undefined
            ? [['write', operation.target]]
            : [
                ['delete', operation.target],
                ['write', operation.destination],
              ];
    for (const [right, path] of needs) {
      if (permits.some((permit) => permit.covers(right, path, 'file'))) continue;
      permits.push(
        await context.authorize({
          right,
          path,
          target: 'file',
          async prepareContent() {
            try {
              const ready = await plan();
              const file = ready.files.find((entry) => entry.operation === operation);
              return { bytes: right === 'write' ? (file?.bytes ?? new Uint8Array(0)) : new Uint8Array(0), diffLines: ready.diffLines };
            } catch {
              // A patch that cannot apply shows nothing; its error reaches the caller only after approval.
              return undefined;
            }
          },
        }),
      );
    }
  }
  return permits;
}

function patchResult(context: ToolContext, plan: PatchPlan) {
  const files = plan.files.map((file) => fileResult(file));
  const partial = { files, diff: '', diff_truncated: false };
  const room = context.bounds.result_max_bytes - Buffer.byteLength(JSON.stringify(partial), 'utf8') - 16;
  const { diff, truncated } = boundDiff(plan.diffLines, Math.max(0, room));
  return { files, diff, diff_truncated: truncated };
}

function fileResult(file: PlannedFile) {
  const { operation, bytes } = file;
  return {
    path: operation.target,
    operation: operation.kind,
    moved_to: operation.destination ?? null,
    bytes_written: bytes?.length ?? 0,
    content_sha256: bytes === null ? null : sha256Hex(bytes),
  };
}
