/** A file's text as lines: each line's content without its ending, and the ending it had. */
export interface TextLines {
  readonly contents: string[];
  /** `\n`, `\r\n`, or `` for a last line without one. */
  readonly endings: string[];
  /** The ending new lines get: `\r\n` when every line break of the file is one, else `\n`. */
  readonly newline: string;
}

/** Splits text at `\n`; a `\r` before it belongs to the ending, so a CRLF file's lines read as their content. */
export function splitTextLines(text: string): TextLines {
  const contents: string[] = [];
  const endings: string[] = [];
  let start = 0;
  let crlf = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    const carriage = end > start && text.charCodeAt(end - 1) === 13;
    if (carriage) crlf++;
    contents.push(text.slice(start, carriage ? end - 1 : end));
    endings.push(carriage ? '\r\n' : '\n');
    start = end + 1;
  }
  if (start < text.length) {
    contents.push(text.slice(start));
    endings.push('');
  }
  const breaks = endings.filter((ending) => ending !== '').length;
  return { contents, endings, newline: breaks > 0 && crlf === breaks ? '\r\n' : '\n' };
}

/** Joins lines back; only the last line may lack an ending. */
export function joinTextLines(contents: readonly string[], endings: readonly string[]): string {
  let text = '';
  for (let index = 0; index < contents.length; index++) text += contents[index]! + endings[index]!;
  return text;
}
