import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The `tools/call` request whose work is running and the session's server that took it. One
 * runtime (so one approver) may serve many sessions: a question asked on the call's behalf (an
 * approval) goes to that call's client, as related to it. Over Streamable HTTP it then travels on
 * that very call's response stream, which the client is reading, rather than on a GET stream it
 * may never open.
 */
export const currentCall = new AsyncLocalStorage<{ readonly requestId: RequestId; readonly server: Server }>();
