/** One word of a shell line and where it ends in the line. */
export interface Word {
  readonly text: string;
  readonly end: number;
}

/**
 * Splits a line into words at whitespace, honouring '...' (literal) and "..." (with \" and \\
 * escapes). Outside quotes a backslash escapes only a quote, a space or itself, so that other
 * backslashes stay ordinary path characters. A quote left open runs to the end of the line.
 */
export function splitWords(line: string): Word[] {
  const words: Word[] = [];
  let index = 0;
  while (index < line.length) {
    while (index < line.length && /\s/u.test(line[index]!)) index += 1;
    if (index >= line.length) break;
    let text = '';
    while (index < line.length && !/\s/u.test(line[index]!)) {
      const char = line[index]!;
      if (char === "'" || char === '"') {
        index += 1;
        while (index < line.length && line[index] !== char) {
          if (char === '"' && line[index] === '\\' && (line[index + 1] === '"' || line[index + 1] === '\\')) index += 1;
          text += line[index];
          index += 1;
        }
        index += 1;
      } else if (char === '\\' && index + 1 < line.length && /[\s'"\\]/u.test(line[index + 1]!)) {
        text += line[index + 1];
        index += 2;
      } else {
        text += char;
        index += 1;
      }
    }
    words.push({ text, end: Math.min(index, line.length) });
  }
  return words;
}

/** The raw text after the first `count` words, leading whitespace removed. */
export function restAfter(line: string, words: readonly Word[], count: number): string {
  const word = words[count - 1];
  return word === undefined ? line.trimStart() : line.slice(word.end).trimStart();
}
