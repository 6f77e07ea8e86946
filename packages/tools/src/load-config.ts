import { readFile } from 'node:fs/promises';
import { LibosError, parseConfig, type LibosConfig } from '@libos/core';

/**
 * Reads and validates a libOS config file (CONTRACT.md section 6). Throws `invalid_arguments` with
 * a message naming the file and the first bad field, or saying why the file could not be read.
 */
export async function loadConfig(file: string): Promise<LibosConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
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
