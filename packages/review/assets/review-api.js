// How the page talks to its server: the one-time token, taken from the address, goes in a header
// on every request (never in a URL), and an answer that is not OK becomes an Error with its message.
const TOKEN_KEY = 'libos-review-token';

export function takeToken() {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    // The token leaves the address bar (and the history) as soon as the page has it.
    history.replaceState(null, '', location.pathname);
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

/** A GET of `path`, or a POST of `body` as JSON, with the token: resolves the JSON answer. */
export function apiWith(token) {
  return async (path, body) => {
    const init = { headers: { 'x-libos-review-token': token }, cache: 'no-store' };
    if (body !== undefined) {
      init.method = 'POST';
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const value = await response.json().catch(() => ({ error: { message: `The server answered ${response.status}.` } }));
    if (!response.ok) throw new Error(value.error?.message ?? `The server answered ${response.status}.`);
    return value;
  };
}
