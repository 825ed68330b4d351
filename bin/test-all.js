#!/usr/bin/env node
// `npm test`: registers the TypeScript loader and hands over to bin/test-setup/run-all.ts, which
// sets up a browser and the test servers, runs every suite and prints one summary line.
import { register } from 'tsx/esm/api';

register();
await import('./test-setup/run-all.ts');
