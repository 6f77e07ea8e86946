import { LibosError, labelExceeds } from '@libos/core';
import { assertValidNamespace, normalizeObjectName, type JsonValue } from '@libos/object-memory';
import { z } from 'zod';
import { landsLower } from '../authority/label-landing.js';
import { resolveEncoding } from '../encodings/index.js';
import { creationPath } from '../names/at-real-path.js';
import { defineTool } from '../tool-definition.js';
import { encodingField, identityField, pathField } from './tool-fields.js';

/** `write_object_to_file`: writes an Object's text to a file like write_text_file, after the egress check. */
export const writeObjectToFile = defineTool({
  name: 'write_object_to_file',
  title: 'Write Object to file',
  description:
    "Writes the text of the Object named `name` in `namespace` (default: this process's own namespace) to a file, " +
    'encoded with `encoding`, exactly like write_text_file (atomic replace, missing parents created). The Object is found ' +
    'by name only; its payload must be a string or hold a string `content`, else unsupported_payload. An Object whose ' +
    "label is above the target's clearance (its sinks rule) or above the label the target path carries (its labels rule) " +
    'fails with egress_denied, so exported bytes never land labelled lower. With `overwrite: false` an existing file fails with ' +
    'already_exists. Fails with invalid_name, invalid_namespace, namespace_not_found, object_not_found, encode_failed, ' +
    'denied, not_a_file, symlink_refused or hard_link_refused.',
  inputSchema: () =>
    z.strictObject({
      name: z.string().describe('The name of the Object to write (trimmed).'),
      path: pathField('The file to write.'),
      namespace: z.string().optional().describe("The namespace holding the Object (default: this process's own namespace)."),
      encoding: encodingField,
      overwrite: z.boolean().default(true).describe('Replace an existing file (default true); false fails with already_exists.'),
    }),
  outputSchema: z.strictObject({
    oid: z.string(),
    namespace: z.string(),
    name: z.string(),
    path: identityField,
    bytes_written: z.number().int().min(0),
    created: z.boolean().describe('True when no file existed before.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const name = normalizeObjectName(input.name);
    const namespace = input.namespace ?? context.process.namespace;
    assertValidNamespace(namespace);
    const codec = resolveEncoding(input.encoding);
    const path = context.resolvePath(input.path);
    const { authority, memory, process } = context;
    authority.authorizeNamespace(namespace, 'read', process.namespace);
    if (namespace === process.namespace) await context.openProcessNamespace();
    // Resolved before the write authority, so an approver sees exactly the bytes that would be written.
    const object = await memory.get(namespace, name);
    const bytes = codec.encode(payloadText(object.payload));
    const permit = await context.authorize({ right: 'write', path, target: 'file', content: { bytes } });
    // Past the target's clearance, or to a path labelled lower than the Object (a sink alone would
    // leave the exported bytes `normal`). Like every denial it names only the right and the path.
    if (labelExceeds(object.label, authority.clearanceOf(path)) || landsLower(authority, object.label, path)) {
      throw new LibosError('egress_denied', `Writing this Object to ${JSON.stringify(path)} is not permitted.`, {
        details: { right: 'write', path },
      });
    }
    permit.spend();
    const target = await creationPath(context, path);
    const { created } = await context.provider.writeFile(target, bytes, { overwrite: input.overwrite, signal: context.signal });
    return { oid: object.oid, namespace, name, path: target, bytes_written: bytes.length, created };
  },
});

function payloadText(payload: JsonValue): string {
  if (typeof payload === 'string') return payload;
  if (typeof payload === 'object' && payload !== null && !Array.isArray(payload)) {
    const content = (payload as { readonly [key: string]: JsonValue })['content'];
    if (typeof content === 'string') return content;
  }
  throw new LibosError('unsupported_payload', 'The Object holds no text: its payload is neither a string nor has a string "content".');
}
