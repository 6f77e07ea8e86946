/**
 * A database URL as it may be shown in a message or a log: a password is never printed. Both
 * PostgreSQL backends (the provider and the Object store) name their URL this way.
 */
export function urlWithoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}
