import { badRequest } from '../http/api-error.ts';

/**
 * A plain POSIX tar (ustar, with PAX records for paths that do not fit) of regular files: what
 * `tar xf` and every archive tool open. Bundles are small, so both directions work on buffers.
 */
export interface TarEntry {
  path: string;
  content: Buffer;
  /** Modification time, in ms since the epoch. */
  mtimeMs?: number;
}

const BLOCK = 512;

export function writeTar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const mtime = Math.floor((entry.mtimeMs ?? 0) / 1000);
    const fits = splitPath(entry.path);
    if (!fits) {
      // The path does not fit the ustar fields: a PAX extended header carries it instead.
      const record = paxRecord('path', entry.path);
      parts.push(header({ name: 'PaxHeader', prefix: '', size: record.length, mtime, type: 'x' }), padded(record));
    }
    const { prefix, name } = fits ?? { prefix: '', name: Buffer.from(entry.path).subarray(0, 100).toString('utf8').replace(/\uFFFD+$/, '') };
    parts.push(header({ name, prefix, size: entry.content.length, mtime, type: '0' }), padded(entry.content));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

/** Regular files in archive order; directories are skipped; links and devices are refused. */
export function readTar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let longPath: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((b) => b === 0)) break;
    if (!checksumMatches(block)) throw badRequest('invalid_bundle', `the bundle is not a tar archive (the header at byte ${offset} has a wrong checksum)`);
    const size = octal(block, 124, 12, offset);
    const type = String.fromCharCode(block[156] || 48);
    const start = offset + BLOCK;
    const end = start + size;
    if (end > archive.length) throw badRequest('invalid_bundle', 'the bundle ends in the middle of a file; the tar archive is truncated');
    const data = archive.subarray(start, end);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    const ustarPath = (): string => {
      const name = cString(block, 0, 100);
      const prefix = block.subarray(257, 262).toString('latin1') === 'ustar' ? cString(block, 345, 155) : '';
      return prefix ? `${prefix}/${name}` : name;
    };
    if (type === 'x') {
      longPath = parsePax(data).path ?? longPath;
      continue;
    }
    if (type === 'L') {
      longPath = cString(data, 0, data.length);
      continue;
    }
    if (type === 'g') continue;
    const path = (longPath ?? ustarPath()).replace(/^(\.\/)+/, '');
    longPath = undefined;
    if (type === '5') continue;
    if (type !== '0' && type !== '7') {
      throw badRequest('invalid_bundle', `the bundle entry "${path}" is not a regular file (tar type "${type}"); a bundle holds only files`);
    }
    entries.push({ path, content: Buffer.from(data), mtimeMs: octal(block, 136, 12, offset) * 1000 });
  }
  return entries;
}

function header(h: { name: string; prefix: string; size: number; mtime: number; type: string }): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(h.name, 0, 100, 'utf8');
  writeOctal(block, 100, 8, 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, h.size);
  writeOctal(block, 136, 12, h.mtime);
  block.write(h.type, 156, 1, 'latin1');
  block.write('ustar\u000000', 257, 8, 'latin1');
  block.write(h.prefix, 345, 155, 'utf8');
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  block.write(sum.toString(8).padStart(6, '0') + '\u0000 ', 148, 8, 'latin1');
  return block;
}

/** Splits a path into ustar prefix (<= 155 bytes) and name (<= 100 bytes) at a slash. */
function splitPath(path: string): { prefix: string; name: string } | undefined {
  if (Buffer.byteLength(path) <= 100) return { prefix: '', name: path };
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== '') return { prefix, name };
  }
  return undefined;
}

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return Buffer.from(`${length}${body}`, 'utf8');
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number(data.subarray(offset, space).toString('latin1'));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    offset += length;
  }
  return out;
}

function padded(content: Buffer): Buffer {
  const rest = content.length % BLOCK;
  return rest === 0 ? content : Buffer.concat([content, Buffer.alloc(BLOCK - rest)]);
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  block.write(value.toString(8).padStart(length - 1, '0') + '\u0000', offset, length, 'latin1');
}

function octal(block: Buffer, offset: number, length: number, at: number): number {
  if (block[offset] & 0x80) throw badRequest('invalid_bundle', `the tar header at byte ${at} uses a binary number; bundles hold files smaller than 8 GiB`);
  const text = cString(block, offset, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw badRequest('invalid_bundle', `the tar header at byte ${at} has a malformed number`);
  return parseInt(text, 8);
}

function cString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const nul = field.indexOf(0);
  return field.subarray(0, nul === -1 ? field.length : nul).toString('utf8');
}

function checksumMatches(block: Buffer): boolean {
  const stored = parseInt(cString(block, 148, 8).trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return stored === sum;
}
