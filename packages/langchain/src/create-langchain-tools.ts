import { LibosError } from '@libos/core';
import { mediaMetadataOf, mediaResultOf, selectTools, type MediaResult, type ToolCaller, type ToolSelection, type ToolSummary } from '@libos/tools';
import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import { ToolMessage } from '@langchain/core/messages';
import { StructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { JSONSchema } from '@langchain/core/utils/json_schema';
import { passThroughSchema } from './pass-through-schema.js';

/** Options of `createLangChainTools`: a subset of the tools and descriptions of your own. */
export type LangChainToolsOptions = ToolSelection;

/**
 * One libOS tool as a LangChain `StructuredTool`. Called with a tool call (as an agent does), a
 * success is a `ToolMessage` whose content is the result JSON, once (no artifact, no second copy);
 * a failure is a `ToolMessage` with `status: "error"` and `{"error": {code, message, effect,
 * details}}`. Invoked with bare arguments, it returns the result JSON or throws the `LibosError`.
 */
export class LibosLangChainTool extends StructuredTool<JSONSchema, Record<string, unknown>, Record<string, unknown>, string | ToolMessage> {
  static override lc_name(): string {
    return 'LibosLangChainTool';
  }

  name: string;
  description: string;
  schema: JSONSchema;
  readonly #process: ToolCaller;
  readonly #media: boolean;

  constructor(process: ToolCaller, summary: ToolSummary) {
    super();
    this.name = summary.name;
    this.description = summary.description;
    // LangChain reads Standard JSON Schemas at run time (toJsonSchema) but its types name only zod and
    // JSON Schema; the JSON Schema type is the one agents and bindTools accept.
    this.schema = passThroughSchema(summary.inputSchema) as unknown as JSONSchema;
    this.#process = process;
    this.#media = summary.media === true;
  }

  protected override async _call(
    args: Record<string, unknown>,
    _runManager?: CallbackManagerForToolRun,
    config?: ToolRunnableConfig,
  ): Promise<string | ToolMessage> {
    const outcome = await this.#process.call(this.name, args, config?.signal === undefined ? {} : { signal: config.signal });
    const toolCallId = config?.toolCall?.id;
    const media = outcome.ok && this.#media && toolCallId !== undefined ? mediaResultOf(outcome.result) : undefined;
    if (media !== undefined) return new ToolMessage({ content: mediaContent(media), tool_call_id: toolCallId!, name: this.name });
    if (outcome.ok) return JSON.stringify(outcome.result);
    if (toolCallId === undefined) {
      const { code, message, effect, details } = outcome.error;
      throw new LibosError(code, message, { effect, ...(details === undefined ? {} : { details }) });
    }
    return new ToolMessage({
      status: 'error',
      content: JSON.stringify({ error: outcome.error }),
      tool_call_id: toolCallId,
      name: this.name,
    });
  }
}

/**
 * A media result as LangChain's standard content blocks: the other fields as text, then the bytes
 * once, as an `image`, `audio` or `file` block (a PDF) with its MIME type, which each chat model
 * integration turns into its provider's own media part.
 */
function mediaContent(media: MediaResult) {
  const type = media.media_type === 'document' ? ('file' as const) : media.media_type;
  return [
    { type: 'text' as const, text: JSON.stringify(mediaMetadataOf(media)) },
    { type, mimeType: media.mime_type, data: media.data },
  ];
}

/** The process's tools as LangChain `StructuredTool`s, for `createAgent({ tools })` or `model.bindTools`. */
export function createLangChainTools(process: ToolCaller, options: LangChainToolsOptions = {}): LibosLangChainTool[] {
  return selectTools(process, options).map((summary) => new LibosLangChainTool(process, summary));
}
