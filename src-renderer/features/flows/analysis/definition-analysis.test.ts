import { describe, expect, it } from 'vitest';
import type { AnalysisRequest, AnalysisResponse } from './analysis-protocol.ts';
import { AnalysisClient } from './analysis-client.ts';
import { cursorContext } from './cursor-context.ts';
import { definitionOutline } from './definition-outline.ts';
import { DefinitionAnalysis } from './definition-analysis.ts';
import { fixtureReference, fixtureSpecs } from './reference-fixture.ts';
import { parseDefinition } from './yaml-nodes.ts';

/** The client against the analysis in the same thread, counting the text it sends. */
function inProcess() {
  const analysis = new DefinitionAnalysis();
  const listeners: Array<(e: Event) => void> = [];
  let textsSent = 0;
  const asked: string[] = [];
  const worker = {
    addEventListener: (_: string, l: (e: Event) => void) => listeners.push(l),
    postMessage: (req: AnalysisRequest) => {
      asked.push(req.op);
      if ('doc' in req && req.doc.text !== undefined) textsSent++;
      const res: AnalysisResponse = analysis.handle(structuredClone(req));
      queueMicrotask(() => listeners.forEach((l) => l({ data: res } as MessageEvent)));
    },
  } as unknown as Worker;
  return { client: new AnalysisClient(worker), texts: () => textsSent, asked: () => asked.filter((op) => op === 'context').length };
}

const text = `connectors:
  api: {type: http-client, baseURL: "https://x"}
flows:
  a:
    source:
      type: http
      path: /a/{id}
    steps:
      - filter: {condition: vars.}
  b:
    steps:
      - log: {message: x}
`;

describe('the analysis worker', () => {
  it('answers the questions one keystroke raises about one position with one request', async () => {
    const { client, asked } = inProcess();
    await client.reference(fixtureReference);
    const doc = { key: 'k', version: 1, text: () => text };
    const offset = text.indexOf('vars.') + 5;
    const [cel, gate] = await Promise.all([client.context(doc, offset), client.context(doc, offset)]);
    expect(gate).toBe(cel);
    expect(cel.context.cel?.prefix).toBe('vars.');
    expect(asked()).toBe(1);
    // Another position, or the same one in another version, is a new question.
    await client.context(doc, offset - 1);
    await client.context({ ...doc, version: 2 }, offset);
    expect(asked()).toBe(3);
  });

  it('follows edits without the text crossing again, and answers like a full parse', async () => {
    const { client, texts } = inProcess();
    await client.reference(fixtureReference);
    let current = text;
    let version = 1;
    const doc = () => ({ key: 'k', version, text: () => current });
    const offset = current.indexOf('vars.') + 5;
    const first = await client.context(doc(), offset);
    expect(first.context).toMatchObject({ path: 'flows.a.steps[0].filter.condition', cel: { prefix: 'vars.' } });
    expect(first.scope?.vars.map((v) => v.name)).toEqual(['id', 'method', 'query']);
    expect(first.context).toEqual(cursorContext(parseDefinition(current), current, fixtureSpecs, offset));

    // Type "id" after "vars.": one delta; the worker's copy follows.
    current = current.slice(0, offset) + 'id' + current.slice(offset);
    version = 2;
    client.edit('k', 2, [{ offset, length: 0, text: 'id' }]);
    const second = await client.context(doc(), offset + 2);
    expect(second.context.cel).toMatchObject({ expression: 'vars.id', prefix: 'vars.id' });
    expect(texts()).toBe(1);
    expect((await client.outline(doc())).flows.map((f) => f.name)).toEqual(['a', 'b']);
  });

  it('outlines a long file one flow at a time: the focused flow in full, with spans into the whole text', async () => {
    const { client } = inProcess();
    await client.reference(fixtureReference);
    const outline = await client.outline({ key: 'k', version: 1, text: () => text }, 'b');
    expect(outline.flows.map((f) => [f.name, Boolean(f.brief)])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    const log = outline.flows[1].steps[0];
    expect(text.slice(...log.span)).toBe('log: {message: x}');
    expect(text.slice(...outline.flows[0].keySpan)).toBe('a');
    expect(outline.flows[1]).toEqual(definitionOutline(parseDefinition(text), text, fixtureSpecs).flows[1]);
  });

  it('resends the text when an edit does not follow the version it has', async () => {
    const { client, texts } = inProcess();
    await client.reference(fixtureReference);
    await client.outline({ key: 'k', version: 1, text: () => text });
    client.edit('k', 5, [{ offset: 0, length: 0, text: '# x\n' }]);
    const outline = await client.outline({ key: 'k', version: 5, text: () => `# x\n${text}` });
    expect(outline.flows).toHaveLength(2);
    expect(texts()).toBe(2);
  });
});
