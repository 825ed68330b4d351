import type busboy from 'busboy';
import { BadRequestError } from './bad-request.ts';
import { partHeaderBlocks } from './multipart-headers.ts';

/** One decoded part of a multipart/form-data body (spec 2 §2.5). */
export interface FormPart {
  name: string;
  /** The part's filename; null on a plain form field (a part without one). */
  filename: string | null;
  contentType: string;
  /** `base64` for files (parts with a filename), `text` for plain form fields. */
  encoding: 'base64' | 'text';
  /** Decoded byte length. */
  size: number;
  data: string;
  headers: Record<string, string>;
}

export interface MultipartBody {
  contentType: string;
  rawData: Buffer;
  parts: Record<string, FormPart | FormPart[]>;
}

export function isMultipart(contentType: string | undefined): contentType is string {
  // Anything shorter than `multipart/form-data` (application/json is) needs no regex.
  return contentType !== undefined && contentType.length >= 19 && MAY_BE_MULTIPART.test(contentType);
}

const MAY_BE_MULTIPART = /^\s*multipart\/form-data\b/i;

/**
 * Decodes a multipart/form-data body with busboy. Anything that will not parse, and any part name,
 * filename or content type holding a line break, is a BadRequestError (400 before the flow runs).
 */
export async function decodeMultipart(raw: Buffer, contentType: string): Promise<MultipartBody> {
  // Loaded by the first multipart request, not with every route.
  const { default: busboy } = await import('busboy');
  return new Promise<MultipartBody>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        defParamCharset: 'utf8',
        // The whole body is already bounded by maxBodyBytes; busboy must not truncate fields at its 1 MiB default.
        limits: { fieldSize: raw.length + 1 },
      });
    } catch (err) {
      reject(new BadRequestError(`malformed multipart body: ${(err as Error).message}`));
      return;
    }
    const pending: Array<FormPart | Promise<FormPart>> = [];
    let failed = false;
    const fail = (message: string): void => {
      if (failed) return;
      failed = true;
      reject(new BadRequestError(`malformed multipart body: ${message}`));
    };
    parser.on('field', (name, value, info) => {
      pending.push({ name, filename: null, contentType: info.mimeType, encoding: 'text', size: Buffer.byteLength(value), data: value, headers: {} });
    });
    // busboy also hands over a part without a filename as a file when its type is
    // application/octet-stream; spec 2 §2.5 says only a filename makes a file.
    parser.on('file', (name, stream, info) => {
      pending.push(
        new Promise<FormPart>((done) => {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const file = info.filename !== undefined;
            done({
              name,
              filename: info.filename ?? null,
              contentType: info.mimeType,
              encoding: file ? 'base64' : 'text',
              size: bytes.length,
              data: bytes.toString(file ? 'base64' : 'utf8'),
              headers: {},
            });
          });
        }),
      );
    });
    parser.on('error', (err: Error) => fail(err.message));
    parser.on('close', () => {
      if (failed) return;
      Promise.all(pending).then((parts) => {
        try {
          resolve({ contentType, rawData: raw, parts: collect(parts, partHeaderBlocks(raw, boundaryOf(contentType))) });
        } catch (err) {
          fail((err as Error).message);
        }
      }, reject);
    });
    parser.end(raw);
  });
}

function collect(parts: FormPart[], headerBlocks: Array<Record<string, string>>): Record<string, FormPart | FormPart[]> {
  const out: Record<string, FormPart | FormPart[]> = {};
  parts.forEach((part, i) => {
    part.headers = headerBlocks[i] ?? {};
    // The exact header wins over busboy's normalised type (which drops parameters such as charset).
    const declared = part.headers['content-type'];
    part.contentType = declared ?? (part.encoding === 'text' ? 'text/plain' : 'application/octet-stream');
    for (const [what, value] of [['name', part.name], ['filename', part.filename], ['content type', part.contentType]] as const) {
      if (typeof value === 'string' && /[\r\n]/.test(value)) throw new Error(`a part ${what} contains a line break`);
    }
    if (part.name === undefined || part.name === '') throw new Error('a part has no name in its Content-Disposition');
    const prior = Object.hasOwn(out, part.name) ? out[part.name] : undefined;
    if (Array.isArray(prior)) prior.push(part);
    // defineProperty, because a part may be named __proto__.
    else Object.defineProperty(out, part.name, { value: prior ? [prior, part] : part, enumerable: true, writable: true, configurable: true });
  });
  return out;
}

function boundaryOf(contentType: string): string {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : '';
}
