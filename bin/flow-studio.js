#!/usr/bin/env node
// The package's CLI entry: registers the TypeScript loader once, then hands over to src-main/cli.ts.
import { register } from 'tsx/esm/api';

register();
await import('../src-main/cli.ts');
