import { escapeForDisplay } from '@libos/core';
import type { DiffResult, ShownOptions } from '@libos/provider-overlay';
import { UsageError } from '../usage-error.js';

/**
 * JSON for a person's terminal (contract section 5): every character `escapeForDisplay` would
 * escape (controls, separators, bidirectional and other format characters) is written as a JSON
 * `\uXXXX` escape, so a name cannot rewrite or reorder the line, and the output still parses to
 * exactly the same values (a path printed can be passed back as it is).
 */
export function personJson(value: unknown): string {
  let out = '';
  for (const character of JSON.stringify(value, null, 2)) {
    // Outside strings JSON holds only ASCII punctuation, spaces and line feeds, none of them hidden.
    const hidden = character !== '\n' && escapeForDisplay(character, { multiline: true }) !== character;
    if (!hidden) out += character;
    else for (let unit = 0; unit < character.length; unit++) out += `\\u${character.charCodeAt(unit).toString(16).padStart(4, '0')}`;
  }
  return out;
}

/**
 * The diff as a person reads it: each line escaped on its own (tabs and backslashes kept, so an
 * ordinary diff prints unchanged; a CR, an escape sequence or a bidirectional override shows as
 * `\u{…}`), then the version of each change shown and of the whole (docs/overlay.md, "Versions").
 */
export function diffForPerson(diff: DiffResult): string {
  const lines = diff.text === '' ? [] : diff.text.replace(/\n$/u, '').split('\n');
  const shown = lines.map((line) => escapeForDisplay(line, { multiline: true }));
  for (const { path, version } of diff.versions) shown.push(`# version ${version} ${escapeForDisplay(path)}`);
  shown.push(
    diff.set_version === null
      ? '# no version of the whole: the diff was cut (or moved while it was read); name each change with --shown'
      : `# version ${diff.set_version} of everything above (libos apply --shown ${diff.set_version})`,
  );
  return `${shown.join('\n')}\n`;
}

/** `--shown VERSION`, repeatable: change versions (`c-…`) and at most one set version (`s-…`). */
export function shownOf(command: string, values: string | boolean | string[] | undefined): ShownOptions {
  if (values === undefined) return {};
  const given = Array.isArray(values) ? values : [String(values)];
  const sets = given.filter((version) => version.startsWith('s-'));
  if (sets.length > 1) throw new UsageError(`${command}: --shown takes one set version (s-…) at most`);
  const changes = given.filter((version) => !version.startsWith('s-'));
  return { ...(changes.length === 0 ? {} : { shown: changes }), ...(sets.length === 0 ? {} : { shownSet: sets[0] as string }) };
}
