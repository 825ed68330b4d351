import { badRequest } from '../http/api-error.ts';

/**
 * A plain POSIX tar (ustar, with PAX records for paths that do not fit) of regular files: what
 * `tar xf` and every archive tool open, written and read by tar-stream. Bundles are small, so
 * both directions work on buffers; what is ours is the policy: only regular files, a truncated
 * or corrupt archive is the uploader's 400. tar-stream is loaded by the first bundle read or
 * written, not when the server starts.
 */
export interface TarEntry {
  path: string;
  content: Buffer;
  /** Modification time, in ms since the epoch. */
  mtimeMs?: number;
}

export async function writeTar(entries: readonly TarEntry[]): Promise<Buffer> {
  const archive = (await import('tar-stream')).pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const entry of entries) {
    const mtime = new Date(Math.floor((entry.mtimeMs ?? 0) / 1000) * 1000);
    await new Promise<void>((resolve, reject) =>
      archive.entry({ name: entry.path, size: entry.content.length, mode: 0o644, mtime, type: 'file' }, entry.content, (err) => (err ? reject(err) : resolve())),
    );
  }
  archive.finalize();
  await ended;
  return Buffer.concat(chunks);
}

/** Regular files in archive order; directories are skipped; links and devices are refused. */
export async function readTar(archive: Buffer): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  const reader = (await import('tar-stream')).extract();
  let refused: Error | undefined;
  reader.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk) => chunks.push(chunk as Buffer));
    stream.on('end', () => {
      const path = header.name.replace(/^(\.\/)+/, '');
      if (header.type === 'file' || header.type === 'contiguous-file') {
        entries.push({ path, content: Buffer.concat(chunks), mtimeMs: header.mtime?.getTime() ?? 0 });
      } else if (header.type !== 'directory' && !refused) {
        refused = badRequest('invalid_bundle', `the bundle entry "${path}" is not a regular file (tar type "${header.type}"); a bundle holds only files`);
      }
      next();
    });
    // A truncated archive errors the entry too; the extractor's own error below reports it.
    stream.on('error', () => undefined);
    stream.resume();
  });
  await new Promise<void>((resolve, reject) => {
    reader.on('finish', resolve);
    reader.on('error', reject);
    reader.end(archive);
  }).catch((err: Error) => {
    if (/unexpected end/i.test(err.message)) throw badRequest('invalid_bundle', 'the bundle ends in the middle of a file; the tar archive is truncated');
    throw badRequest('invalid_bundle', `the bundle is not a tar archive (${err.message.replace(/\.$/, '')})`);
  });
  if (refused) throw refused;
  return entries;
}
