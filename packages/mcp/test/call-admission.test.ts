import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CallAdmission, type ReleaseCall } from '../src/modern/call-admission.js';

/** A stand-in connection: the admission only listens for its `close`. */
const connection = () => new EventEmitter() as unknown as Socket;
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Admits one request of `socket`, recording when (and whether) it runs. */
function request(admission: CallAdmission, socket: Socket, name: string, ran: string[]) {
  const admitted = admission.admit(socket);
  if (admitted === undefined) return { refused: true, release: async () => {} };
  const release = admitted.then((granted: ReleaseCall | undefined) => {
    ran.push(granted === undefined ? `${name} dropped` : name);
    return granted;
  });
  return { refused: false, release: async () => (await release)?.() };
}

describe('CallAdmission (2026-07-28 calls in flight over HTTP)', () => {
  it("runs each connection's first request at once, bounds the rest, and serves waiting connections in turn", async () => {
    const admission = new CallAdmission({ perConnection: 3, total: 1, waitingPerConnection: 2 });
    const [a, b, c] = [connection(), connection(), connection()];
    const ran: string[] = [];
    const a1 = request(admission, a, 'a1', ran);
    const a2 = request(admission, a, 'a2', ran);
    const a3 = request(admission, a, 'a3', ran);
    const a4 = request(admission, a, 'a4', ran);
    const b1 = request(admission, b, 'b1', ran);
    const b2 = request(admission, b, 'b2', ran);
    await tick();
    // a2 took the one slot beyond firsts; b1 is b's first and runs although the total is spent.
    expect(ran).toEqual(['a1', 'a2', 'b1']);
    // a pipelines a fifth while two wait: refused, never held.
    expect(request(admission, a, 'a5', ran).refused).toBe(true);
    // A new connection's first request never waits behind the flood.
    request(admission, c, 'c1', ran);
    await tick();
    expect(ran).toEqual(['a1', 'a2', 'b1', 'c1']);
    // Freed slots go to the waiting connections in turn: a (waited first), then b, then a again.
    await a2.release();
    await tick();
    await a3.release();
    await tick();
    await b2.release();
    await tick();
    expect(ran).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'b2', 'a4']);
    await Promise.all([a1.release(), a4.release(), b1.release()]);
  });

  it('drops the requests still waiting when their connection closes', async () => {
    const admission = new CallAdmission({ perConnection: 1, total: 0, waitingPerConnection: 4 });
    const socket = connection();
    const ran: string[] = [];
    request(admission, socket, 'first', ran);
    request(admission, socket, 'second', ran);
    await tick();
    (socket as unknown as EventEmitter).emit('close');
    await tick();
    expect(ran).toEqual(['first', 'second dropped']);
  });
});
