import type { AnyBlockImpl, AnyConnectorImpl, AnySourceImpl } from './core/component.ts';
import type { DefinitionText } from './core/load/integration-files.ts';
import { byType, type CelFunctionDef, type ComponentRegistry } from './core/registry-types.ts';
import { envFunction } from './blocks/env/env-function.ts';
import { filter } from './blocks/filter/filter.ts';
import { flowRef } from './blocks/flow-ref/flow-ref.ts';
import { jwtVerifyBlock } from './blocks/jwt-verify/jwt-verify.ts';
import { log } from './blocks/log/log.ts';
import { secretFunction } from './blocks/secret/secret-function.ts';
import { set } from './blocks/set/set.ts';
import { switchBlock } from './blocks/switch/switch.ts';
import { template } from './blocks/template/template.ts';
import { templateResourceFunction, templateResourcePlainFunction } from './blocks/template/template-resource-function.ts';
import { httpConnector } from './connectors/http/http.ts';
import { routeSource } from './connectors/http/route-source.ts';
import { sseEvent } from './connectors/http/sse-event.ts';

type Load<T> = () => Promise<T>;

/** A component in this module's own imports: the core blocks and the http connector's, which most flows use. */
const here =
  <T>(impl: T): Load<T> =>
  () =>
    Promise.resolve(impl);

/** The module of the other components, imported the first time a definition names one of them. */
const onUse = () => import('./components-on-use.ts');
type OnUse = Awaited<ReturnType<typeof onUse>>;

/** A component of components-on-use.ts, by the name that module exports it as. */
const later =
  <K extends keyof OnUse>(name: K): Load<OnUse[K]> =>
  () =>
    onUse().then((m) => m[name]);

/**
 * Every component the runtime knows, by type, and where its implementation is. The core blocks
 * and the http connector's components load with the runtime; the others (components-on-use.ts)
 * load the first time a definition names one, so a flow of routes and core blocks starts without
 * the notes, http-client, docstore, queue or schedule code. Adding a component is its files plus
 * one line here (and one in components-on-use.ts when it loads on use).
 */
const blocks: Record<string, Load<AnyBlockImpl>> = {
  filter: here(filter),
  switch: here(switchBlock),
  set: here(set),
  log: here(log),
  'flow-ref': here(flowRef),
  'jwt-verify': here(jwtVerifyBlock),
  'sse-event': here(sseEvent),
  'notes-verify-request': later('notesVerifyRequest'),
  'notes-event': later('notesEvent'),
  'notes-query-datasource': later('notesQueryDatasource'),
  'notes-retrieve-page': later('notesRetrievePage'),
  'notes-retrieve-blocks': later('notesRetrieveBlocks'),
  'notes-page-to-markdown': later('notesPageToMarkdown'),
  rest: later('rest'),
  'rest-dynamic': later('restDynamic'),
  'docstore-find': later('docstoreFind'),
  'docstore-insert': later('docstoreInsert'),
  'docstore-update': later('docstoreUpdate'),
  'docstore-delete': later('docstoreDelete'),
  'docstore-aggregate': later('docstoreAggregate'),
  'kv-get': later('kvGet'),
  'kv-put': later('kvPut'),
  'kv-delete': later('kvDelete'),
  'queue-publish': later('queuePublish'),
  'queue-request': later('queueRequest'),
  'topic-publish': later('topicPublish'),
  lock: later('lock'),
  'agent-memory-load': later('agentMemoryLoad'),
  'agent-memory-save': later('agentMemorySave'),
  'agent-memory-append': later('agentMemoryAppend'),
  'agent-memory-search': later('agentMemorySearch'),
  template: here(template),
};

const connectors: Record<string, Load<AnyConnectorImpl>> = {
  http: here(httpConnector),
  notes: later('notesConnector'),
  'http-client': later('httpClient'),
  docstore: later('docstore'),
};

const sources: Record<string, Load<AnySourceImpl>> = {
  http: here(routeSource),
  queue: later('queueSource'),
  topic: later('topicSource'),
  schedule: later('scheduleSource'),
};

/** Every CEL environment declares these. */
const celFunctions: CelFunctionDef[] = [envFunction, secretFunction, templateResourceFunction, templateResourcePlainFunction];

let everyComponent: Promise<ComponentRegistry> | undefined;

/** Every component, loaded (once per process): what the studio, `validate`, the docs and the tests load definitions with. */
export function loadRegistry(): Promise<ComponentRegistry> {
  everyComponent ??= registryOf(() => true);
  return everyComponent;
}

/**
 * The components the definitions name: those whose type is a word of their text (a block's key,
 * a `type:` value; a word that only looks like a type loads a component that goes unused).
 * Definitions that load against every component load the same against this one. Those that do
 * not may be told otherwise (an unknown type's "did you mean" looks among these only, and a
 * type written with YAML escapes is not seen), so a caller that meets a LoadError loads them
 * again against loadRegistry() to report what is wrong.
 */
export function registryNaming(texts: readonly DefinitionText[]): Promise<ComponentRegistry> {
  const words = new Set<string>();
  for (const { text } of texts) for (const [word] of text.matchAll(/[A-Za-z][\w-]*/g)) words.add(word);
  return registryOf((type) => words.has(type));
}

async function registryOf(wanted: (type: string) => boolean): Promise<ComponentRegistry> {
  const [b, c, s] = await Promise.all([loadWanted(blocks, wanted), loadWanted(connectors, wanted), loadWanted(sources, wanted)]);
  return { blocks: byType(b), connectors: byType(c), sources: byType(s), celFunctions };
}

/** The implementations of the wanted types, in the table's order (the order problems list types in). */
async function loadWanted<T extends { def: { type: string } }>(table: Record<string, Load<T>>, wanted: (type: string) => boolean): Promise<T[]> {
  const entries = Object.entries(table).filter(([type]) => wanted(type));
  return Promise.all(
    entries.map(async ([type, load]) => {
      const impl = await load();
      if (impl.def.type !== type) throw new Error(`the component listed as "${type}" declares type "${impl.def.type}"`);
      return impl;
    }),
  );
}
