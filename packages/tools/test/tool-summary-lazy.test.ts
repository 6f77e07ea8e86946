import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_TOOLS, createRuntime, describeTools } from '../src/index.js';

describe('the built-in tools publish their JSON Schemas when first read', () => {
  it('starts a runtime without writing them, then publishes the same schemas as before, once', async () => {
    const { provider } = createMemfsTestbed();
    const runtime = await createRuntime({ provider });
    for (const [index, summary] of runtime.tools.entries()) {
      // Not written at start: each schema is a getter until a client lists the tools.
      const input = Object.getOwnPropertyDescriptor(summary, 'inputSchema');
      const output = Object.getOwnPropertyDescriptor(summary, 'outputSchema');
      expect(typeof input?.get, summary.name).toBe('function');
      expect(typeof output?.get, summary.name).toBe('function');
      const definition = BUILTIN_TOOLS[index]!;
      const inputSchema = definition.inputSchema(runtime.bounds) as z.ZodType;
      expect(summary.inputSchema).toEqual(z.toJSONSchema(inputSchema, { io: 'input', target: 'draft-7' }));
      expect(summary.outputSchema).toEqual(z.toJSONSchema(definition.outputSchema, { io: 'output', target: 'draft-7' }));
      expect(summary.inputSchema.type).toBe('object');
      // Written once: every later read is the same object.
      expect(summary.inputSchema).toBe(summary.inputSchema);
      expect(summary.outputSchema).toBe(summary.outputSchema);
    }
    // A copy (a transport's tool list, JSON) carries the schemas, not the getters.
    const copied = JSON.parse(JSON.stringify(describeTools().tools[0])) as Record<string, unknown>;
    expect(copied.inputSchema).toEqual(runtime.tools[0]!.inputSchema);
    await runtime.close();
  });
});
