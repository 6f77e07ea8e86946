import type { z } from 'zod';

/** One rejected argument, as reported in `details.issues` of `invalid_arguments`. */
export interface InputIssue {
  /** The argument's location, e.g. `limit` or `` (the whole object). */
  readonly path: string;
  readonly code: string;
  readonly message: string;
}

// A failure must stay small even when the arguments are huge (8 MiB of unknown keys).
const MAX_ISSUES = 10;
const MAX_MESSAGE = 200;

/** Turns zod issues into short, JSON-safe descriptions a model can act on. */
export function describeInputIssues(issues: readonly z.core.$ZodIssue[]): InputIssue[] {
  return issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map((key) => String(key)).join('.');
    const message = clip(`${path === '' ? 'arguments' : path}: ${explain(issue)}`);
    return { path: clip(path), code: issue.code, message };
  });
}

function explain(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`;
    case 'invalid_type':
      // zod reports a missing field as "received undefined"; JSON has no undefined, so say it plainly.
      return issue.message.endsWith('received undefined')
        ? `required ${issue.expected === 'int' ? 'integer' : issue.expected} is missing`
        : issue.message.replace(/^Invalid input: /, '').replace('expected int,', 'expected integer,');
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    default:
      return issue.message;
  }
}

function clip(text: string): string {
  return text.length <= MAX_MESSAGE ? text : `${text.slice(0, MAX_MESSAGE - 1)}…`;
}
