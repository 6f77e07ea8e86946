import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, mkdir, open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeForDisplay, LibosError, type ApprovalRequest } from '@libos/core';

/** A person's answer to one pending approval. */
export type PendingAnswer = 'approve' | 'reject';

/** One call waiting for a person, as a request file holds it (docs/mcp.md, "Pending approvals"). */
export interface PendingApproval {
  /** 16 lowercase hex digits: what the person types (`libos approvals approve ID`). */
  readonly id: string;
  /** ISO 8601 times: when the call began to wait, and when it stops waiting. */
  readonly created_at: string;
  readonly expires_at: string;
  /** Exactly what an elicitation would show: the runtime's request, every free text already escaped. */
  readonly request: ApprovalRequest;
  /** SHA-256 of `request.message`: an answer names it, so it answers this text and nothing else. */
  readonly shown_sha256: string;
}

const ID = /^[0-9a-f]{16}$/u;
const REQUEST = '.request.json';
const ANSWER = '.answer.json';
/** A request holds at most a path, a preview and a sentence: far below this. An answer is smaller still. */
const FILE_MAX_BYTES = 262_144;

/**
 * The directory where calls wait for a person's answer when their client cannot ask one (MCP
 * without elicitation, or no client at all). The serving process writes `ID.request.json`; the
 * person's process (`libos approvals`, the review page) writes `ID.answer.json`. Both are written
 * whole under a temporary name and then linked into place, so no reader sees a torn file and no
 * second answer replaces a first. The directory must be the user's own and closed to everyone
 * else (0700), and each file read must be the user's own, a regular file closed to everyone else:
 * a file another user or a group member could have written is not believed.
 */
export class ApprovalDirectory {
  readonly path: string;

  private constructor(path: string) {
    this.path = path;
  }

  /**
   * Opens DIR, creating it (0700, its parent must exist) when missing unless `create` is false (a
   * person's command never creates what it was asked to read); refuses one open to others.
   */
  static async open(path: string, options: { readonly create?: boolean } = {}): Promise<ApprovalDirectory> {
    if (options.create !== false) {
      await mkdir(path, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw new Error(`${escapeForDisplay(path)}: cannot create it (${error.code ?? error.message})`);
      });
    }
    const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      throw new Error(
        `${escapeForDisplay(path)}: ${error.code === 'ENOENT' ? 'does not exist (the server creates it at start)' : (error.code ?? error.message)}`,
      );
    });
    if (!info.isDirectory()) throw new Error(`${escapeForDisplay(path)}: is not a directory (a link is not followed)`);
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) throw new Error(`${escapeForDisplay(path)}: belongs to another user`);
    if ((info.mode & 0o077) !== 0) {
      throw new Error(`${escapeForDisplay(path)}: is open to other users (mode ${(info.mode & 0o777).toString(8)}); make it 0700 (chmod 700)`);
    }
    return new ApprovalDirectory(path);
  }

  /** Writes a new request for `request`, waiting until `expiresAt` (ms since the epoch). */
  async add(request: ApprovalRequest, expiresAt: number): Promise<PendingApproval> {
    const now = Date.now();
    const pending: PendingApproval = {
      id: randomBytes(8).toString('hex'),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(expiresAt).toISOString(),
      request,
      shown_sha256: createHash('sha256').update(request.message).digest('hex'),
    };
    await this.#place(`${pending.id}${REQUEST}`, pending);
    return pending;
  }

  /**
   * The requests still waiting, oldest first, each saying whether an answer already lies beside it.
   * Expired ones are removed (their call stopped waiting, or its process died); files that are not
   * the user's own, or not a request, are left out.
   */
  async list(): Promise<(PendingApproval & { readonly answered: boolean })[]> {
    const now = Date.now();
    const found: (PendingApproval & { readonly answered: boolean })[] = [];
    const names = await readdir(this.path);
    const answers = new Set(names.filter((name) => name.endsWith(ANSWER)).map((name) => name.slice(0, -ANSWER.length)));
    for (const name of names) {
      if (!name.endsWith(REQUEST)) continue;
      const id = name.slice(0, -REQUEST.length);
      const pending = ID.test(id) ? await this.#readRequest(id) : undefined;
      if (pending === undefined) continue;
      // Answered: the call takes the answer at its next look (within a poll); no second answer is taken.
      if (Date.parse(pending.expires_at) <= now) await this.remove(id);
      else found.push({ ...pending, answered: answers.has(id) });
    }
    return found.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  /**
   * Answers request `id` for the person. Refused (`invalid_arguments`) for an id that names no
   * waiting request (never made, taken, or expired) or one already answered; the first answer stands.
   */
  async answer(id: string, answer: PendingAnswer): Promise<PendingApproval> {
    const shownId = escapeForDisplay(id.slice(0, 64));
    if (!ID.test(id))
      throw new LibosError('invalid_arguments', `"${shownId}" is not an approval id (16 hex digits, as \`libos approvals list\` shows).`);
    const pending = await this.#readRequest(id);
    if (pending === undefined) {
      throw new LibosError(
        'invalid_arguments',
        `No call waits on approval ${shownId}: it was answered, its call stopped waiting, or it never existed.`,
      );
    }
    if (Date.parse(pending.expires_at) <= Date.now()) {
      await this.remove(id);
      throw new LibosError(
        'invalid_arguments',
        `Approval ${shownId} expired at ${pending.expires_at}: its call no longer waits. Nothing was answered.`,
      );
    }
    const placed = await this.#place(`${id}${ANSWER}`, { id, answer, shown_sha256: pending.shown_sha256 });
    if (!placed) throw new LibosError('invalid_arguments', `Approval ${shownId} is already answered; the first answer stands.`);
    // The call may have stopped waiting between the check and the answer: the request is gone and
    // the answer still lies there, untaken. Say so, and take it back. (Both gone: the call took it,
    // or ended in the same instant and removed both.)
    const orphan =
      (await this.#readRequest(id)) === undefined && (await lstat(join(this.path, `${id}${ANSWER}`)).catch(() => undefined)) !== undefined;
    if (orphan) {
      await unlink(join(this.path, `${id}${ANSWER}`)).catch(() => undefined);
      throw new LibosError('invalid_arguments', `Approval ${shownId} ended while it was being answered: its call no longer waits.`);
    }
    return pending;
  }

  /**
   * The person's answer to `pending`, if one is there: believed only when the file is the user's
   * own regular file closed to others, names this request and the very text it showed. A file that
   * fails any of this is removed (so the person can still answer) and reported through `onIgnored`.
   */
  async answerTo(pending: PendingApproval, onIgnored: (reason: string) => void = () => {}): Promise<PendingAnswer | undefined> {
    const name = `${pending.id}${ANSWER}`;
    const read = await readOwnFile(join(this.path, name));
    if (read === undefined) return undefined;
    const value = 'text' in read ? parse(read.text) : undefined;
    const valid =
      value !== undefined &&
      value.id === pending.id &&
      value.shown_sha256 === pending.shown_sha256 &&
      (value.answer === 'approve' || value.answer === 'reject');
    if (valid) return value.answer as PendingAnswer;
    await unlink(join(this.path, name)).catch(() => undefined);
    onIgnored('refusal' in read ? read.refusal : 'it does not answer this request (another id, another text, or no answer)');
    return undefined;
  }

  /** Removes request `id` and its answer: the call stopped waiting, or took its answer. */
  async remove(id: string): Promise<void> {
    await unlink(join(this.path, `${id}${REQUEST}`)).catch(() => undefined);
    await unlink(join(this.path, `${id}${ANSWER}`)).catch(() => undefined);
  }

  /**
   * Writes `value` as `name` whole: a temporary file (exclusive, 0600) linked into place, which
   * never replaces a file already there (then this resolves false: the first answer stands).
   */
  async #place(name: string, value: unknown): Promise<boolean> {
    const temporary = join(this.path, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    const file = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await file.writeFile(JSON.stringify(value));
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await link(temporary, join(this.path, name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }

  async #readRequest(id: string): Promise<PendingApproval | undefined> {
    const read = await readOwnFile(join(this.path, `${id}${REQUEST}`));
    const value = read !== undefined && 'text' in read ? parse(read.text) : undefined;
    return value !== undefined && isPending(value, id) ? value : undefined;
  }
}

/**
 * The text of `path` when it is a regular file of this user closed to everyone else (opened without
 * following a link, checked on the open descriptor); a refusal saying why otherwise; undefined when absent.
 */
async function readOwnFile(path: string): Promise<{ text: string } | { refusal: string } | undefined> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return { refusal: `it cannot be opened as a file (${code ?? 'error'})` };
  }
  try {
    const info = await file.stat();
    const uid = process.getuid?.();
    if (!info.isFile()) return { refusal: 'it is not a regular file' };
    if (uid !== undefined && info.uid !== uid) return { refusal: 'it belongs to another user' };
    if ((info.mode & 0o077) !== 0) return { refusal: `it is open to other users (mode ${(info.mode & 0o777).toString(8)})` };
    if (info.size > FILE_MAX_BYTES) return { refusal: 'it is too large' };
    return { text: await file.readFile('utf8') };
  } finally {
    await file.close();
  }
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isPending(value: Record<string, unknown>, id: string): value is Record<string, unknown> & PendingApproval {
  const request = value.request as Record<string, unknown> | undefined;
  return (
    value.id === id &&
    typeof value.created_at === 'string' &&
    typeof value.expires_at === 'string' &&
    !Number.isNaN(Date.parse(value.expires_at)) &&
    typeof value.shown_sha256 === 'string' &&
    typeof request === 'object' &&
    request !== null &&
    typeof request.message === 'string' &&
    typeof request.tool === 'string' &&
    typeof request.path === 'string' &&
    createHash('sha256').update(request.message).digest('hex') === value.shown_sha256
  );
}
