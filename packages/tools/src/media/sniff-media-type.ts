import { isUtf8 } from 'node:buffer';

/** How a transport hands media to a model: an image, a sound, or a document (a PDF). */
export type MediaKind = 'image' | 'audio' | 'document';

/** What the first bytes of a file say it is. */
export type SniffedMedia =
  | { readonly supported: true; readonly kind: MediaKind; readonly mimeType: string }
  | { readonly supported: false; readonly detected: string };

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0): boolean =>
  bytes.length >= at + signature.length && signature.every((value, index) => bytes[at + index] === value);
const ascii = (text: string): number[] => [...text].map((character) => character.charCodeAt(0));

// The types read_media_file hands to a model, by their magic bytes only: a name or an extension says nothing.
const SUPPORTED: readonly { readonly test: (bytes: Uint8Array) => boolean; readonly kind: MediaKind; readonly mimeType: string }[] = [
  { test: (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), kind: 'image', mimeType: 'image/png' },
  { test: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]), kind: 'image', mimeType: 'image/jpeg' },
  { test: (bytes) => startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a')), kind: 'image', mimeType: 'image/gif' },
  { test: (bytes) => startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8), kind: 'image', mimeType: 'image/webp' },
  { test: (bytes) => startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WAVE'), 8), kind: 'audio', mimeType: 'audio/wav' },
  { test: (bytes) => startsWith(bytes, ascii('ID3')) || isMpegAudioFrame(bytes), kind: 'audio', mimeType: 'audio/mpeg' },
  { test: (bytes) => startsWith(bytes, ascii('OggS')), kind: 'audio', mimeType: 'audio/ogg' },
  { test: (bytes) => startsWith(bytes, ascii('%PDF-')), kind: 'document', mimeType: 'application/pdf' },
];

// Common files a model might be pointed at, named in the refusal so the caller knows what it has.
const KNOWN_OTHERS: readonly { readonly test: (bytes: Uint8Array) => boolean; readonly detected: string }[] = [
  { test: (bytes) => startsWith(bytes, ascii('BM')) && bytes.length >= 14, detected: 'image/bmp' },
  { test: (bytes) => startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]), detected: 'image/tiff' },
  { test: (bytes) => startsWith(bytes, [0x00, 0x00, 0x01, 0x00]), detected: 'image/x-icon' },
  { test: (bytes) => startsWith(bytes, ascii('ftyp'), 4), detected: 'video/mp4' },
  { test: (bytes) => startsWith(bytes, ascii('fLaC')), detected: 'audio/flac' },
  { test: (bytes) => startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('AVI '), 8), detected: 'video/x-msvideo' },
  { test: (bytes) => startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]), detected: 'application/zip' },
  { test: (bytes) => startsWith(bytes, [0x1f, 0x8b]), detected: 'application/gzip' },
  { test: (bytes) => startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46]), detected: 'application/x-elf' },
];

/**
 * The media type of a file from its first bytes: one of the eight types a model can be handed
 * (PNG, JPEG, GIF, WebP, WAV, MP3, OGG, PDF), or what else it looks like (`text/plain` for UTF-8
 * text, `application/octet-stream` when nothing is recognised).
 */
export function sniffMediaType(bytes: Uint8Array): SniffedMedia {
  const supported = SUPPORTED.find((entry) => entry.test(bytes));
  if (supported !== undefined) return { supported: true, kind: supported.kind, mimeType: supported.mimeType };
  const other = KNOWN_OTHERS.find((entry) => entry.test(bytes));
  if (other !== undefined) return { supported: false, detected: other.detected };
  if (bytes.length === 0) return { supported: false, detected: 'empty' };
  return { supported: false, detected: isUtf8(bytes) ? 'text/plain' : 'application/octet-stream' };
}

/**
 * An MPEG audio layer III frame header without an ID3 tag: eleven sync bits, a version and a
 * bitrate and sample rate that exist. Layer III only, so AAC's ADTS header (layer bits 00) and
 * random 0xFF bytes are not taken for MP3.
 */
function isMpegAudioFrame(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff) return false;
  const second = bytes[1]!;
  const third = bytes[2]!;
  const syncRest = (second & 0xe0) === 0xe0;
  const version = (second >> 3) & 0x03;
  const layer = (second >> 1) & 0x03;
  const bitrate = (third >> 4) & 0x0f;
  const sampleRate = (third >> 2) & 0x03;
  return syncRest && version !== 0x01 && layer === 0x01 && bitrate !== 0x0f && bitrate !== 0x00 && sampleRate !== 0x03;
}
