import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ApprovalRequest } from '@libos/core';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import canonicalize from 'canonicalize';
import { type CallApprovals, currentCall } from '../current-call.js';
import { APPROVAL_WINDOW_MS, approvalMessage } from '../elicitation-approver.js';
import { isPlainObject } from '../json-rpc.js';
import { type ApprovalStateStore, MemoryApprovalStateStore } from './approval-state-store.js';

/** What a sealed `requestState` holds. Signed, not encrypted: nothing in it is secret. */
interface SealedApproval {
  /** The state's own id, used once. */
  readonly id: string;
  /** SHA-256 of principal, process handle, tool and the canonical arguments' SHA-256. */
  readonly bind: string;
  /** SHA-256 of each approval sentence the person accepted in earlier rounds of this call. */
  readonly approved: readonly string[];
  /** SHA-256 of the sentence this round's elicitation shows. */
  readonly pending: string;
  /** When the state stops verifying (ms since the epoch), for the used-state store. */
  readonly expiresAt: number;
}

export interface ApprovalRoundsOptions {
  /** The HMAC key (at least 32 bytes); every instance a retry may reach must share it. Default: random per process. */
  readonly key?: Uint8Array | string | undefined;
  /** Where used states are remembered (default: in this process's memory). */
  readonly store?: ApprovalStateStore | undefined;
}

/** Who a call runs as, and what it is: everything an approval is bound to. */
export interface ApprovalSubject {
  readonly principal: string;
  readonly handle: string;
  readonly tool: string;
  readonly arguments: unknown;
}

/** The key of the one embedded request an approval round sends. */
const APPROVAL_INPUT = 'approval';
const INVALID_STATE = 'Invalid or expired requestState';

export type ApprovalRounds = ReturnType<typeof createApprovalRounds>;

/**
 * Approvals for 2026-07-28 clients, which the server cannot send a request to: a call that needs an
 * `ask` grant answers `input_required` with a form elicitation showing the runtime's escaped
 * sentence, and a sealed `requestState` (the SDK's HMAC codec, ten minutes) bound to the principal,
 * the process handle, the tool, the canonical arguments and the sentence shown (for a write it
 * names the size and SHA-256 of the bytes). The client's retry carries the person's answer; the
 * state is used once (the store), and a state that fails any of this is refused before anything runs.
 */
export function createApprovalRounds(options: ApprovalRoundsOptions = {}) {
  const codec = createRequestStateCodec<SealedApproval>({ key: options.key ?? randomBytes(32), ttlSeconds: APPROVAL_WINDOW_MS / 1000 });
  const store = options.store ?? new MemoryApprovalStateStore();

  return {
    /** For `ServerOptions.requestState.verify`: the SDK refuses a state whose seal or expiry fails (-32602). */
    verify: codec.verify,

    /**
     * Runs one round of a call: `run` is the call itself, asked for approvals through the current
     * call's `CallApprovals`. Resolves the call's result, or an `input_required` answer when it
     * stopped (before touching anything) at an approval the person has not given yet.
     */
    async round(ctx: ServerContext, subject: ApprovalSubject, run: () => Promise<CallToolResult>): Promise<CallToolResult | InputRequiredResult> {
      // The binding (canonical JSON and two SHA-256) is computed only for a call that carries a
      // state or stops at an approval: most calls do neither. No step of a call writes to the
      // client's parsed arguments, so computed after the call it is what it would have been before.
      let bind: string | undefined;
      const bound = (): string => {
        bind ??= bindingOf(subject);
        return bind;
      };
      const state = ctx.mcpReq.requestState<SealedApproval>();
      const approved = new Set<string>();
      let rejected: string | undefined;
      if (state !== undefined) {
        // A state sealed for another call, principal or process, or used before, changes nothing.
        if (!isSealed(state) || state.bind !== bound() || !(await store.consume(state.id, state.expiresAt))) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, INVALID_STATE, { reason: 'invalid_request_state' });
        }
        for (const shown of state.approved) approved.add(shown);
        const action = answerOf(ctx.mcpReq.inputResponses?.[APPROVAL_INPUT]);
        if (action === 'accept') approved.add(state.pending);
        else if (action === 'decline') rejected = state.pending;
      }
      const canAsk = elicitsForms(ctx);
      let pending: { readonly request: ApprovalRequest; readonly shown: string } | undefined;
      const approvals: CallApprovals = {
        elicits: canAsk,
        async ask(request) {
          const shown = sha256(approvalMessage(request));
          if (approved.has(shown)) return 'approve';
          if (shown === rejected) return 'reject';
          if (canAsk) pending ??= { request, shown };
          return 'unavailable';
        },
      };
      const result = await currentCall.run(approvals, run);
      if (pending === undefined || result.isError !== true) return result;
      const expiresAt = Date.now() + APPROVAL_WINDOW_MS;
      const sealed: SealedApproval = { id: randomUUID(), bind: bound(), approved: [...approved], pending: pending.shown, expiresAt };
      return inputRequired({
        inputRequests: {
          [APPROVAL_INPUT]: inputRequired.elicit({ message: approvalMessage(pending.request), requestedSchema: { type: 'object', properties: {} } }),
        },
        requestState: await codec.mint(sealed),
      });
    },
  };
}

/** The canonical (RFC 8785) JSON of the arguments, hashed with who runs them where. */
function bindingOf(subject: ApprovalSubject): string {
  const argumentsSha256 = sha256(canonicalize(subject.arguments ?? {}) ?? '');
  return sha256([subject.principal, subject.handle, subject.tool, argumentsSha256].join('\0'));
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function isSealed(value: unknown): value is SealedApproval {
  return (
    isPlainObject(value) &&
    typeof value.id === 'string' &&
    typeof value.bind === 'string' &&
    typeof value.pending === 'string' &&
    typeof value.expiresAt === 'number' &&
    Array.isArray(value.approved) &&
    value.approved.every((shown) => typeof shown === 'string')
  );
}

function answerOf(response: unknown): string | undefined {
  return isPlainObject(response) && typeof response.action === 'string' ? response.action : undefined;
}

/** Whether the request's envelope declares form elicitation (an empty `elicitation` object means forms). */
function elicitsForms(ctx: ServerContext): boolean {
  const envelope: Readonly<Record<string, unknown>> = ctx.mcpReq.envelope ?? {};
  const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY];
  const elicitation = isPlainObject(capabilities) ? capabilities.elicitation : undefined;
  if (!isPlainObject(elicitation)) return false;
  return Object.keys(elicitation).length === 0 || isPlainObject(elicitation.form);
}
