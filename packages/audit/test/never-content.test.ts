import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditedRuntime, callRecordsOf, openLog } from './support.js';

// Secrets with characters that JSON escapes and that UTF-8 encodes in several bytes, so every
// encoding below differs from the raw text.
const SECRETS = {
  content: 'Sk-CONTENT-7f3a"\u00e9\u2028quoted',
  edit: 'Sk-EDIT-91bd\\slash\u00fc',
  replacement: 'Sk-REPLACEMENT-c0ffee\t',
  query: 'Sk-QUERY-5eed\u4e2d',
  payload: 'Sk-PAYLOAD-ab12\u00df',
  hostile: 'Sk-HOSTILE-0bad',
};

function encodings(secret: string): Record<string, string | Buffer> {
  const utf8 = Buffer.from(secret, 'utf8');
  const utf16le = Buffer.from(secret, 'utf16le');
  const utf16be = Buffer.from(utf16le).swap16();
  return {
    raw: secret,
    'raw, no escapes': secret.replace(/[^A-Za-z0-9-]/g, ''),
    base64: utf8.toString('base64'),
    base64url: utf8.toString('base64url'),
    'base64 of UTF-16': utf16le.toString('base64'),
    hex: utf8.toString('hex'),
    HEX: utf8.toString('hex').toUpperCase(),
    'JSON-escaped': JSON.stringify(secret).slice(1, -1),
    'JSON-escaped ASCII': JSON.stringify(secret)
      .slice(1, -1)
      .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    'URL-encoded': encodeURIComponent(secret),
    'UTF-16LE bytes': utf16le,
    'UTF-16BE bytes': utf16be,
  };
}

describe('the log never holds content', () => {
  it('writes no file content, edit text, search query or Object payload, in any encoding', async () => {
    const log = await openLog();
    const runtime = await auditedRuntime(log, {
      files: { 'docs/payload.txt': SECRETS.payload },
      config: { grants: [{ path: '.', tree: true, rights: ['read', 'write', 'delete'] }] },
    });
    const process = runtime.spawn();
    const calls: [string, unknown][] = [
      ['write_text_file', { path: 'notes.txt', content: `start ${SECRETS.content} ${SECRETS.edit} end` }],
      ['read_text_file', { path: 'notes.txt' }],
      ['edit_text_file', { path: 'notes.txt', edits: [{ old_text: SECRETS.edit, new_text: SECRETS.replacement }] }],
      ['search_files', { path: '.', query: SECRETS.query }],
      ['search_files', { path: '.', query: SECRETS.content }],
      ['create_object_from_file', { name: 'memo', path: 'docs/payload.txt' }],
      ['write_object_to_file', { name: 'memo', path: 'copy.txt' }],
      // Failing calls carry the secret in arguments a pipeline refuses.
      ['write_text_file', { path: 'notes.txt', content: SECRETS.hostile, unexpected: SECRETS.hostile }],
      ['no_such_tool', { secret: SECRETS.hostile }],
      ['edit_text_file', { path: 'notes.txt', edits: [{ old_text: `${SECRETS.hostile}-absent`, new_text: SECRETS.hostile }] }],
    ];
    for (const [tool, args] of calls) await process.call(tool, args);
    await runtime.close();
    await log.close();
    const records = callRecordsOf(log.path);
    expect(records.map((record) => record.result.ok)).toEqual([true, true, true, true, true, true, true, false, false, false]);
    const files = [readFileSync(log.path), readFileSync(`${log.path}.checkpoints`)];
    for (const [name, secret] of Object.entries(SECRETS)) {
      for (const [encoding, text] of Object.entries(encodings(secret))) {
        for (const file of files) expect(file.includes(text), `${name} secret as ${encoding}`).toBe(false);
      }
    }
  });
});
