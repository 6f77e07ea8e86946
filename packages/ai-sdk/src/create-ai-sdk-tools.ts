import type { ToolFailure } from '@libos/core';
import { mediaMetadataOf, mediaResultOf, selectTools, type ToolCaller, type ToolSelection } from '@libos/tools';
import { jsonSchema, tool, type JSONSchema7, type JSONValue, type Tool } from 'ai';

/** Options of `createAiSdkTools`: a subset of the tools and descriptions of your own. */
export type AiSdkToolsOptions = ToolSelection;

/** One libOS tool as the AI SDK sees it: JSON arguments in, the result object out. */
export type AiSdkTool = Tool<Record<string, unknown>, Record<string, unknown>>;

/**
 * The process's tools as AI SDK tools for `generateText` / `streamText({ tools })`. Each `execute` is
 * one `process.call`. A success is the result object, given to the model once as JSON. A failure is
 * thrown as the plain `{code, message, effect, details?}` object, so the SDK records a `tool-error`
 * part whose `error` is exactly that object and gives the model its JSON as the error text.
 */
export function createAiSdkTools(process: ToolCaller, options: AiSdkToolsOptions = {}): Record<string, AiSdkTool> {
  const tools: Record<string, AiSdkTool> = {};
  for (const summary of selectTools(process, options)) {
    const { $schema: _draft, ...inputSchema } = summary.inputSchema;
    tools[summary.name] = tool<Record<string, unknown>, Record<string, unknown>>({
      title: summary.title,
      description: summary.description,
      // No `validate`: the SDK passes the model's arguments through untouched and the runtime's strict
      // parse answers with its own field-by-field invalid_arguments, as on every other path.
      inputSchema: jsonSchema<Record<string, unknown>>(inputSchema as JSONSchema7),
      async execute(input, { abortSignal }) {
        const outcome = await process.call(summary.name, input, abortSignal === undefined ? {} : { signal: abortSignal });
        if (outcome.ok) return outcome.result;
        throw failureOf(outcome.error);
      },
      ...(summary.media === true ? { toModelOutput: mediaModelOutput } : {}),
    });
  }
  return tools;
}

/**
 * A media result as the model is given it: the other fields as text, then the bytes once, as an
 * image part for an image and a file part (with its media type) for audio and PDFs.
 */
function mediaModelOutput({ output }: { readonly output: Record<string, unknown> }) {
  const media = mediaResultOf(output);
  if (media === undefined) return { type: 'json' as const, value: output as JSONValue };
  const text = { type: 'text' as const, text: JSON.stringify(mediaMetadataOf(media)) };
  const name = media.path.slice(media.path.lastIndexOf('/') + 1);
  const part =
    media.media_type === 'image'
      ? { type: 'image-data' as const, data: media.data, mediaType: media.mime_type }
      : { type: 'file-data' as const, data: media.data, mediaType: media.mime_type, filename: name };
  return { type: 'content' as const, value: [text, part] };
}

// A plain object, not an Error: the SDK turns an Error into its message alone, and JSON.stringify of
// anything else into the model's error text, so this keeps the code and effect in front of the model.
function failureOf(error: ToolFailure): ToolFailure {
  return Object.freeze({ ...error });
}
