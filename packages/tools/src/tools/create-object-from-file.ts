import { LibosError } from '@libos/core';
import {
  assertValidNamespace,
  isObjectType,
  normalizeObjectName,
  longestFittingPrefix,
  payloadByteLength,
  type ObjectType,
} from '@libos/object-memory';
import { z } from 'zod';
import { resolveEncoding, type TextCodec } from '../encodings/index.js';
import { atRealPath } from '../names/at-real-path.js';
import { defineTool } from '../tool-definition.js';
import { boundedIntegerField, encodingField, identityField, pathField } from './tool-fields.js';

// A type alias, not an interface, so it is assignable to JsonValue.
type FilePayload = {
  readonly kind: 'workspace_text_file';
  readonly source_path: string;
  readonly encoding: string;
  readonly content: string;
  readonly bytes_read: number;
  readonly truncated: boolean;
  readonly stored_bytes?: number;
};

/** `create_object_from_file`: reads a text file like read_text_file and stores it as an immutable Object. */
export const createObjectFromFile = defineTool({
  name: 'create_object_from_file',
  title: 'Create Object from file',
  description:
    'Reads a text file (like read_text_file: regular files only, strict decoding) and stores its text as a new immutable ' +
    "Object named `name` in `namespace` (default: this process's own namespace). The Object keeps the file's label and " +
    'is not attached to the memory view. A name that is already taken in the namespace fails with name_taken; Objects are ' +
    'never overwritten. A file larger than `max_bytes`, or text whose payload exceeds the Object size bound, fails with ' +
    'too_large unless `allow_truncated` is true, in which case a prefix is kept and `truncated` is true. ' +
    'Fails with invalid_name, invalid_namespace, invalid_object_type, namespace_not_found, denied, not_found, not_a_file, ' +
    'symlink_refused, hard_link_refused or decode_failed.',
  inputSchema: (bounds) =>
    z.strictObject({
      name: z.string().describe('The Object name, unique in its namespace; trimmed, must not be empty, ".", "..", or hold "/" or "\\".'),
      path: pathField('The text file to read.'),
      namespace: z.string().optional().describe("The namespace to create the Object in (default: this process's own namespace)."),
      encoding: encodingField,
      max_bytes: boundedIntegerField(
        bounds.object_file_max_bytes_default,
        bounds.object_file_max_bytes_limit,
        `Maximum number of bytes to read (default ${bounds.object_file_max_bytes_default}, at most ${bounds.object_file_max_bytes_limit}).`,
      ),
      allow_truncated: z.boolean().default(false).describe('Keep a prefix instead of failing with too_large (default false).'),
      object_type: z.string().default('artifact').describe('The Object type (default artifact).'),
    }),
  outputSchema: z.strictObject({
    oid: z.string().describe("The new Object's id."),
    namespace: z.string(),
    name: z.string().describe('The stored (trimmed) name.'),
    type: z.string(),
    source_path: identityField,
    bytes_read: z.number().int().min(0),
    truncated: z.boolean().describe("True when only a prefix of the file's text was stored."),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async execute(input, context) {
    const name = normalizeObjectName(input.name);
    const namespace = input.namespace ?? context.process.namespace;
    assertValidNamespace(namespace);
    const type = checkedType(input.object_type);
    const codec = resolveEncoding(input.encoding);
    const path = context.resolvePath(input.path);
    const { memory, process } = context;
    context.authority.authorizeNamespace(namespace, 'write', process.namespace);
    const permit = await context.authorize({ right: 'read', path, target: 'file' });
    if (namespace === process.namespace) await context.openProcessNamespace();
    permit.spend();
    // Checked again atomically at creation; this early look only spares reading a large file for nothing.
    if ((await memory.find(namespace, name)) !== undefined) {
      throw new LibosError('name_taken', 'A live Object already has this name in the namespace.', { details: { namespace, name } });
    }
    const { path: source, value: read } = await atRealPath(context, path, (real) =>
      context.provider.readFile(real, { maxBytes: input.max_bytes, signal: context.signal }),
    );
    const truncated = read.truncated || read.bytes.length > input.max_bytes;
    if (truncated && !input.allow_truncated) {
      throw new LibosError('too_large', `The file holds more than ${input.max_bytes} bytes; pass allow_truncated to keep a prefix.`, {
        details: { max_bytes: input.max_bytes },
      });
    }
    const bytes = read.bytes.length > input.max_bytes ? read.bytes.subarray(0, input.max_bytes) : read.bytes;
    const full: FilePayload = {
      kind: 'workspace_text_file',
      source_path: source,
      encoding: codec.name,
      content: codec.decode(bytes, { truncated }),
      bytes_read: bytes.length,
      truncated,
    };
    const label = context.authority.labelOf(source);
    const create = (payload: FilePayload) => memory.create({ namespace, name, type, payload, label, createdBy: process.id });
    let payload = full;
    let object;
    try {
      // The memory measures the payload once; measuring here too would double the cost of a large import.
      object = await create(payload);
    } catch (error) {
      if (!input.allow_truncated || !LibosError.is(error, 'too_large')) throw error;
      payload = fitPayload(full, codec, memory.maxPayloadBytes);
      object = await create(payload);
    }
    return {
      oid: object.oid,
      namespace,
      name,
      type,
      source_path: source,
      bytes_read: payload.bytes_read,
      truncated: payload.truncated,
    };
  },
});

function checkedType(value: string): ObjectType {
  if (isObjectType(value)) return value;
  throw new LibosError('invalid_object_type', `"${value.slice(0, 64)}" is not an Object type.`, { details: { object_type: value } });
}

/**
 * The payload gate's truncation: the longest code-point prefix of the content that fits the bound
 * together with `truncated: true` and `stored_bytes` (the stored content's length in its encoding).
 */
function fitPayload(payload: FilePayload, codec: TextCodec, maxBytes: number): FilePayload {
  const shortened = (content: string): FilePayload => ({
    ...payload,
    content,
    truncated: true,
    stored_bytes: codec.encode(content).length,
  });
  // Every character costs at least one byte of JSON, so no prefix longer than the bound can fit.
  const content = longestFittingPrefix(payload.content, (prefix) => payloadByteLength(shortened(prefix)) <= maxBytes, maxBytes);
  if (content === undefined) {
    throw new LibosError('too_large', `Not even an empty text fits the ${maxBytes}-byte bound of an Object payload.`, {
      details: { max_bytes: maxBytes },
    });
  }
  return shortened(content);
}
