import { LibosError } from '@libos/core';
import { sha256Hex } from '../sha256-hex.js';
import type { ToolContext } from '../tool-definition.js';
import type { PatchPlan, PlannedFile } from './plan-patch.js';

/**
 * Writes a planned patch, file after file in the patch's order, each as a compare-and-swap against
 * the bytes it was planned on: an update is the guarded replace `edit_text_file` lands
 * (`expectedSha256`, decided by the provider with the replace), an added file an exclusive
 * creation, a move a rename that never replaces, then the guarded replace at the new name. A
 * failure of the first write keeps its own effect; a failure after a write is `effect: "unknown"`
 * with `details.written`, the paths already changed.
 */
export async function landPatch(context: ToolContext, plan: PatchPlan): Promise<void> {
  const written: string[] = [];
  for (const file of plan.files) {
    try {
      await landFile(context, file, (path) => written.push(path));
    } catch (error) {
      if (written.length === 0 || !LibosError.is(error)) throw error;
      throw new LibosError(
        error.code,
        `${error.message.replace(/\.$/, '')}, after the patch had already changed ${written.length} file(s): look before retrying.`,
        {
          effect: 'unknown',
          details: { ...error.details, written, failed: file.operation.target },
          cause: error,
        },
      );
    }
  }
}

async function landFile(context: ToolContext, file: PlannedFile, noteWritten: (path: string) => void): Promise<void> {
  const { operation, readSha256, bytes } = file;
  const signal = context.signal === undefined ? {} : { signal: context.signal };
  const provider = context.provider;
  if (operation.kind === 'add') {
    await provider.writeFile(operation.target, bytes!, { overwrite: false, ...signal });
    noteWritten(operation.target);
    return;
  }
  if (operation.kind === 'delete') {
    // A provider deletes unconditionally, so the bytes are read again right before: a file another
    // writer changed since the plan is content_conflict, not a silent loss of their change.
    const now = await provider.readFile(operation.target, { maxBytes: context.bounds.edit_max_bytes, ...signal });
    if (now.truncated || sha256Hex(now.bytes) !== readSha256)
      throw conflict(operation.target, readSha256!, now.truncated ? null : sha256Hex(now.bytes));
    await provider.deleteFile(operation.target, { missingOk: false, ...signal });
    noteWritten(operation.target);
    return;
  }
  if (operation.destination === undefined) {
    await provider.writeFile(operation.target, bytes!, { overwrite: true, expectedSha256: readSha256!, ...signal });
    noteWritten(operation.target);
    return;
  }
  // The rename keeps the file's mode and never replaces; the guarded replace then lands the change
  // only on the bytes that were matched (a writer in between makes it content_conflict, moved as it was).
  await provider.rename!(operation.target, operation.destination, { overwrite: false, ...signal });
  noteWritten(operation.target);
  noteWritten(operation.destination);
  if (sha256Hex(bytes!) === readSha256) return;
  await provider.writeFile(operation.destination, bytes!, { overwrite: true, expectedSha256: readSha256!, ...signal });
}

function conflict(path: string, expected: string, actual: string | null): LibosError {
  return new LibosError('content_conflict', `The content of "${path}" changed after the patch was matched against it.`, {
    details: { path, expected_sha256: expected, actual_sha256: actual },
  });
}
