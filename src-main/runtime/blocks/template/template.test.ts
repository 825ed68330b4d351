import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../../../platform/index.ts';
import { runtimeOn, type RuntimeOnPlatform } from '../../services/testing/runtime-on-platform.ts';
import { compileTemplate } from './template-text.ts';

let dir: string;
let platform: PlatformServer;
let r: RuntimeOnPlatform;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flow-template-'));
  mkdirSync(join(dir, 'seed', 'template', 'emails'), { recursive: true });
  writeFileSync(join(dir, 'seed', 'template', 'emails', 'welcome.txt'), 'Hello {{ body.name }}, you have {{ size(body.items) }} items: {{ body.items }}.{{ null }}');
  writeFileSync(join(dir, 'seed', 'template', 'broken.txt'), 'Hi {{ body.name ');
  platform = await startPlatformServer({ dataDir: join(dir, 'data'), seedResourcesDir: join(dir, 'seed') });
  r = await runtimeOn(
    platform,
    `flows:
  mail:
    steps:
      - template: {name: emails/welcome.txt}
  page:
    steps:
      - template: {name: emails/welcome.txt, resultVar: text, contentType: text/plain}
  inline:
    steps:
      - set: {vars: {text: 'templateResource("emails/welcome.txt", {"body": body, "vars": vars})'}}
  dynamic:
    steps:
      - set: {body: 'templateResource(body.template, {"body": {"name": "x", "items": []}})'}
  missing:
    steps:
      - template: {name: nope.txt}
  broken:
    steps:
      - template: {name: broken.txt}
`,
  );
});
afterAll(async () => {
  await r.stop();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

const order = { name: 'Ada', items: [1, 2] };

describe('template resources', () => {
  it('renders a template resource with the message into the body', async () => {
    expect((await r.runtime.run('mail', order)).message.body).toBe('Hello Ada, you have 2 items: [1,2].');
  });

  it('renders into a variable as raw content of a given type', async () => {
    expect((await r.runtime.run('page', order)).message.vars.text).toEqual({ contentType: 'text/plain', rawData: 'Hello Ada, you have 2 items: [1,2].' });
  });

  it('renders from CEL with templateResource(), read ahead for a literal name and on first use otherwise', async () => {
    expect((await r.runtime.run('inline', order)).message.vars.text).toBe('Hello Ada, you have 2 items: [1,2].');
    expect((await r.runtime.run('dynamic', { template: 'emails/welcome.txt' })).message.body).toBe('Hello x, you have 0 items: [].');
  });

  it('names a missing template resource and the line of a broken one', async () => {
    expect((await r.runtime.run('missing')).error?.message).toBe('template resource "nope.txt" does not exist; add it to the integration\'s resources');
    expect((await r.runtime.run('broken')).error?.message).toBe('template broken.txt:1: "{{" is never closed with "}}"');
  });
});

describe('template text', () => {
  it('reports a CEL mistake with the template name and line', () => {
    expect(() => compileTemplate('t.txt', 'line one\nvalue: {{ body. }}')).toThrow(/^template t\.txt:2: \{\{ body\. \}\}: /);
    expect(() => compileTemplate('t.txt', 'line one\n{{ sise(body) }}')).toThrow('template t.txt:2: {{ sise(body) }}: unknown function "sise"; did you mean "size"?');
  });

  it('fails a render at the template name and line, without the expression, which a failed flow would answer', () => {
    const template = compileTemplate('t.txt', 'total:\n{{ body.price * body.quantity }}');
    expect(() => template.render({ body: { price: 'ten', quantity: 2 } })).toThrow(/^template t\.txt:2: no such overload/);
    expect(() => template.render({ body: { price: 'ten', quantity: 2 } })).not.toThrow(/price|quantity/);
  });
});
