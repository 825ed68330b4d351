import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/** Issue 18 item 10: the packaged app's Electron fuses, read from the packaging config itself. */
const config = parse(readFileSync(new URL('../../electron-builder.yml', import.meta.url), 'utf8')) as { electronFuses?: Record<string, unknown>; asar?: unknown };
const scheme = JSON.parse(readFileSync(new URL('../../node_modules/app-builder-lib/scheme.json', import.meta.url), 'utf8')) as {
  definitions: { FuseOptionsV1: { properties: Record<string, unknown> } };
};

describe('electron-builder.yml sets the fuses of packaged builds', () => {
  const fuses = config.electronFuses ?? {};

  it.each([
    ['runAsNode', false],
    ['enableNodeOptionsEnvironmentVariable', false],
    ['enableNodeCliInspectArguments', false],
    ['enableCookieEncryption', true],
    ['enableEmbeddedAsarIntegrityValidation', true],
    ['onlyLoadAppFromAsar', true],
    ['grantFileProtocolExtraPrivileges', false],
  ])('%s is %s', (fuse, value) => {
    expect(fuses[fuse]).toBe(value);
  });

  it('names only fuses electron-builder knows (a typo would be ignored silently when packaging)', () => {
    const known = Object.keys(scheme.definitions.FuseOptionsV1.properties);
    for (const name of Object.keys(fuses)) expect(known, name).toContain(name);
  });

  it('packs into app.asar, which onlyLoadAppFromAsar requires', () => {
    expect(config.asar === undefined || config.asar === true).toBe(true);
  });
});
