import type { IncomingMessage, ServerResponse } from 'node:http';
import { LibosError } from '@libos/core';
import { forPerson, shownChanges, shownConflicts, shownDiff } from './person-text.js';
import { readJsonBody } from './read-json-body.js';
import { loadAssets } from './review-assets.js';
import { answerApproval, type ReviewApprovals, shownApprovals } from './review-approvals.js';
import type { ReviewCalls, ReviewOperations } from './review-operations.js';
import { refusalOf, type RequestPolicy } from './review-request.js';

/** Options of `createReviewHandler`. */
export interface ReviewHandlerOptions extends RequestPolicy {
  /** The overlay's operations; without them the page lists pending approvals only. */
  readonly operations?: ReviewOperations | undefined;
  /** Pending approvals to list and answer (`--approvals DIR`); without it the page shows none. */
  readonly approvals?: ReviewApprovals | undefined;
  /** The calls behind each change (`--audit`); without it the page shows no calls column. */
  readonly calls?: ReviewCalls;
}

/** How many changes one page of the list holds, and calls shown per change. */
const PAGE_SIZE = 200;
const CALLS_PER_PATH = 20;
/** A diff the page shows at once: cut with a note past this (the CLI's `diff` gives it all). */
const DIFF_MAX_BYTES = 1_048_576;

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
} as const;

type Route = (request: IncomingMessage, url: URL) => Promise<unknown>;

/**
 * The review server's request handler: the page's files and a small JSON API over the overlay's
 * operations. Every GET only reads; every change is a POST with the token and the page's Origin.
 */
export function createReviewHandler(options: ReviewHandlerOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const assets = loadAssets();
  const { calls, approvals } = options;
  // Without an overlay the page only answers approvals: every change route says there is none.
  const operations: ReviewOperations = options.operations ?? noOverlay();

  const reads: Record<string, Route> = {
    '/api/changes': async (_request, url) => {
      if (options.operations === undefined) return { no_overlay: true };
      const cursor = url.searchParams.get('cursor');
      const page = await operations.changes({ limit: PAGE_SIZE, ...(cursor === null ? {} : { cursor }) });
      // The newest apply still undoable, whoever made it (this page, `libos apply`, another page).
      const last = await operations.lastApply();
      const lastApply = last === null ? null : { ...last, applied_text: last.applied.map((path) => forPerson(path)) };
      return {
        ...page,
        changes: shownChanges(page.changes),
        last_apply_id: last?.apply_id ?? null,
        last_apply: lastApply,
        audit: calls !== undefined,
      };
    },
    '/api/diff': async (_request, url) => {
      const path = url.searchParams.get('path');
      if (path === null || path === '') throw new LibosError('invalid_arguments', 'Say which change to show: ?path=PATH.');
      return shownDiff(await operations.diff({ paths: [path], maxBytes: DIFF_MAX_BYTES }));
    },
    '/api/calls': async (_request, url) => {
      const paths = url.searchParams.getAll('path');
      const found = calls === undefined ? {} : await calls.callsFor(paths, CALLS_PER_PATH);
      const shown = Object.entries(found).map(([path, list]) => [
        path,
        list.map((call) => ({ ...call, tool: forPerson(call.tool), client: call.client === null ? null : forPerson(call.client) })),
      ]);
      return { calls: Object.fromEntries(shown) };
    },
    '/api/approvals': async () => shownApprovals(approvals),
  };
  const actions: Record<string, Route> = {
    '/api/apply': async (request) => {
      const body = await bodyOf(request);
      const mode = body.mode === 'all_or_nothing' ? 'all_or_nothing' : 'per_file';
      return shownConflicts(await operations.apply({ ...selectionOf(body), mode }));
    },
    '/api/discard': async (request) => shownConflicts(await operations.discard(selectionOf(await bodyOf(request)))),
    '/api/undo': async (request) => {
      const body = await bodyOf(request);
      if (typeof body.apply_id !== 'string') throw new LibosError('invalid_arguments', 'Say which apply to undo: {"apply_id": ID}.');
      return shownConflicts(await operations.undoApply(body.apply_id));
    },
    '/api/approvals/answer': async (request) => answerApproval(approvals, await bodyOf(request)),
  };

  return (request, response) => {
    const refusal = refusalOf(request, options);
    if (refusal !== undefined) return send(response, refusal.status, { error: { code: 'refused', message: refusal.message } });
    const url = new URL(request.url ?? '/', options.origin);
    const asset = assets.get(url.pathname);
    if (asset !== undefined) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, { error: { code: 'refused', message: 'Use GET.' } });
      response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': asset.type, 'content-length': asset.body.length });
      response.end(request.method === 'HEAD' ? undefined : asset.body);
      return;
    }
    const read = reads[url.pathname];
    const action = actions[url.pathname];
    const route = request.method === 'GET' ? read : request.method === 'POST' ? action : undefined;
    if (route === undefined) {
      const status = read !== undefined || action !== undefined ? 405 : 404;
      return send(response, status, { error: { code: 'refused', message: status === 405 ? `Use ${read ? 'GET' : 'POST'}.` : 'No such page.' } });
    }
    route(request, url).then(
      (result) => send(response, 200, result),
      (error: unknown) => {
        const libos = LibosError.is(error) ? error : undefined;
        const status = libos === undefined ? 500 : libos.code === 'invalid_arguments' ? 400 : 409;
        const message = forPerson(libos?.message ?? 'The operation failed on the server; see its log.');
        // One line for the person running the page, never a stack trace (docs/overlay.md, "CLI").
        if (libos === undefined)
          process.stderr.write(`libos review: ${url.pathname}: ${forPerson(error instanceof Error ? error.message : String(error))}\n`);
        send(response, status, { error: { code: libos?.code ?? 'provider_failure', message, effect: libos?.effect ?? 'unknown' } });
      },
    );
  };
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new LibosError('invalid_arguments', 'Send the action as JSON (content-type: application/json).');
  }
  const body = await readJsonBody(request);
  if (body === undefined) throw new LibosError('invalid_arguments', 'The body must be one JSON object of at most 1 MiB.');
  return body;
}

/**
 * What the page acts on and the versions it showed (docs/overlay.md, "Versions"): `paths` with the
 * `shown` version of every listed change they concern, or no `paths` (every change) with the
 * `shown_set` of the listing. A list must name at least one path, so "none selected" never means
 * all; an action that names no version is refused, so the page never lands what it did not show.
 */
function selectionOf(body: Record<string, unknown>): {
  paths?: readonly string[];
  shown?: readonly string[];
  shownSet?: string;
  hunks?: Readonly<Record<string, readonly number[]>>;
} {
  if (body.paths === undefined) {
    if (typeof body.shown_set !== 'string') {
      throw new LibosError('invalid_arguments', 'An action on every change names the version of the list it was shown: {"shown_set": VERSION}.');
    }
    return { shownSet: body.shown_set };
  }
  if (!Array.isArray(body.paths) || body.paths.length === 0 || !body.paths.every((path) => typeof path === 'string' && path !== '')) {
    throw new LibosError('invalid_arguments', '`paths` must be a non-empty list of changed paths, or absent for every change.');
  }
  if (!Array.isArray(body.shown) || body.shown.length === 0 || !body.shown.every((version) => typeof version === 'string')) {
    throw new LibosError('invalid_arguments', 'An action on paths names the version of each change it was shown: {"shown": [VERSION, ...]}.');
  }
  // Hunks of a path (docs/overlay.md, "Hunks"): the overlay checks them against the version shown.
  const hunks = body.hunks === undefined ? {} : { hunks: body.hunks as Record<string, readonly number[]> };
  return { paths: body.paths as string[], shown: body.shown as string[], ...hunks };
}

function send(response: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
}

/** The operations of a page started without an overlay: each refuses, saying so. */
function noOverlay(): ReviewOperations {
  const refuse = async (): Promise<never> => {
    throw new LibosError('invalid_arguments', 'This page was started without --overlay: there are no changes to act on.');
  };
  return { changes: refuse, diff: refuse, apply: refuse, discard: refuse, undoApply: refuse, lastApply: refuse };
}
