/**
 * A Standard JSON Schema (`~standard.jsonSchema`) carrying a tool's published input schema, so
 * LangChain gives the model exactly the runtime's JSON Schema, with a `validate` that accepts every
 * value. LangChain checks a JSON or zod schema itself before the tool runs and answers a model's
 * mistake with "Received tool input did not match expected schema"; passing the arguments through
 * lets the runtime's strict parse answer with its own field-by-field invalid_arguments instead.
 */
export interface PassThroughSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'libos';
    validate(value: unknown): { readonly value: Record<string, unknown> };
    readonly jsonSchema: {
      input(options?: unknown): Record<string, unknown>;
      output(options?: unknown): Record<string, unknown>;
    };
    readonly types?: { readonly input: Record<string, unknown>; readonly output: Record<string, unknown> };
  };
}

/** Wraps one published input schema (draft-07, what LangChain asks a Standard JSON Schema for). */
export function passThroughSchema(inputSchema: Readonly<Record<string, unknown>>): PassThroughSchema {
  const { $schema: _draft, ...schema } = inputSchema;
  return {
    '~standard': {
      version: 1,
      vendor: 'libos',
      validate: (value) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: () => structuredClone(schema), output: () => structuredClone(schema) },
    },
  };
}
