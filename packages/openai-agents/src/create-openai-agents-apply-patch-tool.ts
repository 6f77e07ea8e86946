import type { ToolCaller } from '@libos/tools';
import { applyPatchTool, type ApplyPatchOperation, type ApplyPatchResult, type ApplyPatchTool, type Editor } from '@openai/agents';

/**
 * libOS's `apply_patch` as the OpenAI Agents SDK's own apply-patch tool (`applyPatchTool`), for
 * models that edit with the Responses API's built-in `apply_patch` (they send one file operation
 * per call, its change in the V4A format). Each operation becomes one `process.call('apply_patch')`
 * with the same patch wrapped in its envelope, so every rule holds (path rules, grants and
 * approvals, labels, `.git`, the compare-and-swap, the audit trail); a failure is reported to the
 * model as `status: "failed"` with `{"error": {code, message, effect, details}}`.
 */
export function createOpenAIAgentsApplyPatchTool(process: ToolCaller): ApplyPatchTool {
  const apply = async (lines: readonly string[]): Promise<ApplyPatchResult> => {
    const patch = ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');
    const outcome = await process.call('apply_patch', { patch });
    if (outcome.ok) return { status: 'completed', output: JSON.stringify(outcome.result) };
    return { status: 'failed', output: JSON.stringify({ error: outcome.error }) };
  };
  const editor: Editor = {
    createFile: (operation) => apply([`*** Add File: ${operation.path}`, ...diffLines(operation)]),
    updateFile: (operation) =>
      apply([
        `*** Update File: ${operation.path}`,
        ...(operation.moveTo === undefined ? [] : [`*** Move to: ${operation.moveTo}`]),
        ...diffLines(operation),
      ]),
    deleteFile: (operation) => apply([`*** Delete File: ${operation.path}`]),
  };
  return applyPatchTool({ editor });
}

// The operation's change as lines; a final newline ends the last line rather than adding an empty one.
function diffLines(operation: Extract<ApplyPatchOperation, { diff: string }>): string[] {
  const lines = operation.diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
