import { readFileSync } from 'node:fs';

/**
 * The bearer token in the file given with `--token-file`; an error names the option and the file
 * when it cannot be read or holds nothing (never the token).
 */
export function readTokenFile(path: string): string {
  let token: string;
  try {
    token = readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new Error(`--token-file ${path}: cannot read it: ${(err as Error).message}`);
  }
  if (!token) throw new Error(`--token-file ${path} is empty; it should hold the platform's bearer token`);
  return token;
}
