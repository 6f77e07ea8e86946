import { escapeForDisplay, type CallResult } from '@libos/core';
import { mediaMetadataOf, mediaResultOf, type ToolCaller } from '@libos/tools';
import { describeFailure, formatListing } from './format-output.js';
import { restAfter, splitWords, type Word } from './split-words.js';

/** `help` inside the shell. */
export const SHELL_COMMANDS_HELP = `Commands (paths are relative to the current directory):
  ls [PATH] [LIMIT]        list a directory
  cd [PATH]                change directory (no PATH: the workspace root)
  pwd                      print the current directory
  cat PATH                 print a text file
  write PATH TEXT...       write the rest of the line (plus a newline) to a file
  write PATH <<END         write the following lines, up to a line "END", to a file
  media PATH               read an image, audio file or PDF: its type, size and SHA-256
  patch <<END              apply the following lines, up to "END", as an apply_patch patch
  mkdir PATH               create a directory and its missing parents
  rm PATH                  delete a file
  rmdir [-r] PATH          delete an empty directory (-r: and everything in it)
  tools                    list the tools for raw calls
  call TOOL [JSON]         raw tool call, e.g. call read_text_file {"path": "a.txt", "max_bytes": 10}
  TOOL [JSON]              the same without "call"
  help, exit
`;

interface PendingHeredoc {
  readonly command: string;
  readonly marker: string;
  readonly lines: string[];
  /** What the collected text is for, once the marker line arrives. */
  readonly land: (text: string) => Promise<void>;
}

/** What a line asks the loop to do next. */
export type LineOutcome = 'continue' | 'exit';

/** The state of one interactive session: a process, its cwd (for the prompt), an open heredoc. */
export class ShellSession {
  #cwd = '.';
  #heredoc: PendingHeredoc | undefined;
  #failed = false;

  constructor(
    private readonly process: Pick<ToolCaller, 'call'>,
    private readonly toolNames: readonly string[],
    private readonly write: (text: string) => void,
  ) {}

  /** The prompt, showing the cwd, or the continuation prompt inside a heredoc. */
  get prompt(): string {
    return this.#heredoc === undefined ? `libos:${escapeForDisplay(this.#cwd)}$ ` : '> ';
  }

  /** True once any command has failed (a tool failure or a command the shell could not run). */
  get failed(): boolean {
    return this.#failed;
  }

  /** Abandons an open heredoc (Ctrl-C); true when there was one. */
  cancel(): boolean {
    const open = this.#heredoc !== undefined;
    this.#heredoc = undefined;
    return open;
  }

  /** Tells whether input ended inside a heredoc, reporting it. */
  finish(): void {
    if (this.#heredoc !== undefined)
      this.#complain(`${this.#heredoc.command}: input ended before the line "${this.#heredoc.marker}"; nothing written\n`);
  }

  /** Runs one input line. */
  async handleLine(line: string): Promise<LineOutcome> {
    if (this.#heredoc !== undefined) return this.#continueHeredoc(line);
    const words = splitWords(line);
    const command = words[0]?.text;
    if (command === undefined || command.startsWith('#')) return 'continue';
    switch (command) {
      case 'exit':
      case 'quit':
        return 'exit';
      case 'help':
        this.write(SHELL_COMMANDS_HELP);
        return 'continue';
      case 'tools':
        this.write(`${this.toolNames.join('\n')}\n`);
        return 'continue';
      case 'pwd':
        await this.#run('pwd', 'get_working_directory', {}, (result) => `${escapeForDisplay(String(result['working_directory']))}\n`);
        return 'continue';
      case 'ls':
        await this.#list(words);
        return 'continue';
      case 'cd':
        await this.#changeDirectory(words[1]?.text);
        return 'continue';
      case 'cat':
        await this.#withPath('cat', words, (path) => this.#run('cat', 'read_text_file', { path }, formatRead));
        return 'continue';
      case 'mkdir':
        await this.#withPath('mkdir', words, (path) => this.#run('mkdir', 'write_directory', { path }, () => ''));
        return 'continue';
      case 'rm':
        await this.#withPath('rm', words, (path) => this.#run('rm', 'delete_file', { path }, () => ''));
        return 'continue';
      case 'rmdir':
        await this.#removeDirectory(words);
        return 'continue';
      case 'write':
        await this.#writeCommand(line, words);
        return 'continue';
      case 'media':
        await this.#withPath('media', words, (path) => this.#run('media', 'read_media_file', { path }, formatMedia));
        return 'continue';
      case 'patch':
        this.#patchCommand(line, words);
        return 'continue';
      case 'call':
        await this.#rawCall(words[1]?.text, restAfter(line, words, 2));
        return 'continue';
      default:
        if (this.toolNames.includes(command)) await this.#rawCall(command, restAfter(line, words, 1));
        else this.#complain(`${escapeForDisplay(command)}: unknown command; type \`help\` for the list\n`);
        return 'continue';
    }
  }

  async #run(label: string, tool: string, args: unknown, render: (result: Record<string, unknown>) => string): Promise<CallResult> {
    const outcome = await this.process.call(tool, args);
    if (outcome.ok) this.write(render(outcome.result));
    else this.#complain(describeFailure(label, outcome.error));
    return outcome;
  }

  #complain(text: string): void {
    this.#failed = true;
    this.write(text);
  }

  async #withPath(label: string, words: readonly Word[], action: (path: string) => Promise<unknown>): Promise<void> {
    const path = words[1]?.text;
    if (path === undefined || words.length > 2) this.#complain(`${label}: expected exactly one PATH\n`);
    else await action(path);
  }

  async #list(words: readonly Word[]): Promise<void> {
    const path = words[1]?.text ?? '';
    const limitText = words[2]?.text;
    const limit = limitText === undefined ? undefined : Number(limitText);
    if (limit !== undefined && !Number.isInteger(limit)) {
      this.#complain(`ls: LIMIT must be a whole number, not "${escapeForDisplay(limitText ?? '', { quotes: true })}"\n`);
      return;
    }
    await this.#run('ls', 'read_directory', limit === undefined ? { path } : { path, limit }, (result) =>
      formatListing(result as unknown as Parameters<typeof formatListing>[0]),
    );
  }

  async #changeDirectory(target: string | undefined): Promise<void> {
    // With no PATH (or "/"), climb back to the root: inputs are always relative to the cwd.
    const path = target === undefined || target === '/' ? rootFrom(this.#cwd) : target;
    const outcome = await this.#run('cd', 'set_working_directory', { path }, () => '');
    if (outcome.ok) this.#cwd = String(outcome.result['working_directory']);
  }

  async #removeDirectory(words: readonly Word[]): Promise<void> {
    const recursive = words[1]?.text === '-r';
    const rest = recursive ? words.slice(1) : words;
    await this.#withPath('rmdir', rest, (path) => this.#run('rmdir', 'delete_directory', { path, recursive }, () => ''));
  }

  async #writeCommand(line: string, words: readonly Word[]): Promise<void> {
    const path = words[1]?.text;
    if (path === undefined) {
      this.#complain('write: expected PATH and TEXT, or PATH <<END\n');
      return;
    }
    const rest = restAfter(line, words, 2);
    const heredoc = /^<<\s*(\S+)$/u.exec(rest);
    if (heredoc !== null) {
      this.#heredoc = { command: 'write', marker: heredoc[1]!, lines: [], land: (text) => this.#writeText(path, text) };
      return;
    }
    if (rest === '') {
      // A forgotten TEXT would otherwise replace the file with a lone newline.
      this.#complain('write: expected TEXT after PATH, or PATH <<END\n');
      return;
    }
    await this.#writeText(path, `${rest}\n`);
  }

  async #continueHeredoc(line: string): Promise<LineOutcome> {
    const heredoc = this.#heredoc!;
    if (line !== heredoc.marker) {
      heredoc.lines.push(line);
      return 'continue';
    }
    this.#heredoc = undefined;
    await heredoc.land(heredoc.lines.map((text) => `${text}\n`).join(''));
    return 'continue';
  }

  #patchCommand(line: string, words: readonly Word[]): void {
    const heredoc = /^<<\s*(\S+)$/u.exec(restAfter(line, words, 1));
    if (heredoc === null) {
      this.#complain('patch: expected <<END, then the patch, then a line "END"\n');
      return;
    }
    this.#heredoc = {
      command: 'patch',
      marker: heredoc[1]!,
      lines: [],
      land: async (patch) => {
        await this.#run('patch', 'apply_patch', { patch }, formatPatch);
      },
    };
  }

  async #writeText(path: string, content: string): Promise<void> {
    await this.#run(
      'write',
      'write_text_file',
      { path, content },
      (result) =>
        `${result['created'] === true ? 'created' : 'replaced'} ${escapeForDisplay(String(result['path']))} (${String(result['bytes_written'])} bytes)\n`,
    );
  }

  async #rawCall(tool: string | undefined, json: string): Promise<void> {
    if (tool === undefined) {
      this.#complain('call: expected TOOL and optional JSON arguments\n');
      return;
    }
    let args: unknown = {};
    if (json !== '') {
      try {
        args = JSON.parse(json) as unknown;
      } catch (error) {
        this.#complain(
          `${escapeForDisplay(tool)}: the arguments are not valid JSON (${escapeForDisplay(error instanceof Error ? error.message : String(error))})\n`,
        );
        return;
      }
    }
    const outcome = await this.#run(tool, tool, args, (result) => {
      // Megabytes of base64 are no use on a terminal: a media result shows its other fields.
      const media = mediaResultOf(result);
      const shown = media === undefined ? result : { ...mediaMetadataOf(media), data: `(${media.size_bytes} bytes of base64, not shown)` };
      return `${escapeForDisplay(JSON.stringify(shown, null, 2), { multiline: true })}\n`;
    });
    if (outcome.ok && tool === 'set_working_directory') this.#cwd = String(outcome.result['working_directory']);
  }
}

function rootFrom(cwd: string): string {
  return cwd === '.'
    ? '.'
    : cwd
        .split('/')
        .map(() => '..')
        .join('/');
}

/** A media read in one line: never the bytes themselves. */
function formatMedia(result: Record<string, unknown>): string {
  return `${escapeForDisplay(String(result['path']))}: ${String(result['mime_type'])}, ${String(result['size_bytes'])} bytes, SHA-256 ${String(result['sha256'])}\n`;
}

/** What a patch did, one line per file, then its diff, escaped. */
function formatPatch(result: Record<string, unknown>): string {
  const files = result['files'] as { path: string; operation: string; moved_to: string | null }[];
  const lines = files.map((file) => {
    const moved = file.moved_to === null ? '' : ` -> ${escapeForDisplay(file.moved_to)}`;
    return `${file.operation} ${escapeForDisplay(file.path)}${moved}\n`;
  });
  return `${lines.join('')}${escapeForDisplay(String(result['diff']), { multiline: true })}`;
}

/** File content as lines; controls, ANSI escapes and bidi overrides in it are shown escaped, never obeyed. */
function formatRead(result: Record<string, unknown>): string {
  const content = escapeForDisplay(String(result['content']), { multiline: true });
  const ending = content === '' || content.endsWith('\n') ? '' : '\n';
  const note = result['truncated'] === true ? `(truncated: first ${String(result['bytes_read'])} bytes shown)\n` : '';
  return `${content}${ending}${note}`;
}
