import { describe, expect, it } from 'vitest';
import { formatTools } from '../src/commands/tool-formats.js';
import { describeFailure, formatListing } from '../src/shell/format-output.js';
import { restAfter, splitWords } from '../src/shell/split-words.js';
import type { ToolSummary } from '@libos/tools';

describe('splitWords', () => {
  it('splits at whitespace and honours both quote kinds', () => {
    expect(splitWords(`write "a b.txt" 'c  d' e\\"f "x\\"y" a\\b two\\ words`).map((word) => word.text)).toEqual([
      'write',
      'a b.txt',
      'c  d',
      'e"f',
      'x"y',
      'a\\b',
      'two words',
    ]);
  });

  it('keeps the raw rest of a line after some words', () => {
    const line = 'write notes.txt   two  spaces kept';
    expect(restAfter(line, splitWords(line), 2)).toBe('two  spaces kept');
    expect(restAfter('pwd', splitWords('pwd'), 1)).toBe('');
  });
});

describe('formatListing', () => {
  it('aligns kinds, sizes, times and names, marking directories and links', () => {
    const text = formatListing({
      path: 'docs',
      count: 2,
      truncated: true,
      entries: [
        { name: 'guide', kind: 'directory', size_bytes: null, modified_at: '2026-01-02T03:04:05.678Z' },
        { name: 'link', kind: 'symlink', size_bytes: null, modified_at: '2026-01-02T03:04:05.678Z' },
      ],
    });
    expect(text.split('\n')).toEqual([
      'KIND       SIZE  MODIFIED (UTC)       NAME',
      'directory     -  2026-01-02 03:04:05  guide/',
      'symlink       -  2026-01-02 03:04:05  link@',
      '2 entries shown; the directory holds more (use `ls PATH LIMIT`)',
      '',
    ]);
  });

  it('says when a directory is empty', () => {
    expect(formatListing({ path: 'x', count: 0, truncated: false, entries: [] })).toBe('(x is empty)\n');
  });
});

describe('describeFailure', () => {
  it('warns to look again when the effect is unknown', () => {
    expect(describeFailure('rmdir', { code: 'provider_failure', message: 'The disk failed.', effect: 'unknown' })).toBe(
      'rmdir: The disk failed. Part of it may have happened: look at the workspace before trying again. [provider_failure]\n',
    );
  });
});

describe('formatTools', () => {
  const tool: ToolSummary = {
    name: 'read_text_file',
    title: 'Read a text file',
    description: 'Reads a file.',
    inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} },
    outputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };

  it('gives each ecosystem its shape', () => {
    const parameters = { type: 'object', properties: {} };
    expect(formatTools([tool], 'openai')).toEqual([
      { type: 'function', function: { name: 'read_text_file', description: 'Reads a file.', parameters } },
    ]);
    expect(formatTools([tool], 'openai-responses')).toEqual([{ type: 'function', name: 'read_text_file', description: 'Reads a file.', parameters }]);
    expect(formatTools([tool], 'anthropic')).toEqual([{ name: 'read_text_file', description: 'Reads a file.', input_schema: parameters }]);
    expect(formatTools([tool], 'json-schema')).toEqual({ read_text_file: { input: tool.inputSchema, output: tool.outputSchema } });
    expect(formatTools([tool], 'mcp')).toEqual({
      tools: [
        {
          name: 'read_text_file',
          title: 'Read a text file',
          description: 'Reads a file.',
          inputSchema: tool.inputSchema,
          outputSchema: tool.outputSchema,
          annotations: { title: 'Read a text file', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        },
      ],
    });
  });
});
