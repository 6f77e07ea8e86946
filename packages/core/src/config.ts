import { z } from 'zod';
import { LABELS } from './authority.js';
import { LibosError } from './libos-error.js';
import { parseCanonicalPath, type WorkspacePath } from './workspace-path.js';

/** The bounds of docs/rules.md (The config file and the bounds), with their defaults. */
export const DEFAULT_BOUNDS = {
  read_max_bytes_default: 65_536,
  read_max_bytes_limit: 1_048_576,
  list_limit_default: 1_024,
  list_limit_max: 10_000,
  object_file_max_bytes_default: 1_048_576,
  object_file_max_bytes_limit: 16_777_216,
  object_payload_max_bytes: 16_777_216,
  arguments_max_bytes: 8_388_608,
  result_max_bytes: 4_194_304,
  objects_max_bytes: 268_435_456,
  objects_max_count: 100_000,
  edit_max_bytes: 8_388_608,
  search_results_max: 1_000,
  search_files_max: 100_000,
  read_scan_max_bytes: 67_108_864,
  // read_media_file: the largest image, audio file or PDF handed to a model whole (5 MiB).
  media_max_bytes: 5_242_880,
  // A backend that stores the workspace itself (PostgreSQL) refuses a write past it; a disk has its own.
  workspace_max_bytes: 10_737_418_240,
} as const;

/** Every bound, resolved. */
export type Bounds = { readonly [Key in keyof typeof DEFAULT_BOUNDS]: number };

const positiveIntegerMessage = { error: 'expected a positive integer' };
const positiveInteger = z.number(positiveIntegerMessage).int(positiveIntegerMessage).positive(positiveIntegerMessage).max(Number.MAX_SAFE_INTEGER);
const canonicalPath = z
  .string()
  .refine((value) => parseCanonicalPath(value) !== null, 'not a canonical root-relative path')
  .transform((value) => value as WorkspacePath);
const rights = z.array(z.enum(['read', 'write', 'delete'])).min(1);
const label = z.enum(LABELS);

const boundsSchema = z
  .strictObject(Object.fromEntries(Object.keys(DEFAULT_BOUNDS).map((key) => [key, positiveInteger.optional()])))
  .transform((given) => ({ ...DEFAULT_BOUNDS, ...stripUndefined(given) }) as Bounds)
  .refine((bounds) => bounds.read_max_bytes_default <= bounds.read_max_bytes_limit, {
    message: 'read_max_bytes_default exceeds read_max_bytes_limit',
  })
  .refine((bounds) => bounds.list_limit_default <= bounds.list_limit_max, {
    message: 'list_limit_default exceeds list_limit_max',
  })
  .refine((bounds) => bounds.object_file_max_bytes_default <= bounds.object_file_max_bytes_limit, {
    message: 'object_file_max_bytes_default exceeds object_file_max_bytes_limit',
  });

const grantSchema = z
  .strictObject({
    path: canonicalPath,
    tree: z.boolean().default(false),
    rights,
    mode: z.enum(['allow', 'ask', 'deny']).default('allow'),
    uses: positiveInteger.optional(),
    // Said in the message of every call this grant denies (a read-only mount says so).
    reason: z
      .string()
      .refine((text) => text.length > 0 && text.length <= 200 && text.trim() === text && text.isWellFormed() && !/[\p{Cc}\p{Cf}]/u.test(text), {
        message: 'expected 1 to 200 printable characters with no surrounding whitespace',
      })
      .optional(),
  })
  // A denial spends nothing, so a use count on a deny grant could only be a mistake.
  .refine((grant) => grant.mode !== 'deny' || grant.uses === undefined, {
    message: 'uses applies only to allow and ask grants',
    path: ['uses'],
  })
  .refine((grant) => grant.mode === 'deny' || grant.reason === undefined, {
    message: 'reason applies only to deny grants',
    path: ['reason'],
  });

const namespaceSchema = z.strictObject({
  name: z
    .string()
    .refine((name) => !name.startsWith('process:'), 'process namespaces are not declared')
    .refine(isValidNamespace, 'not a valid namespace name'),
  rights: z.array(z.enum(['read', 'write'])).min(1),
});

// A policy_id keys spent uses in a shared Object store, so it must be one exact, printable name.
const policyIdSchema = z
  .string()
  .refine(
    (name) => name.length > 0 && name.length <= 200 && name.trim() === name && name.isWellFormed() && !/\p{Cc}/u.test(name),
    'expected a name of 1 to 200 characters, with no surrounding whitespace or control characters',
  );

const labelRuleSchema = z.strictObject({ path: canonicalPath, tree: z.boolean().default(false), label });
const sinkRuleSchema = z.strictObject({ path: canonicalPath, tree: z.boolean().default(false), max_label: label });

/** The schema of a libOS config file (docs/rules.md, The config file and the bounds); every key is optional. */
export const configSchema = z.strictObject({
  bounds: boundsSchema.default(DEFAULT_BOUNDS),
  grants: z.array(grantSchema).optional(),
  namespaces: z.array(namespaceSchema).default([]),
  labels: z.array(labelRuleSchema).default([]),
  sinks: z.array(sinkRuleSchema).default([]),
  /** Runtimes on one shared Object store with the same policy_id spend one shared count of `uses`. */
  policy_id: policyIdSchema.optional(),
});

/** A config as written in a file. */
export type ConfigInput = z.input<typeof configSchema>;
/** A validated config with defaults filled in; `grants` undefined means no policy (allow everything). */
export type LibosConfig = z.output<typeof configSchema>;
/** One validated grant. */
export type Grant = LibosConfig['grants'] extends (infer G)[] | undefined ? G : never;

/**
 * Validates a config value. Throws `invalid_arguments` whose message names the first bad field and
 * the reason, e.g. `config.grants[1].uses: expected a positive integer`.
 */
export function parseConfig(value: unknown): LibosConfig {
  const parsed = configSchema.safeParse(value ?? {});
  if (parsed.success) {
    const names = parsed.data.namespaces.map((namespace) => namespace.name);
    const duplicate = names.find((name, index) => names.indexOf(name) !== index);
    if (duplicate !== undefined) throw configError(['namespaces'], `namespace "${duplicate}" is declared twice`);
    return parsed.data;
  }
  const issue = parsed.error.issues[0]!;
  throw configError(issue.path, describeIssue(issue));
}

/**
 * Tells whether a namespace name is usable: not empty, well-formed Unicode, no surrounding
 * whitespace, and no empty, `.` or `..` segments between `/`.
 */
export function isValidNamespace(name: string): boolean {
  if (name.length === 0 || name.trim() !== name || !name.isWellFormed()) return false;
  return name.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

function configError(path: readonly PropertyKey[], reason: string): LibosError {
  const field = ['config', ...path].reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`),
    '',
  );
  return new LibosError('invalid_arguments', `Malformed config: ${field}: ${reason}.`, {
    details: { field, reason },
  });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown field ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_small':
      return issue.origin === 'array' ? 'must not be empty' : 'expected a positive integer';
    default:
      return issue.message;
  }
}

function stripUndefined(record: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Record<string, number>;
}
