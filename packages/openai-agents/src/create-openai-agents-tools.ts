import { LibosError, type ToolFailure } from '@libos/core';
import { mediaMetadataOf, mediaResultOf, selectTools, type MediaResult, type ToolCaller, type ToolSelection, type ToolSummary } from '@libos/tools';
import {
  tool,
  type FunctionTool,
  type ToolInputParameters,
  type ToolOutputFileContent,
  type ToolOutputImage,
  type ToolOutputText,
} from '@openai/agents';
import { stripOptionalNulls, toStrictSchema } from './strict-schema.js';

/** Options of `createOpenAIAgentsTools`: a subset of the tools and descriptions of your own. */
export type OpenAIAgentsToolsOptions = ToolSelection;

/** One libOS tool as an OpenAI Agents function tool: JSON arguments in, JSON text out (a media result: text and the media). */
export type OpenAIAgentsTool = FunctionTool<unknown, StrictParameters, string | MediaOutput>;

/** What a media tool hands the model: its other fields as text, then the image or file itself. */
export type MediaOutput = [ToolOutputText, ToolOutputImage | ToolOutputFileContent];

// The SDK exports the union of parameter types, not its JSON-object member; this is that member.
type StrictParameters = Extract<ToolInputParameters, { readonly additionalProperties: false }>;

/**
 * The process's tools as OpenAI Agents `FunctionTool`s in strict mode. Each call is one
 * `process.call`, after the `null`s strict mode makes a model send for optional fields are dropped.
 * A success is the result JSON, once. A failure is thrown as a `LibosError`, which the SDK hands to
 * the tool's error function (and records on the tool span); the model then reads
 * `{"error": {code, message, effect, details}}`, the same text an MCP client gets.
 */
export function createOpenAIAgentsTools(process: ToolCaller, options: OpenAIAgentsToolsOptions = {}): OpenAIAgentsTool[] {
  return selectTools(process, options).map((summary) => toFunctionTool(process, summary));
}

function toFunctionTool(process: ToolCaller, summary: ToolSummary): OpenAIAgentsTool {
  return tool({
    name: summary.name,
    description: summary.description,
    parameters: toStrictSchema(summary.inputSchema) as StrictParameters,
    strict: true,
    async execute(input, _context, details) {
      const args = stripOptionalNulls(summary.inputSchema, input);
      const signal = details?.signal;
      const outcome = await process.call(summary.name, args, signal === undefined ? {} : { signal });
      const media = outcome.ok && summary.media === true ? mediaResultOf(outcome.result) : undefined;
      if (media !== undefined) return mediaOutput(media);
      if (outcome.ok) return JSON.stringify(outcome.result);
      const { code, message, effect, details: failureDetails } = outcome.error;
      throw new LibosError(code, message, { effect, ...(failureDetails === undefined ? {} : { details: failureDetails }) });
    },
    errorFunction: (_context, error) => JSON.stringify({ error: toFailure(summary.name, error) }),
  }) as OpenAIAgentsTool;
}

/**
 * A media result in the SDK's own tool output items: an image as an image item, audio and PDFs as
 * file items with their media type and name; the bytes once.
 */
function mediaOutput(media: MediaResult): MediaOutput {
  const text: ToolOutputText = { type: 'text', text: JSON.stringify(mediaMetadataOf(media)) };
  if (media.media_type === 'image') return [text, { type: 'image', image: { data: media.data, mediaType: media.mime_type } }];
  const filename = media.path.slice(media.path.lastIndexOf('/') + 1);
  return [text, { type: 'file', file: { data: media.data, mediaType: media.mime_type, filename } }];
}

// process.call never throws, so anything but a LibosError was raised by the SDK before the call ran:
// arguments that are not a JSON object. Nothing was done, and the model is told so in libOS's terms.
function toFailure(name: string, error: unknown): ToolFailure {
  if (LibosError.is(error)) return error.toFailure();
  return { code: 'invalid_arguments', message: `The arguments of ${name} must be a JSON object.`, effect: 'none' };
}
