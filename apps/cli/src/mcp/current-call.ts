import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The `tools/call` request whose work is running, so that a question the server asks on the call's
 * behalf (an approval) is sent as related to it: over Streamable HTTP it then travels on that very
 * call's response stream, which the client is reading, rather than on a GET stream it may never open.
 */
export const currentCall = new AsyncLocalStorage<{ readonly requestId: RequestId }>();
