type Schema = Record<string, unknown>;

const isRecord = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A tool's input schema as OpenAI strict mode needs it: every object lists all its properties in
 * `required` and has `additionalProperties: false`. A field the runtime treats as optional becomes
 * required-but-nullable (`anyOf: [schema, {type: "null"}]`), its default moved into the description,
 * because strict mode has no optional fields; `stripOptionalNulls` then drops those nulls again.
 */
export function toStrictSchema(schema: Readonly<Schema>): Schema {
  const { $schema: _draft, ...rest } = schema;
  return convert(rest);
}

function convert(schema: Schema): Schema {
  const result: Schema = { ...schema };
  if (isRecord(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    const properties: Schema = {};
    for (const [key, value] of Object.entries(schema.properties)) {
      if (!isRecord(value)) {
        properties[key] = value;
        continue;
      }
      properties[key] = required.has(key) ? convert(value) : nullable(convert(value));
    }
    result.properties = properties;
    result.required = Object.keys(properties);
    result.additionalProperties = false;
  }
  if (isRecord(schema.items)) result.items = convert(schema.items);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) result[key] = options.map((option) => (isRecord(option) ? convert(option) : option));
  }
  return result;
}

function nullable(schema: Schema): Schema {
  if (allowsNull(schema)) return schema;
  const { description, default: defaultValue, ...inner } = schema;
  const meaning = defaultValue === undefined ? 'null to leave it out' : `null for the default (${JSON.stringify(defaultValue)})`;
  return {
    description: `${typeof description === 'string' ? `${description} ` : ''}Optional: send ${meaning}.`,
    anyOf: [inner, { type: 'null' }],
  };
}

function allowsNull(schema: Schema): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  return ['anyOf', 'oneOf'].some(
    (key) => Array.isArray(schema[key]) && (schema[key] as unknown[]).some((option) => isRecord(option) && allowsNull(option)),
  );
}

/**
 * Drops the `null` a strict-mode model sends for a field that the original schema makes optional,
 * at any depth, so the runtime sees the field as absent and fills in its default. A `null` for a
 * required field is kept, and the runtime refuses it with invalid_arguments as it would anywhere.
 */
export function stripOptionalNulls(schema: Readonly<Schema>, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema.items;
    return isRecord(items) ? value.map((entry) => stripOptionalNulls(items, entry)) : value;
  }
  if (!isRecord(value) || !isRecord(schema.properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const result: Schema = {};
  for (const [key, entry] of Object.entries(value)) {
    const property = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    if (!isRecord(property)) {
      own(result, key, entry);
      continue;
    }
    if (entry === null && !required.has(key) && !allowsNull(property)) continue;
    own(result, key, stripOptionalNulls(property, entry));
  }
  return result;
}

// An assignment `result['__proto__'] = entry` would set the copy's prototype and drop the key; the
// runtime must see every key the model sent, so that it refuses `__proto__` as invalid_arguments.
function own(target: Schema, key: string, entry: unknown): void {
  Object.defineProperty(target, key, { value: entry, enumerable: true, writable: true, configurable: true });
}
