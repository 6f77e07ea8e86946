import { z } from 'zod';
import { ENCODING_NAMES } from '../encodings/index.js';

/** An input path, relative to the process working directory. */
export const pathField = (purpose: string) =>
  z.string().describe(`${purpose} Relative to the working directory; "." is the working directory itself.`);

/** The text encoding of a read or write. */
export const encodingField = z
  .string()
  .default('utf-8')
  .describe(`Text encoding (default utf-8), one of: ${ENCODING_NAMES.join(', ')}. Common aliases such as utf8 or latin1 work too.`);

/** An integer option from 1 to `max`. */
export const boundedIntegerField = (defaultValue: number, max: number, meaning: string) =>
  z.number().int().min(1).max(max).default(defaultValue).describe(meaning);

/** A canonical root-relative identity in an output. */
export const identityField = z.string().describe('Canonical path relative to the workspace root ("." is the root).');

/** Lowercase hex SHA-256. */
export const sha256Pattern = /^[0-9a-f]{64}$/;
