import type { CallResult } from '@libos/core';
import type { CallOptions } from './call-pipeline.js';
import type { ToolDefinition } from './tool-definition.js';

/** Any list of tool definitions, as `createRuntime({ tools })` takes it. */
export type ToolList = readonly ToolDefinition[];

/** The names of the tools of a list, as literal types. */
export type ToolName<Tools extends ToolList> = Tools[number]['name'];

type ToolNamed<Tools extends ToolList, Name extends string> = Extract<Tools[number], { readonly name: Name }>;

/**
 * What a caller may pass to the tool `Name` (fields with defaults optional); `unknown` for a name
 * that is not a literal of the list, which the pipeline then checks at run time.
 */
export type ToolCallInput<Tools extends ToolList, Name extends string> = string extends Name
  ? unknown
  : Name extends ToolName<Tools>
    ? ToolNamed<Tools, Name> extends ToolDefinition<infer _Input, infer _Output, infer CallInput, infer _Name>
      ? CallInput
      : unknown
    : unknown;

/** The result object of a successful call of `Name`; a plain record for a name not in the list. */
export type ToolOutput<Tools extends ToolList, Name extends string> = string extends Name
  ? Record<string, unknown>
  : Name extends ToolName<Tools>
    ? ToolNamed<Tools, Name> extends ToolDefinition<infer _Input, infer Output, infer _CallInput, infer _Name>
      ? Output
      : Record<string, unknown>
    : Record<string, unknown>;

/** The arguments after the name: optional when the tool needs no field, required otherwise. */
export type ToolCallArguments<Tools extends ToolList, Name extends string> =
  // biome-ignore lint/complexity/noBannedTypes: `{}` is exactly "an input with no required field"
  {} extends ToolCallInput<Tools, Name>
    ? [args?: ToolCallInput<Tools, Name>, options?: CallOptions]
    : [args: ToolCallInput<Tools, Name>, options?: CallOptions];

/** The outcome of calling `Name`: `{ok: true, result}` typed from the output schema, or `{ok: false, error}`. */
export type ToolCallResult<Tools extends ToolList, Name extends string> = CallResult<ToolOutput<Tools, Name>>;
