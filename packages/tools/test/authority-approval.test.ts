import { createHash } from 'node:crypto';
import {
  LibosError,
  parseConfig,
  type AccessRequest,
  type ApprovalRequest,
  type Approver,
  type Right,
  type TargetKind,
  type WorkspacePath,
} from '@libos/core';
import { describe, expect, it } from 'vitest';
import { approvalPreview, PREVIEW_CUT } from '../src/authority/approval-preview.js';
import { createAuthority, type AuthorityOptions } from '../src/authority/create-authority.js';

const askEverything = parseConfig({ grants: [{ path: '.', tree: true, rights: ['read', 'write', 'delete'], mode: 'ask' }] });
const encoder = new TextEncoder();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function writeRequest(path: string, content: string, extra: Partial<AccessRequest> = {}): AccessRequest {
  return {
    tool: 'write_text_file',
    right: 'write',
    target: 'file',
    path: path as WorkspacePath,
    argumentsSha256: sha256(encoder.encode(JSON.stringify({ path, content }))),
    content: { bytes: encoder.encode(content) },
    ...extra,
  };
}

function plainRequest(tool: string, right: Right, target: TargetKind, path: string): AccessRequest {
  return { tool, right, target, path: path as WorkspacePath, argumentsSha256: 'b'.repeat(64) };
}

function recording(answer: Approver) {
  const seen: ApprovalRequest[] = [];
  const approver: Approver = (request, context) => {
    seen.push(request);
    return answer(request, context);
  };
  return { seen, approver };
}

function authority(options: Omit<AuthorityOptions, 'config'> = {}) {
  return createAuthority({ config: askEverything, ...options });
}

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (LibosError.is(error)) return error.toFailure();
    throw error;
  }
  return 'approved';
}

describe('approval', () => {
  it('shows the approver the tool, right, path, arguments hash and the content, then allows on approve', async () => {
    const { seen, approver } = recording(async () => 'approve');
    const request = writeRequest('src/a.txt', 'hello\nworld');
    const permit = await authority({ approver }).authorize(request);
    permit.spend();
    expect(seen).toEqual([
      {
        tool: 'write_text_file',
        right: 'write',
        path: 'src/a.txt',
        arguments_sha256: request.argumentsSha256,
        content_bytes: 11,
        content_sha256: sha256(encoder.encode('hello\nworld')),
        preview: 'hello\nworld',
        message: `Allow write_text_file to write "src/a.txt"? It would write 11 bytes (SHA-256 ${sha256(encoder.encode('hello\nworld'))}). Preview:\n  | hello\n  | world`,
      },
    ]);
  });

  it('cannot be made to show one path for another: CR, ANSI escapes, bidi overrides and quotes are escaped', async () => {
    const { seen, approver } = recording(async () => 'reject');
    // On a terminal, CR and "erase line" would leave only `public/notes.txt` visible.
    await failureOf(authority({ approver }).authorize(writeRequest('private/keys\r\u001b[2Kpublic/notes.txt', 'x')));
    expect(seen[0]!.path).toBe('private/keys\\r\\u{001B}[2Kpublic/notes.txt');
    expect(seen[0]!.message).toContain('write "private/keys\\r\\u{001B}[2Kpublic/notes.txt"?');
    // U+202E would display `txt.exe` reversed; U+2066 and ZWJ hide in the middle.
    await failureOf(authority({ approver }).authorize(writeRequest('notes\u202Etxt.exe\u2066\u200D', 'x')));
    expect(seen[1]!.message).toContain('"notes\\u{202E}txt.exe\\u{2066}\\u{200D}"');
    // A quote in a name cannot close the quoted path early and write the rest of the sentence.
    await failureOf(authority({ approver }).authorize(writeRequest('a"? It would write 1 byte. Preview: ok "b', 'evil')));
    expect(seen[2]!.message).toMatch(/^Allow write_text_file to write "a\\"\? It would write 1 byte\. Preview: ok \\"b"\? It would write 4 bytes/u);
    // The only line breaks are the preview's, each followed by its margin.
    for (const request of seen) expect(request.message.replaceAll('\n  | ', '')).not.toMatch(/[\r\n\u001b\u0085\u2028\u202e\u2066\u200d]/u);
  });

  it.each([
    ['read_text_file', 'read', 'file'],
    ['read_directory', 'read', 'directory'],
    ['set_working_directory', 'read', 'directory'],
    ['write_directory', 'write', 'directory'],
    ['delete_file', 'delete', 'file'],
    ['delete_directory', 'delete', 'directory'],
    ['create_object_from_file', 'read', 'file'],
  ] as const)('shows null content fields for %s', async (tool, right, target) => {
    const { seen, approver } = recording(async () => 'approve');
    await authority({ approver }).authorize(plainRequest(tool, right, target, 'src'));
    expect(seen).toEqual([
      {
        tool,
        right,
        path: 'src',
        arguments_sha256: 'b'.repeat(64),
        content_bytes: null,
        content_sha256: null,
        preview: null,
        message: `Allow ${tool} to ${right} "src"?`,
      },
    ]);
  });

  it('refuses with approval_rejected on reject, naming only the right and the path', async () => {
    expect(await failureOf(authority({ approver: async () => 'reject' }).authorize(writeRequest('src/a.txt', 'x')))).toEqual({
      code: 'approval_rejected',
      message: 'Writing "src/a.txt" was rejected by the approver.',
      effect: 'none',
      details: { right: 'write', path: 'src/a.txt' },
    });
  });

  const required = {
    code: 'approval_required',
    message: 'Deleting "src/a.txt" needs approval, and none was given.',
    effect: 'none',
    details: { right: 'delete', path: 'src/a.txt' },
  };
  const deleteRequest = plainRequest('delete_file', 'delete', 'file', 'src/a.txt');

  it.each<[string, Approver | undefined]>([
    ['no approver', undefined],
    ['unavailable', async () => 'unavailable'],
    ['an answer outside the three', async () => 'yes' as never],
    ['an approver that rejects its promise', async () => Promise.reject(new Error('boom'))],
    [
      'an approver that throws synchronously',
      () => {
        throw new Error('boom');
      },
    ],
  ])('refuses with approval_required for %s', async (_name, approver) => {
    const options = approver === undefined ? {} : { approver };
    expect(await failureOf(authority(options).authorize(deleteRequest))).toEqual(required);
  });

  it('refuses an already aborted call without asking', async () => {
    const { seen, approver } = recording(async () => 'approve');
    const signal = AbortSignal.abort();
    expect(await failureOf(authority({ approver }).authorize({ ...deleteRequest, signal }))).toEqual(required);
    expect(seen).toHaveLength(0);
  });

  it('stops waiting when the call is aborted, and passes the signal to the approver', async () => {
    const controller = new AbortController();
    let approverSignal: AbortSignal | undefined;
    const approver: Approver = (_request, context) => {
      approverSignal = context.signal;
      setTimeout(() => controller.abort(), 5);
      return new Promise(() => {}); // never answers
    };
    const failure = await failureOf(authority({ approver }).authorize({ ...deleteRequest, signal: controller.signal }));
    expect(failure).toEqual(required);
    expect(approverSignal?.aborted).toBe(true);
  });

  it('ignores an approval that arrives after the call was aborted', async () => {
    const controller = new AbortController();
    const approver: Approver = async () => {
      controller.abort();
      return 'approve';
    };
    expect(await failureOf(authority({ approver }).authorize({ ...deleteRequest, signal: controller.signal }))).toEqual(required);
  });

  it('gives up after approvalTimeoutMs', async () => {
    const approver: Approver = () => new Promise(() => {});
    expect(await failureOf(authority({ approver, approvalTimeoutMs: 10 }).authorize(deleteRequest))).toEqual(required);
  });

  it('covers exactly one call: the next identical call asks again', async () => {
    const { seen, approver } = recording(async () => 'approve');
    const engine = authority({ approver });
    await engine.authorize(writeRequest('src/a.txt', 'same'));
    await engine.authorize(writeRequest('src/a.txt', 'same'));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual(seen[1]);
  });

  it('asks again with another hash when the content changes, and that answer decides', async () => {
    const answers: ('approve' | 'reject')[] = ['approve', 'reject'];
    const { seen, approver } = recording(async () => answers.shift()!);
    const engine = authority({ approver });
    expect(await failureOf(engine.authorize(writeRequest('src/a.txt', 'first')))).toBe('approved');
    expect(((await failureOf(engine.authorize(writeRequest('src/a.txt', 'second')))) as { code: string }).code).toBe('approval_rejected');
    expect(seen.map((request) => request.content_sha256)).toEqual([sha256(encoder.encode('first')), sha256(encoder.encode('second'))]);
    expect(seen[0]!.arguments_sha256).not.toBe(seen[1]!.arguments_sha256);
  });

  it('never asks when a deny grant also matches', async () => {
    const { seen, approver } = recording(async () => 'approve');
    const config = parseConfig({
      grants: [
        { path: '.', tree: true, rights: ['write'], mode: 'ask' },
        { path: 'private', tree: true, rights: ['write'], mode: 'deny' },
      ],
    });
    const engine = createAuthority({ config, approver });
    expect(((await failureOf(engine.authorize(writeRequest('private/x', 'x')))) as { code: string }).code).toBe('denied');
    expect(seen).toHaveLength(0);
  });

  it('never asks for an allow grant', async () => {
    const { seen, approver } = recording(async () => 'reject');
    const config = parseConfig({ grants: [{ path: '.', tree: true, rights: ['write'] }] });
    await createAuthority({ config, approver }).authorize(writeRequest('a', 'x'));
    expect(seen).toHaveLength(0);
  });
});

describe('approval preview', () => {
  const preview = (text: string) => approvalPreview(encoder.encode(text));

  it('escapes control, invisible and bidirectional characters, and doubles backslashes', () => {
    expect(preview('a\tb\r\nc\\d\u0000\u001b[31m\u007f\u0085')).toBe('a\\tb\\r\nc\\\\d\\u{0000}\\u{001B}[31m\\u{007F}\\u{0085}');
    expect(preview('x\u202ey\u2066z\u200b\u2028\ufeff')).toBe('x\\u{202E}y\\u{2066}z\\u{200B}\\u{2028}\\u{FEFF}');
    expect(preview('plain ünïcödé 😀 text')).toBe('plain ünïcödé 😀 text');
  });

  it('escapes every default-ignorable code point, so no text hides from the approver', () => {
    // Tag characters spell invisible ASCII; soft hyphen, word joiner and Hangul fillers render as nothing.
    expect(preview('ok\u{E0072}\u{E006D}')).toBe('ok\\u{E0072}\\u{E006D}');
    expect(preview('a\u00adb\u2060c\u3164d\u180e')).toBe('a\\u{00AD}b\\u{2060}c\\u{3164}d\\u{180E}');
  });

  it('decodes leniently: bad UTF-8 becomes U+FFFD', () => {
    expect(approvalPreview(Uint8Array.of(0x61, 0xff, 0x62, 0xc3))).toBe('a\ufffdb\ufffd');
    expect(approvalPreview(new Uint8Array(0))).toBe('');
  });

  it('shows a write as its lines, each escaped on its own and behind a margin, at most 16 of them', async () => {
    const { seen, approver } = recording(async () => 'reject');
    await failureOf(authority({ approver }).authorize(writeRequest('notes.md', 'line one\nApprove? [y/N] y\r\n\u001b[2Kthree\\n')));
    expect(seen[0]!.preview).toBe('line one\nApprove? [y/N] y\\r\n\\u{001B}[2Kthree\\\\n');
    expect(seen[0]!.message.split('Preview:\n')[1]).toBe('  | line one\n  | Approve? [y/N] y\\r\n  | \\u{001B}[2Kthree\\\\n');
    const many = preview(Array.from({ length: 40 }, (_, index) => `l${index}`).join('\n'));
    expect(many.split('\n')).toEqual([...Array.from({ length: 16 }, (_, index) => `l${index}`), PREVIEW_CUT]);
  });

  it('holds at most 256 characters and never cuts an escape or a surrogate pair', () => {
    expect(preview('x'.repeat(10_000))).toBe(`${'x'.repeat(256)}\n${PREVIEW_CUT}`);
    expect(preview('x'.repeat(253) + '\n\n')).toBe('x'.repeat(253) + '\n\n');
    expect(preview('x'.repeat(250) + '\u0001')).toBe(`${'x'.repeat(250)}\n${PREVIEW_CUT}`);
    const astral = preview('x' + '😀'.repeat(300));
    expect(astral).toBe(`x${'😀'.repeat(127)}\n${PREVIEW_CUT}`);
    expect(astral.isWellFormed()).toBe(true);
    expect(preview('\u0001'.repeat(100))).toBe(`${'\\u{0001}'.repeat(32)}\n${PREVIEW_CUT}`);
  });

  it('is what the approver sees for a large write', async () => {
    const { seen, approver } = recording(async () => 'approve');
    await authority({ approver }).authorize(writeRequest('big', '\n'.repeat(1_000_000)));
    expect(seen[0]!.preview).toBe(`${'\n'.repeat(15)}\n${PREVIEW_CUT}`);
    expect(seen[0]!.content_bytes).toBe(1_000_000);
  });
});
