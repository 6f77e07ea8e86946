import { readFile } from 'node:fs/promises';
import { LibosError, parseConfig, type LibosConfig } from '@libos/core';

/** Options of `loadConfig`. */
export interface LoadConfigOptions {
  /** A file that does not exist gives the default config (no policy, default bounds) instead of an error. */
  readonly optional?: boolean;
}

/**
 * Reads and validates a libOS config file (docs/rules.md, The config file and the bounds). Throws `invalid_arguments` with
 * a message naming the file and the first bad field, or saying why the file could not be read; with
 * `optional`, a missing file is the default config (any other problem still throws).
 */
export async function loadConfig(file: string, options: LoadConfigOptions = {}): Promise<LibosConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.optional === true) return parseConfig({});
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : describe(error);
    throw new LibosError('invalid_arguments', `Cannot read the config file ${file}: ${reason}.`, {
      details: { reason },
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LibosError('invalid_arguments', `The config file ${file} is not valid JSON: ${describe(error)}.`, {
      details: { reason: 'invalid_json' },
      cause: error,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LibosError('invalid_arguments', `The config file ${file} must hold a JSON object.`, {
      details: { reason: 'not_an_object' },
    });
  }
  try {
    return parseConfig(value);
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    throw new LibosError(error.code, `In ${file}: ${error.message}`, {
      ...(error.details === undefined ? {} : { details: error.details }),
      cause: error,
    });
  }
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}
