import { fileURLToPath } from 'node:url';
import { ensureRendererBuilt } from '../src-main/studio/web/renderer-build.ts';

/** Builds the renderer once before the suite when its sources are newer than the build. */
export default async function globalSetup(): Promise<void> {
  await ensureRendererBuilt(fileURLToPath(new URL('..', import.meta.url)), (line) => console.log(line));
}
