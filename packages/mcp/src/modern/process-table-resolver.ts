import type { ProcessTable } from '@libos/tools';
import { isPlainObject } from '../json-rpc.js';
import type { ResolveModernCall } from './modern-call.js';

/** What the 2026-07-28 leg needs of a runtime's process table (`runtime.openProcessTable()` is one). */
export type StatelessProcesses = Pick<ProcessTable, 'tools' | 'call'>;

/**
 * Each 2026-07-28 call runs in the process its `process` argument names, for the principal the
 * access check established (docs/mcp.md): the table resolves the handle, so a handle made on one
 * instance of a fleet is served by any other on the same state.
 */
export function processTableResolver(processes: StatelessProcesses): ResolveModernCall {
  return async ({ principal, body }) => ({
    principal,
    handle: handleOf(body),
    process: { call: (name, args, options) => processes.call(principal, name, args, options) },
    release: () => undefined,
  });
}

/** The handle a call names, or "" for a call that runs in a process of its own. */
function handleOf(body: Readonly<Record<string, unknown>>): string {
  const params = isPlainObject(body.params) ? body.params : {};
  const args = isPlainObject(params.arguments) ? params.arguments : {};
  return typeof args.process === 'string' ? args.process : '';
}
