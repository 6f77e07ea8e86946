import { request } from 'node:http';

/** A POST through node:http from `localAddress`: another loopback source than a flood's. */
export function postFrom(
  url: URL,
  localAddress: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method: 'POST', localAddress, agent: false, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The JSON-RPC message of a response, sent as JSON or as one SSE event. */
export function messageOf(text: string): Record<string, unknown> {
  return JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/mu.exec(text)?.[1] ?? text)) as Record<string, unknown>;
}
