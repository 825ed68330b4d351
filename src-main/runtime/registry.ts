import type { AnyBlockImpl, AnyConnectorImpl, AnySourceImpl } from './core/component.ts';
import { byType, type CelFunctionDef, type ComponentRegistry } from './core/registry-types.ts';
import { filter } from './blocks/filter/filter.ts';
import { flowRef } from './blocks/flow-ref/flow-ref.ts';
import { jwtVerifyBlock } from './blocks/jwt-verify/jwt-verify.ts';
import { log } from './blocks/log/log.ts';
import { set } from './blocks/set/set.ts';
import { switchBlock } from './blocks/switch/switch.ts';

/** Every component the runtime knows. Adding one is its files plus one line here. */
const blocks: AnyBlockImpl[] = [
  filter,
  switchBlock,
  set,
  log,
  flowRef,
  jwtVerifyBlock,
];

const connectors: AnyConnectorImpl[] = [];

const sources: AnySourceImpl[] = [];

const celFunctions: CelFunctionDef[] = [];

export const registry: ComponentRegistry = {
  blocks: byType(blocks),
  connectors: byType(connectors),
  sources: byType(sources),
  celFunctions,
};
