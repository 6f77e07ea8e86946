import { LibosError } from '@libos/core';

/** One line of an update chunk: kept (` `), removed (`-`) or added (`+`). */
export interface ChunkLine {
  readonly op: ' ' | '-' | '+';
  readonly text: string;
}

/** An `@@ text` line: the chunk lies after the first line at or past the search point that reads exactly `text`. */
export interface ChunkAnchor {
  readonly text: string;
  /** 1-based line of the patch, for messages. */
  readonly line: number;
}

/** One change of an updated file: its anchors, its lines, and whether it must end at the end of the file. */
export interface PatchChunk {
  readonly anchors: readonly ChunkAnchor[];
  readonly lines: readonly ChunkLine[];
  readonly endOfFile: boolean;
  /** 1-based line of the patch where the chunk starts. */
  readonly line: number;
}

/** One file operation of a patch, with the path as written (relative to the working directory). */
export type PatchOperation =
  | { readonly kind: 'add'; readonly path: string; readonly line: number; readonly lines: readonly string[] }
  | { readonly kind: 'delete'; readonly path: string; readonly line: number }
  | {
      readonly kind: 'update';
      readonly path: string;
      readonly line: number;
      readonly moveTo?: { readonly path: string; readonly line: number };
      readonly chunks: readonly PatchChunk[];
    };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

/**
 * Parses a patch in the V4A format (`*** Begin Patch` ... `*** End Patch`) strictly: every line
 * must be what the grammar allows where it stands, else `invalid_arguments` naming the line (1-based)
 * and what was expected there. Lines end at `\n`; a `\r` before it is part of the line ending, so a
 * patch sent with CRLF reads the same. Nothing is looked up: this is the patch's text alone.
 */
export function parsePatch(patch: string): PatchOperation[] {
  const lines = patch.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  // One newline after `*** End Patch` ends the text; nothing else may follow it.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (lines[0] !== BEGIN) throw malformed(1, lines[0] ?? '', `the patch must start with "${BEGIN}"`);
  if (lines.length < 2 || lines[lines.length - 1] !== END)
    throw malformed(lines.length, lines[lines.length - 1] ?? '', `the patch must end with "${END}"`);
  const body = lines.slice(1, -1);
  const operations: PatchOperation[] = [];
  let index = 0;
  // Patch line numbers are 1-based and the body starts on line 2.
  const lineOf = (at: number) => at + 2;
  while (index < body.length) {
    const line = body[index]!;
    const at = lineOf(index);
    if (line.startsWith(ADD)) {
      const path = fileName(line, ADD, at);
      const added: string[] = [];
      index++;
      while (index < body.length && !body[index]!.startsWith('*** ')) {
        const content = body[index]!;
        if (!content.startsWith('+')) throw malformed(lineOf(index), content, 'every line of an added file starts with "+"');
        added.push(content.slice(1));
        index++;
      }
      operations.push({ kind: 'add', path, line: at, lines: added });
    } else if (line.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: fileName(line, DELETE, at), line: at });
      index++;
    } else if (line.startsWith(UPDATE)) {
      const path = fileName(line, UPDATE, at);
      index++;
      let moveTo: { path: string; line: number } | undefined;
      if (index < body.length && body[index]!.startsWith(MOVE)) {
        moveTo = { path: fileName(body[index]!, MOVE, lineOf(index)), line: lineOf(index) };
        index++;
      }
      const parsed = parseChunks(body, index, lineOf);
      index = parsed.next;
      if (parsed.chunks.length === 0 && moveTo === undefined)
        throw malformed(at, line, 'an updated file needs at least one change or a "*** Move to:" line');
      operations.push({ kind: 'update', path, line: at, ...(moveTo === undefined ? {} : { moveTo }), chunks: parsed.chunks });
    } else {
      throw malformed(at, line, `expected "${ADD}", "${DELETE}" or "${UPDATE}" followed by a path`);
    }
  }
  if (operations.length === 0) throw malformed(lines.length, END, 'the patch holds no file operation');
  return operations;
}

function parseChunks(body: readonly string[], start: number, lineOf: (at: number) => number): { chunks: PatchChunk[]; next: number } {
  const chunks: PatchChunk[] = [];
  let index = start;
  let current: { anchors: ChunkAnchor[]; lines: ChunkLine[]; line: number } | undefined;
  const close = (endOfFile: boolean, at: number) => {
    if (current === undefined) return;
    if (!current.lines.some((line) => line.op !== ' ')) throw malformed(at, body[index] ?? '', 'a change needs at least one "+" or "-" line');
    chunks.push({ anchors: current.anchors, lines: current.lines, endOfFile, line: current.line });
    current = undefined;
  };
  while (index < body.length && (!body[index]!.startsWith('*** ') || body[index] === END_OF_FILE)) {
    const line = body[index]!;
    const at = lineOf(index);
    if (line === END_OF_FILE) {
      if (current === undefined || current.lines.length === 0) throw malformed(at, line, `"${END_OF_FILE}" must end a change`);
      close(true, at);
    } else if (line === '@@' || line.startsWith('@@ ')) {
      // Consecutive `@@` lines narrow the same change (a class, then a method in it).
      if (current !== undefined && current.lines.length > 0) close(false, at);
      current ??= { anchors: [], lines: [], line: at };
      if (line !== '@@') current.anchors.push({ text: line.slice(3), line: at });
    } else {
      const op = line === '' ? ' ' : line[0];
      if (op !== ' ' && op !== '-' && op !== '+') throw malformed(at, line, 'a change line starts with " ", "-" or "+"');
      current ??= { anchors: [], lines: [], line: at };
      // An empty line is an empty context line: editors and models drop the lone space.
      current.lines.push({ op, text: line.slice(1) });
    }
    index++;
  }
  close(false, lineOf(index));
  return { chunks, next: index };
}

function fileName(line: string, prefix: string, at: number): string {
  const path = line.slice(prefix.length);
  if (path.trim() === '') throw malformed(at, line, `"${prefix.trim()}" needs a path`);
  return path;
}

function malformed(line: number, text: string, expected: string): LibosError {
  const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return new LibosError('invalid_arguments', `The patch is malformed at line ${line}: ${expected}.`, {
    details: { line, text: shown },
  });
}
