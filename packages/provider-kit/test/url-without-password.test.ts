import { describe, expect, it } from 'vitest';
import { urlWithoutPassword } from '../src/index.js';

describe('urlWithoutPassword', () => {
  it('hides a password and leaves everything else as given', () => {
    expect(urlWithoutPassword('postgres://alice:s3cret@db.example:5432/app')).toBe('postgres://alice:***@db.example:5432/app');
    expect(urlWithoutPassword('postgres://alice@db.example/app')).toBe('postgres://alice@db.example/app');
  });

  it('hides a password even in a URL that does not parse', () => {
    const shown = urlWithoutPassword('postgres://alice:s3cret@db example/app');
    expect(shown).not.toContain('s3cret');
    expect(shown).toContain('alice:***@');
  });
});
