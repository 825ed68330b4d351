import { loadRegistry } from './components.ts';
import type { ComponentRegistry } from './core/registry-types.ts';

/**
 * Every component, loaded when this module is (the components and where their implementations
 * are: components.ts): for the runtime's own tests and benches, which load definitions without
 * awaiting. Outside the runtime, code awaits the front door's loadRegistry(); a runtime's start
 * loads only the components its definitions name.
 */
export const registry: ComponentRegistry = await loadRegistry();
