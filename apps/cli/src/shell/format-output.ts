import { escapeForDisplay, type ToolFailure } from '@libos/core';

interface ListedEntry {
  readonly name: string;
  readonly kind: string;
  readonly size_bytes: number | null;
  readonly modified_at: string;
}

interface Listing {
  readonly path: string;
  readonly entries: readonly ListedEntry[];
  readonly count: number;
  readonly truncated: boolean;
}

const SUFFIX: Readonly<Record<string, string>> = { directory: '/', symlink: '@', other: '?' };

/** A directory listing as an aligned table, directories marked with `/` and links with `@`. */
export function formatListing(listing: Listing): string {
  if (listing.entries.length === 0) return `(${escapeForDisplay(listing.path)} is empty)\n`;
  const rows = listing.entries.map((entry) => [
    entry.kind,
    entry.size_bytes === null ? '-' : String(entry.size_bytes),
    entry.modified_at.replace('T', ' ').slice(0, 19),
    // A name is shown escaped: CR, ANSI escapes or a bidi override in it cannot redraw the table.
    `${escapeForDisplay(entry.name)}${SUFFIX[entry.kind] ?? ''}`,
  ]);
  const header = ['KIND', 'SIZE', 'MODIFIED (UTC)', 'NAME'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const render = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === 1 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  const lines = [render(header), ...rows.map(render)];
  const noun = listing.count === 1 ? 'entry' : 'entries';
  lines.push(listing.truncated ? `${listing.count} ${noun} shown; the directory holds more (use \`ls PATH LIMIT\`)` : `${listing.count} ${noun}`);
  return `${lines.join('\n')}\n`;
}

/** A failure in plain words: the tool's sentence, what happened to the workspace, and the code. */
export function describeFailure(command: string, error: ToolFailure): string {
  const effect = error.effect === 'unknown' ? ' Part of it may have happened: look at the workspace before trying again.' : '';
  return `${escapeForDisplay(command)}: ${escapeForDisplay(error.message)}${effect} [${error.code}]\n`;
}
