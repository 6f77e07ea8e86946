import type { IncomingMessage, ServerResponse } from 'node:http';
import { LibosError } from '@libos/core';
import { readJsonBody } from './read-json-body.js';
import { loadAssets } from './review-assets.js';
import type { ReviewCalls, ReviewOperations } from './review-operations.js';
import { refusalOf, type RequestPolicy } from './review-request.js';

/** Options of `createReviewHandler`. */
export interface ReviewHandlerOptions extends RequestPolicy {
  readonly operations: ReviewOperations;
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
  const { operations, calls } = options;

  const reads: Record<string, Route> = {
    '/api/changes': async (_request, url) => {
      const cursor = url.searchParams.get('cursor');
      const page = await operations.changes({ limit: PAGE_SIZE, ...(cursor === null ? {} : { cursor }) });
      // The newest apply still undoable, whoever made it (this page, `libos apply`, another page).
      const last = await operations.lastApply();
      return { ...page, last_apply_id: last?.apply_id ?? null, last_apply: last, audit: calls !== undefined };
    },
    '/api/diff': async (_request, url) => {
      const path = url.searchParams.get('path');
      if (path === null || path === '') throw new LibosError('invalid_arguments', 'Say which change to show: ?path=PATH.');
      return operations.diff({ paths: [path], maxBytes: DIFF_MAX_BYTES });
    },
    '/api/calls': async (_request, url) => {
      const paths = url.searchParams.getAll('path');
      return { calls: calls === undefined ? {} : await calls.callsFor(paths, CALLS_PER_PATH) };
    },
  };
  const actions: Record<string, Route> = {
    '/api/apply': async (request) => {
      const body = await bodyOf(request);
      const mode = body.mode === 'all_or_nothing' ? 'all_or_nothing' : 'per_file';
      return operations.apply({ ...pathsOf(body), mode });
    },
    '/api/discard': async (request) => operations.discard(pathsOf(await bodyOf(request))),
    '/api/undo': async (request) => {
      const body = await bodyOf(request);
      if (typeof body.apply_id !== 'string') throw new LibosError('invalid_arguments', 'Say which apply to undo: {"apply_id": ID}.');
      return operations.undoApply(body.apply_id);
    },
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
        const message = libos?.message ?? 'The operation failed on the server; see its log.';
        if (libos === undefined) process.stderr.write(`libos review: ${error instanceof Error ? error.stack : String(error)}\n`);
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

/** `paths` absent means every change; a list must name at least one, so "none selected" never means all. */
function pathsOf(body: Record<string, unknown>): { paths?: readonly string[] } {
  if (body.paths === undefined) return {};
  if (!Array.isArray(body.paths) || body.paths.length === 0 || !body.paths.every((path) => typeof path === 'string' && path !== '')) {
    throw new LibosError('invalid_arguments', '`paths` must be a non-empty list of changed paths, or absent for every change.');
  }
  return { paths: body.paths as string[] };
}

function send(response: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
}
