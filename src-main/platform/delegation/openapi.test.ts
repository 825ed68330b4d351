import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformApiArtifacts } from '../openapi-artifact.ts';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

const documentPath = new URL('../../../shared/platform-openapi.json', import.meta.url);
const doc = JSON.parse(readFileSync(documentPath, 'utf8')) as {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: Array<{ $ref?: string; in?: string; name?: string }> }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }>; parameters: Record<string, { in: string; name: string }> };
  'x-error-codes': Record<string, number>;
};

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

describe('the OpenAPI document (shared/platform-openapi.json)', () => {
  it('is what npm run gen writes from the route declarations in shared/platform-api/ (run `npm run gen` after changing one)', () => {
    for (const artifact of platformApiArtifacts()) expect(readFileSync(artifact.path, 'utf8')).toBe(artifact.content);
  });

  it('is OpenAPI 3.1 and is served at /v1/openapi.json', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const res = await platform.call('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json).toEqual(doc);
  });

  it('documents exactly the routes the server serves', () => {
    const served = platform.server.routes.map((r) => `${r.method} ${r.path}`).sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(served);
  });

  it('declares every path parameter of every route', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, operation] of Object.entries(methods)) {
        const declared = (operation.parameters ?? [])
          .map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!] : p))
          .filter((p) => p.in === 'path')
          .map((p) => p.name);
        expect(declared.sort(), `${method} ${path}`).toEqual([...names].sort());
      }
    }
  });

  it('resolves every $ref', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) {
      const target = ref.split('/').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
      expect(target, ref).toBeDefined();
    }
  });

  it('lists every error code the server can answer, with its status', () => {
    const source = readdirSync(new URL('..', import.meta.url), { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile() && f.name.endsWith('.ts') && !f.name.endsWith('.test.ts'))
      .map((f) => readFileSync(join(f.parentPath, f.name), 'utf8'))
      .join('\n');
    const helpers: Record<string, number> = { badRequest: 400, notFound: 404, conflict: 409, tooLarge: 413 };
    const thrown = [
      ...[...source.matchAll(/\b(badRequest|notFound|conflict|tooLarge)\(\s*'([a-z_]+)'/g)].map((m) => [m[2], helpers[m[1]]] as const),
      ...[...source.matchAll(/new ApiError\(\s*(\d{3}),\s*'([a-z_]+)'/g)].map((m) => [m[2], Number(m[1])] as const),
    ];
    expect(thrown.length).toBeGreaterThan(30);
    for (const [code, status] of thrown) expect(doc['x-error-codes'][code], code).toBe(status);
  });

  it('declares every field discovery sends', async () => {
    const discovery = (await platform.call('GET', '/v1/discovery')).json as { features: Record<string, Record<string, unknown>> };
    const featureSchemas = (doc.components.schemas.Discovery.properties!.features as { properties: Record<string, { properties: Record<string, unknown> }> }).properties;
    for (const [name, block] of Object.entries(discovery.features)) {
      expect(featureSchemas[name], name).toBeDefined();
      for (const field of Object.keys(block)) expect(featureSchemas[name].properties[field], `${name}.${field}`).toBeDefined();
    }
  });
});
