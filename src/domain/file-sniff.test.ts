import { describe, expect, it } from 'vitest';

import {
  essenceOf,
  FILE_SNIFF_BYTES,
  mimeTypeMatches,
  sniffFileType,
  verifyFileType,
} from '@/domain/file-sniff';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(
    parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)),
  );

const pad = (head: Uint8Array, length = 64): Uint8Array => {
  const out = new Uint8Array(Math.max(length, head.length));
  out.set(head);
  return out;
};

/** A PE file: "MZ", e_lfanew at 0x3c pointing at "PE\0\0". */
function peFile(): Uint8Array {
  const out = new Uint8Array(0x100);
  out.set(bytes('MZ'));
  out.set([0x80, 0, 0, 0], 0x3c);
  out.set(bytes('PE', [0, 0]), 0x80);
  return out;
}

function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const size = 16 + compatible.length * 4;
  return pad(bytes([0, 0, 0, size], 'ftyp', major, [0, 0, 0, 0], ...compatible), size + 16);
}

function zipWith(firstName: string, ...moreText: string[]): Uint8Array {
  const header = new Uint8Array(30);
  header.set([0x50, 0x4b, 0x03, 0x04]);
  header[26] = firstName.length;
  return bytes(Array.from(header), firstName, ...moreText);
}

const PNG = pad(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR'));
const PDF = bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj');
const ELF = pad(bytes([0x7f], 'ELF', [2, 1, 1, 0]));

describe('sniffFileType', () => {
  it.each([
    ['PDF', PDF, 'application/pdf'],
    [
      'PDF after some junk (as Acrobat accepts)',
      bytes('\r\n  garbage ', '%PDF-1.4'),
      'application/pdf',
    ],
    ['JPEG', pad(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF')), 'image/jpeg'],
    ['PNG', PNG, 'image/png'],
    ['GIF89a', pad(bytes('GIF89a')), 'image/gif'],
    ['GIF87a', pad(bytes('GIF87a')), 'image/gif'],
    ['WebP', pad(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ')), 'image/webp'],
    ['HEIC', ftyp('heic', 'mif1', 'heic'), 'image/heic'],
    ['HEIF with a HEVC brand (iPhone)', ftyp('mif1', 'mif1', 'heic'), 'image/heic'],
    ['plain HEIF', ftyp('mif1', 'mif1'), 'image/heif'],
    ['AVIF', ftyp('avif', 'mif1', 'avif'), 'image/avif'],
    ['MP4', ftyp('isom', 'isom', 'mp41'), 'video/mp4'],
    ['BMP', pad(bytes('BM', [0x36, 0x10, 0, 0])), 'image/bmp'],
    ['TIFF', pad(bytes('II*', [0])), 'image/tiff'],
    ['ELF', ELF, 'application/x-executable'],
    ['PE', peFile(), 'application/vnd.microsoft.portable-executable'],
    ['bare MZ', pad(bytes('MZ', [0x90, 0])), 'application/x-msdownload'],
    ['Mach-O 64', pad(bytes([0xcf, 0xfa, 0xed, 0xfe])), 'application/x-mach-binary'],
    [
      'universal Mach-O',
      pad(bytes([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2])),
      'application/x-mach-binary',
    ],
    ['Java class', pad(bytes([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52])), 'application/java-vm'],
    ['WebAssembly', pad(bytes([0], 'asm', [1, 0, 0, 0])), 'application/wasm'],
    ['shell script', bytes('#!/bin/sh\nrm -rf /\n'), 'text/x-shellscript'],
    ['ZIP', zipWith('notes.txt', 'hello'), 'application/zip'],
    ['JAR', zipWith('META-INF/MANIFEST.MF'), 'application/java-archive'],
    ['APK', zipWith('AndroidManifest.xml'), 'application/vnd.android.package-archive'],
    [
      'DOCX',
      zipWith('[Content_Types].xml', '...', 'word/document.xml'),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    ['RAR', pad(bytes('Rar!', [0x1a, 0x07, 0x01, 0x00])), 'application/vnd.rar'],
    ['7z', pad(bytes([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])), 'application/x-7z-compressed'],
    ['gzip', pad(bytes([0x1f, 0x8b, 0x08])), 'application/gzip'],
    [
      'tar',
      pad(bytes('file.txt'), 512).map((b, i) =>
        i >= 257 && i < 262 ? 'ustar'.charCodeAt(i - 257) : b,
      ),
      'application/x-tar',
    ],
    [
      'OLE2',
      pad(bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])),
      'application/x-ole-storage',
    ],
    [
      'SVG',
      bytes([0xef, 0xbb, 0xbf], '  <svg xmlns="http://www.w3.org/2000/svg">'),
      'image/svg+xml',
    ],
    ['HTML', bytes('<!DOCTYPE html><html><script>alert(1)</script>'), 'text/html'],
  ])('recognises %s', (_name, file, mime) => {
    expect(sniffFileType(file)?.mime).toBe(mime);
  });

  it('names executables even when they carry a PDF header further on', () => {
    const polyglot = pad(ELF, 256);
    polyglot.set(bytes('%PDF-1.7'), 100);
    expect(sniffFileType(polyglot)).toMatchObject({
      kind: 'executable',
      label: 'Linux executable (ELF)',
    });
  });

  it('does not look for a PDF header past the first KiB', () => {
    const late = new Uint8Array(2048).fill(0x20);
    late.set(bytes('%PDF-1.7'), 1500);
    expect(sniffFileType(late)).toBeNull();
  });

  it.each([
    ['empty', new Uint8Array()],
    ['plain text', bytes('Nom,Prénom\nBenali,Amine\n')],
    ['truncated PNG signature', bytes([0x89, 0x50, 0x4e, 0x47])],
    ['an unknown ftyp brand', ftyp('zzzz')],
    ['XML that is not SVG', bytes('<?xml version="1.0"?><note/>')],
  ])('returns null for %s', (_name, file) => {
    expect(sniffFileType(file)).toBeNull();
  });

  it('needs no more than FILE_SNIFF_BYTES', () => {
    expect(FILE_SNIFF_BYTES).toBeGreaterThanOrEqual(1024);
    const docx = zipWith('[Content_Types].xml', 'word/');
    expect(sniffFileType(docx.subarray(0, FILE_SNIFF_BYTES))?.mime).toContain('wordprocessingml');
  });
});

describe('mimeTypeMatches', () => {
  it('matches exact types, wildcards and ignores case and parameters', () => {
    expect(mimeTypeMatches('image/png', ['application/pdf', 'image/png'])).toBe(true);
    expect(mimeTypeMatches('image/heic', ['image/*'])).toBe(true);
    expect(mimeTypeMatches('Text/Plain; charset=UTF-8', ['text/plain'])).toBe(true);
    expect(mimeTypeMatches('application/x-executable', ['*/*'])).toBe(true);
    expect(mimeTypeMatches('application/pdf', ['image/*'])).toBe(false);
    expect(mimeTypeMatches('image/png', ['image/pn'])).toBe(false);
    expect(mimeTypeMatches('imagex/png', ['image/*'])).toBe(false);
    expect(mimeTypeMatches('image/png', [])).toBe(false);
  });

  it('reduces a media type to its essence', () => {
    expect(essenceOf(' Image/JPEG ; q=1')).toBe('image/jpeg');
    expect(essenceOf(undefined)).toBe('');
  });
});

describe('verifyFileType', () => {
  const LICENCE_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'];

  it('accepts a PDF declared as a PDF', () => {
    expect(verifyFileType(PDF, 'application/pdf', LICENCE_TYPES)).toEqual({
      ok: true,
      mimeType: 'application/pdf',
      detected: expect.objectContaining({ mime: 'application/pdf' }),
    });
  });

  it('stores a PNG declared as a PDF as the PNG it is, when PNGs are allowed', () => {
    expect(verifyFileType(PNG, 'application/pdf', LICENCE_TYPES)).toMatchObject({
      ok: true,
      mimeType: 'image/png',
    });
    expect(verifyFileType(PNG, 'application/pdf', ['application/pdf'])).toMatchObject({
      ok: false,
      reason: 'type_not_allowed',
      mimeType: 'image/png',
    });
  });

  it('refuses an executable renamed .pdf and names what it is', () => {
    const verdict = verifyFileType(ELF, 'application/pdf', LICENCE_TYPES);
    expect(verdict).toMatchObject({
      ok: false,
      reason: 'type_not_allowed',
      mimeType: 'application/x-executable',
      detected: { kind: 'executable', label: 'Linux executable (ELF)' },
    });
    expect(
      verifyFileType(peFile(), 'application/pdf', ['image/*', 'application/pdf']),
    ).toMatchObject({ ok: false, detected: { label: 'Windows executable (PE)' } });
  });

  it('refuses content that claims a recognisable type it does not have', () => {
    expect(verifyFileType(bytes('not really a pdf'), 'application/pdf', LICENCE_TYPES)).toEqual({
      ok: false,
      reason: 'content_mismatch',
      mimeType: 'application/pdf',
      detected: null,
    });
    expect(verifyFileType(new Uint8Array(), 'image/jpg', LICENCE_TYPES)).toMatchObject({
      ok: false,
      reason: 'content_mismatch',
    });
  });

  it('keeps the declared type of unrecognised content when the destination allows it', () => {
    expect(verifyFileType(bytes('a,b\n1,2\n'), 'text/csv', ['text/*'])).toEqual({
      ok: true,
      mimeType: 'text/csv',
      detected: null,
    });
    expect(verifyFileType(bytes('a,b\n'), 'text/csv', LICENCE_TYPES)).toMatchObject({
      ok: false,
      reason: 'type_not_allowed',
      mimeType: 'text/csv',
    });
    expect(verifyFileType(bytes('?'), '', LICENCE_TYPES)).toMatchObject({
      ok: false,
      mimeType: 'application/octet-stream',
    });
  });

  it('accepts anything where nothing is restricted, typed by its bytes', () => {
    expect(verifyFileType(ELF, 'application/pdf', null)).toMatchObject({
      ok: true,
      mimeType: 'application/x-executable',
    });
    expect(verifyFileType(bytes('hello'), 'text/plain;charset=UTF-8', [])).toEqual({
      ok: true,
      mimeType: 'text/plain;charset=UTF-8',
      detected: null,
    });
    expect(verifyFileType(bytes('hello'), undefined)).toMatchObject({
      mimeType: 'application/octet-stream',
    });
  });
});
