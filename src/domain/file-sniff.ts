/**
 * What a file really is, from its first bytes (magic numbers), never from its name or the type
 * the browser declares. Pure TypeScript on a Uint8Array: the booking form runs it on the device
 * before an upload (File → `file.slice(0, FILE_SNIFF_BYTES).arrayBuffer()`), and the local
 * storage API runs the very same checks on the bytes it receives.
 */

export type SniffedKind = 'document' | 'image' | 'media' | 'archive' | 'executable' | 'markup';

export type SniffedType = {
  /** The canonical media type, e.g. `application/pdf`, `image/png`. */
  mime: string;
  /** A short English name for logs and API error messages, e.g. "Windows executable (PE)". */
  label: string;
  kind: SniffedKind;
};

/** How many leading bytes `sniffFileType` looks at; reading more changes nothing. */
export const FILE_SNIFF_BYTES = 4096;

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  for (let i = 0; i < signature.length; i++) {
    if (bytes[offset + i] !== signature[i]) return false;
  }
  return true;
}

function indexOf(bytes: Uint8Array, needle: readonly number[], from = 0, to = bytes.length) {
  const last = Math.min(to, bytes.length) - needle.length;
  outer: for (let i = from; i <= last; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (bytes[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < Math.min(end, bytes.length); i++) out += String.fromCharCode(bytes[i]!);
  return out;
}

function uint32le(bytes: Uint8Array, offset: number): number {
  return (
    (bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16)) +
    bytes[offset + 3]! * 0x1000000
  );
}

function uint32be(bytes: Uint8Array, offset: number): number {
  return (
    bytes[offset]! * 0x1000000 +
    ((bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!)
  );
}

const sniffed = (mime: string, label: string, kind: SniffedKind): SniffedType => ({
  mime,
  label,
  kind,
});

export const SNIFFED = {
  pdf: sniffed('application/pdf', 'PDF document', 'document'),
  jpeg: sniffed('image/jpeg', 'JPEG image', 'image'),
  png: sniffed('image/png', 'PNG image', 'image'),
  gif: sniffed('image/gif', 'GIF image', 'image'),
  webp: sniffed('image/webp', 'WebP image', 'image'),
  heic: sniffed('image/heic', 'HEIC image', 'image'),
  heif: sniffed('image/heif', 'HEIF image', 'image'),
  avif: sniffed('image/avif', 'AVIF image', 'image'),
  bmp: sniffed('image/bmp', 'BMP image', 'image'),
  tiff: sniffed('image/tiff', 'TIFF image', 'image'),
  svg: sniffed('image/svg+xml', 'SVG image (may contain scripts)', 'markup'),
  html: sniffed('text/html', 'HTML document', 'markup'),
  mp4: sniffed('video/mp4', 'MP4 video', 'media'),
  quicktime: sniffed('video/quicktime', 'QuickTime video', 'media'),
  pe: sniffed(
    'application/vnd.microsoft.portable-executable',
    'Windows executable (PE)',
    'executable',
  ),
  msdos: sniffed('application/x-msdownload', 'DOS/Windows executable (MZ)', 'executable'),
  elf: sniffed('application/x-executable', 'Linux executable (ELF)', 'executable'),
  macho: sniffed('application/x-mach-binary', 'macOS executable (Mach-O)', 'executable'),
  javaClass: sniffed('application/java-vm', 'Java class file', 'executable'),
  wasm: sniffed('application/wasm', 'WebAssembly module', 'executable'),
  dex: sniffed('application/vnd.android.dex', 'Android Dalvik executable', 'executable'),
  script: sniffed('text/x-shellscript', 'script with an interpreter line (#!)', 'executable'),
  jar: sniffed('application/java-archive', 'Java archive (JAR)', 'executable'),
  apk: sniffed('application/vnd.android.package-archive', 'Android package (APK)', 'executable'),
  ole: sniffed(
    'application/x-ole-storage',
    'OLE2 compound file (legacy Office or MSI)',
    'document',
  ),
  docx: sniffed(
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'Word document',
    'document',
  ),
  xlsx: sniffed(
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'Excel workbook',
    'document',
  ),
  pptx: sniffed(
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'PowerPoint presentation',
    'document',
  ),
  zip: sniffed('application/zip', 'ZIP archive', 'archive'),
  rar: sniffed('application/vnd.rar', 'RAR archive', 'archive'),
  sevenZip: sniffed('application/x-7z-compressed', '7-Zip archive', 'archive'),
  gzip: sniffed('application/gzip', 'gzip archive', 'archive'),
  bzip2: sniffed('application/x-bzip2', 'bzip2 archive', 'archive'),
  xz: sniffed('application/x-xz', 'xz archive', 'archive'),
  zstd: sniffed('application/zstd', 'Zstandard archive', 'archive'),
  tar: sniffed('application/x-tar', 'tar archive', 'archive'),
  cab: sniffed('application/vnd.ms-cab-compressed', 'Windows cabinet archive', 'archive'),
} as const satisfies Record<string, SniffedType>;

const HEIC_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs'];
const HEIF_BRANDS = ['mif1', 'msf1'];
const AVIF_BRANDS = ['avif', 'avis'];

/** ISO base media files (HEIC/HEIF/AVIF, MP4, QuickTime) start with an `ftyp` box. */
function sniffFtyp(bytes: Uint8Array): SniffedType | null {
  if (!startsWith(bytes, ascii('ftyp'), 4)) return null;
  const boxSize = uint32be(bytes, 0);
  const end = Math.min(bytes.length, boxSize >= 16 ? boxSize : 16);
  const major = latin1(bytes, 8, 12);
  const brands = [major];
  for (let offset = 16; offset + 4 <= end; offset += 4)
    brands.push(latin1(bytes, offset, offset + 4));
  if (AVIF_BRANDS.includes(major)) return SNIFFED.avif;
  if (HEIC_BRANDS.includes(major)) return SNIFFED.heic;
  if (HEIF_BRANDS.includes(major)) {
    if (brands.some((b) => AVIF_BRANDS.includes(b))) return SNIFFED.avif;
    if (brands.some((b) => HEIC_BRANDS.includes(b))) return SNIFFED.heic;
    return SNIFFED.heif;
  }
  if (major === 'qt  ') return SNIFFED.quicktime;
  if (/^(isom|iso[2-9]|mp4[12]|avc1|dash|M4V |M4A |f4v |mmp4)$/.test(major)) return SNIFFED.mp4;
  return null;
}

/** ZIP containers: Office documents, but also Java and Android packages, which run code. */
function sniffZip(bytes: Uint8Array): SniffedType {
  const has = (name: string) => indexOf(bytes, ascii(name)) >= 0;
  if (has('AndroidManifest.xml') || has('classes.dex')) return SNIFFED.apk;
  if (has('META-INF/MANIFEST.MF') || /\.class$/.test(zipFirstName(bytes))) return SNIFFED.jar;
  if (has('[Content_Types].xml') || has('_rels/.rels')) {
    if (has('word/')) return SNIFFED.docx;
    if (has('xl/')) return SNIFFED.xlsx;
    if (has('ppt/')) return SNIFFED.pptx;
  }
  return SNIFFED.zip;
}

function zipFirstName(bytes: Uint8Array): string {
  if (bytes.length < 30) return '';
  const nameLength = bytes[26]! | (bytes[27]! << 8);
  return latin1(bytes, 30, 30 + nameLength);
}

function sniffMachO(bytes: Uint8Array): SniffedType | null {
  const magics = [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
  ];
  if (magics.some((m) => startsWith(bytes, m))) return SNIFFED.macho;
  if (startsWith(bytes, [0xca, 0xfe, 0xba, 0xbe]) && bytes.length >= 8) {
    // A universal binary counts its architectures here; a Java class has its version (≥ 45).
    return uint32be(bytes, 4) < 45 ? SNIFFED.macho : SNIFFED.javaClass;
  }
  return null;
}

/** Markup that a browser would render (and run scripts in), after an optional BOM and spaces. */
function sniffMarkup(bytes: Uint8Array): SniffedType | null {
  let start = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (start < bytes.length && [0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(bytes[start]!)) start++;
  if (bytes[start] !== 0x3c /* < */) return null;
  const head = latin1(bytes, start, start + 1024).toLowerCase();
  if (/^<svg[\s>]/.test(head) || (/^<\?xml/.test(head) && /<svg[\s>]/.test(head))) {
    return SNIFFED.svg;
  }
  if (/^<(!doctype html|html|head|body|script|iframe|title|!--)[\s>]/.test(head)) {
    return SNIFFED.html;
  }
  return null;
}

/**
 * Detects the type of a file from its first bytes (pass at least `FILE_SNIFF_BYTES` of them when
 * the file is that long). Returns `null` for content it does not recognise (plain text, CSV, …).
 */
export function sniffFileType(bytes: Uint8Array): SniffedType | null {
  // Executables first: they must be named even when they also look like something else.
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return SNIFFED.elf;
  if (startsWith(bytes, ascii('MZ'))) {
    const peOffset = bytes.length >= 0x40 ? uint32le(bytes, 0x3c) : -1;
    return peOffset >= 0x40 && startsWith(bytes, [0x50, 0x45, 0, 0], peOffset)
      ? SNIFFED.pe
      : SNIFFED.msdos;
  }
  const machO = sniffMachO(bytes);
  if (machO) return machO;
  if (startsWith(bytes, [0x00, 0x61, 0x73, 0x6d])) return SNIFFED.wasm;
  if (startsWith(bytes, ascii('dex\n'))) return SNIFFED.dex;
  if (startsWith(bytes, ascii('#!'))) return SNIFFED.script;

  if (startsWith(bytes, ascii('%PDF-'))) return SNIFFED.pdf;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return SNIFFED.jpeg;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return SNIFFED.png;
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return SNIFFED.gif;
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return SNIFFED.webp;
  const isoMedia = sniffFtyp(bytes);
  if (isoMedia) return isoMedia;
  if (startsWith(bytes, ascii('BM')) && bytes.length >= 14 && uint32le(bytes, 2) >= 14) {
    return SNIFFED.bmp;
  }
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
    return SNIFFED.tiff;
  }

  if (
    startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) ||
    startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]) ||
    startsWith(bytes, [0x50, 0x4b, 0x07, 0x08])
  ) {
    return sniffZip(bytes);
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return SNIFFED.ole;
  if (startsWith(bytes, ascii('Rar!\x1a\x07'))) return SNIFFED.rar;
  if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return SNIFFED.sevenZip;
  if (startsWith(bytes, [0x1f, 0x8b])) return SNIFFED.gzip;
  if (startsWith(bytes, ascii('BZh'))) return SNIFFED.bzip2;
  if (startsWith(bytes, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return SNIFFED.xz;
  if (startsWith(bytes, [0x28, 0xb5, 0x2f, 0xfd])) return SNIFFED.zstd;
  if (startsWith(bytes, ascii('MSCF'))) return SNIFFED.cab;
  if (startsWith(bytes, ascii('ustar'), 257)) return SNIFFED.tar;

  // Acrobat accepts a PDF header anywhere in the first KiB; so do we, after the checks above.
  if (indexOf(bytes, ascii('%PDF-'), 0, 1024) >= 0) return SNIFFED.pdf;
  return sniffMarkup(bytes);
}

/** `type/subtype` in lower case, without parameters (`Text/Plain; charset=x` → `text/plain`). */
export function essenceOf(mimeType: string | null | undefined): string {
  return (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether a media type matches one of the patterns (`image/png`, `image/*`, `*\/*`). */
export function mimeTypeMatches(mimeType: string, patterns: readonly string[]): boolean {
  const essence = essenceOf(mimeType);
  const [type] = essence.split('/');
  return patterns.some((raw) => {
    const pattern = essenceOf(raw);
    if (pattern === '*' || pattern === '*/*') return true;
    if (pattern.endsWith('/*')) return pattern.slice(0, -2) === type;
    return pattern === essence;
  });
}

/** The media types `sniffFileType` can recognise: a file declared as one of them must show it. */
const RECOGNISABLE = new Set<string>(Object.values(SNIFFED).map((s) => s.mime));
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'application/x-pdf': 'application/pdf',
  'image/heic-sequence': 'image/heic',
  'image/heif-sequence': 'image/heif',
};

export type FileTypeVerdict =
  /** Accepted: store and serve it as `mimeType` (the detected type when there is one). */
  | { ok: true; mimeType: string; detected: SniffedType | null }
  /** The content is of a type the destination does not accept (e.g. an executable). */
  | { ok: false; reason: 'type_not_allowed'; mimeType: string; detected: SniffedType | null }
  /** The file claims a type we can recognise (e.g. a PDF) but its bytes are not of that type. */
  | { ok: false; reason: 'content_mismatch'; mimeType: string; detected: null };

/**
 * Decides the type a file is stored as, and whether a destination that accepts only `allowed`
 * (null or empty: anything) takes it. The bytes decide: a PNG declared as `application/pdf` is
 * a PNG; an executable renamed `.pdf` is an executable. Unrecognised content keeps its declared
 * type, unless that declared type is one whose signature we know (it would have been detected).
 */
export function verifyFileType(
  head: Uint8Array,
  declaredType: string | null | undefined,
  allowed?: readonly string[] | null,
): FileTypeVerdict {
  const detected = sniffFileType(head);
  const restricted = !!allowed && allowed.length > 0;
  if (detected) {
    if (restricted && !mimeTypeMatches(detected.mime, allowed)) {
      return { ok: false, reason: 'type_not_allowed', mimeType: detected.mime, detected };
    }
    return { ok: true, mimeType: detected.mime, detected };
  }
  const declared = declaredType?.trim() || 'application/octet-stream';
  const essence = essenceOf(declared);
  if (restricted) {
    if (RECOGNISABLE.has(ALIASES[essence] ?? essence)) {
      return { ok: false, reason: 'content_mismatch', mimeType: essence, detected: null };
    }
    if (!mimeTypeMatches(essence, allowed)) {
      return { ok: false, reason: 'type_not_allowed', mimeType: essence, detected: null };
    }
  }
  return { ok: true, mimeType: declared, detected: null };
}
