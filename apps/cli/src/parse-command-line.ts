import type { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

/** The options argument of `parseArgs`. */
type ParseOptions = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/**
 * Strict `parseArgs` whose failures become a one-line UsageError naming the command. Call it as
 * `parseCommandLine('libos x', () => parseArgs(strictArgs(args, {...})))` so the parsed types
 * stay exact.
 */
export function parseCommandLine<Parsed>(command: string, parse: () => Parsed): Parsed {
  try {
    return parse();
  } catch (error) {
    // Node's messages carry a second sentence of advice; the first one names the problem.
    const text = error instanceof Error ? error.message : String(error);
    const first = text.split(/\.\s/u)[0]!.replace(/\.$/u, '');
    throw new UsageError(`${command}: ${first} (see \`${command} --help\`)`);
  }
}

/** The settings every command parses with: strict, positionals allowed. */
export function strictArgs<const Options extends ParseOptions>(args: readonly string[], options: Options) {
  return { args: [...args], options, strict: true, allowPositionals: true } as const;
}

/** Refuses positionals beyond `max`. */
export function expectPositionals(command: string, positionals: readonly string[], max: number): void {
  if (positionals.length > max) {
    throw new UsageError(`${command}: unexpected argument '${positionals[max]}' (see \`${command} --help\`)`);
  }
}
