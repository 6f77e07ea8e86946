import { LibosError, type CallResult } from '@libos/core';
import type { CallOptions } from './call-pipeline.js';
import type { ToolSummary } from './tool-summary.js';

/** What an agent-framework adapter needs of a process: its tools and `call` (a `RuntimeProcess` is one). */
export interface ToolCaller {
  readonly tools: readonly ToolSummary[];
  call(name: string, args?: unknown, options?: CallOptions): Promise<CallResult>;
}

/** The options every adapter takes: which tools to publish and descriptions of your own. */
export interface ToolSelection {
  /** Only these tools, in this order (default: every tool of the process). */
  readonly tools?: readonly string[];
  /** A description per tool name, replacing the one a model would otherwise read. */
  readonly descriptions?: Readonly<Record<string, string>>;
}

/**
 * The tools an adapter publishes, derived from the process's own list (so a runtime's user tools and
 * any tool added later come along). Throws `invalid_arguments` for a name the process does not have,
 * so a typo in a subset or an override never silently drops a tool.
 */
export function selectTools(caller: ToolCaller, selection: ToolSelection = {}): ToolSummary[] {
  const byName = new Map(caller.tools.map((tool) => [tool.name, tool]));
  const names = selection.tools ?? [...byName.keys()];
  const descriptions = selection.descriptions ?? {};
  const unknown = [...names, ...Object.keys(descriptions)].filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    throw new LibosError('invalid_arguments', `There is no tool named ${unknown.map((name) => JSON.stringify(name)).join(', ')}.`, {
      details: { unknown, available: [...byName.keys()] },
    });
  }
  if (new Set(names).size !== names.length) throw new LibosError('invalid_arguments', 'The tools option names a tool twice.');
  return names.map((name) => {
    const tool = byName.get(name) as ToolSummary;
    const description = Object.hasOwn(descriptions, name) ? descriptions[name] : undefined;
    if (description === undefined) return tool;
    if (typeof description !== 'string' || description.trim() === '') {
      throw new LibosError('invalid_arguments', `The description of ${name} must be a non-empty string.`);
    }
    return { ...tool, description };
  });
}
