import { LibosError } from '@libos/core';
import { findLiteralLines, matchOfHit, type LineMatch } from './find-in-text.js';
import { regexEngineUrl, startRegexWorker, type RegexStop } from './regex-worker.js';
import type { WalkClock } from './walk-clock.js';

/** Finds the matching lines of one decoded file. */
export interface TextSearcher {
  /** The first `limit` matching lines of `text`, one per line at its first match. */
  find(text: string, limit: number): Promise<readonly LineMatch[]>;
  close(): void;
}

// RE2's flag for case-insensitive matching (RE2JS.CASE_INSENSITIVE), so the engine itself is only
// loaded on the worker's thread.
const CASE_INSENSITIVE = 1;

/**
 * A case-sensitive literal is found with indexOf on this thread (linear, and fast enough that a
 * slice of the walk bounds it). Everything else, a pattern or a literal whose case is folded, is
 * compiled and run by RE2 on the process's bounded pool of regex threads, one job per file queued
 * under `owner` (the calling process: the pool serves sessions in turn), and the walk's clock ends
 * them at its deadline or cancellation. Throws `invalid_arguments` for a pattern RE2 refuses (backreferences, lookarounds,
 * bad syntax, a program too large), and the clock's stop when it stops first.
 */
export async function createTextSearcher(
  query: string,
  options: { readonly regex: boolean; readonly caseSensitive: boolean; readonly owner: string },
  clock: WalkClock,
): Promise<TextSearcher> {
  if (!options.regex && options.caseSensitive) {
    return {
      async find(text, limit) {
        const found: LineMatch[] = [];
        findLiteralLines(text, query, (match) => found.push(match) < limit);
        return found;
      },
      close: () => undefined,
    };
  }
  const pattern = options.regex ? query : quoteLiteral(query);
  const worker = startRegexWorker(await regexEngineUrl(), pattern, options.caseSensitive ? 0 : CASE_INSENSITIVE, options.owner);
  clock.onStop(() => worker.terminate());
  try {
    await clock.race(worker.ready.catch(refusal));
  } catch (error) {
    worker.terminate();
    throw error;
  }
  return {
    async find(text, limit) {
      const hits = await clock.race(worker.find(text, limit).catch(refusal));
      return hits.map((hit) => matchOfHit(text, hit));
    },
    close: () => worker.terminate(),
  };
}

// The worker stopped because the clock did: `race` turns that into the clock's own answer.
function refusal(stop: RegexStop): never {
  if (stop.kind === 'invalid') {
    throw new LibosError('invalid_arguments', `Invalid arguments for search_files: query ${stop.problem}.`, {
      details: { issues: [{ path: 'query', code: 'invalid_pattern', message: `query: ${stop.problem}` }] },
    });
  }
  throw stop;
}

// RE2 syntax treats these as operators; `\Q...\E` would need its own escape for a literal `\E`.
function quoteLiteral(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/gu, '\\$&');
}
