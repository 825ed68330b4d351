import type { Environment } from '@marcbachmann/cel-js';
import { CEL_FUNCTIONS, CEL_NAMESPACES, type CelFunctionDeclaration } from '../../../../shared/cel-functions.ts';
import type { CelHandler } from './cel-values.ts';
import { ENCODERS } from './encoders.ts';
import { MATH } from './math.ts';
import { OPTIONALS } from './optionals.ts';
import { STRINGS } from './strings.ts';
import { TIME } from './time.ts';

/**
 * Binds the extension libraries declared in shared/cel-functions.ts to a cel-js environment: one
 * implementation per declared overload, keyed by its signature.
 */
export const CEL_IMPLEMENTATIONS: Readonly<Record<string, CelHandler>> = { ...STRINGS, ...MATH, ...ENCODERS, ...OPTIONALS, ...TIME };

/** cel-js has no variadic functions: `f(dyn, ...)` is registered for 1 to this many arguments. */
export const MAX_VARIADIC_ARGUMENTS = 12;

const NAMESPACE_TYPES: Record<string, string> = {
  math: 'MathNamespace',
  strings: 'StringsNamespace',
  base64: 'Base64Namespace',
  optional: 'OptionalNamespace',
  cel: 'CelNamespace',
};

/** The cel-js signatures one declared overload stands for (variadic ones expand; namespaces become types). */
export function celJsSignatures(overload: string): string[] {
  const m = /^(?:(\w+)\.)?(\w+)\((.*)\):(.*)$/.exec(overload);
  if (!m) return [overload];
  const [, prefix, name, params, result] = m;
  const receiver = prefix && NAMESPACE_TYPES[prefix] ? `${NAMESPACE_TYPES[prefix]}.` : prefix ? `${prefix}.` : '';
  const args = params.split(',').map((p) => p.trim()).filter(Boolean);
  if (args.at(-1) !== '...') return [`${receiver}${name}(${args.join(', ')}):${result}`];
  const repeated = args[args.length - 2];
  const fixed = args.slice(0, -2);
  return Array.from({ length: MAX_VARIADIC_ARGUMENTS }, (_, n) => `${receiver}${name}(${[...fixed, ...Array<string>(n + 1).fill(repeated)].join(', ')}):${result}`);
}

function isNamespaced(overload: string): boolean {
  const prefix = /^(\w+)\./.exec(overload)?.[1];
  return prefix !== undefined && prefix in NAMESPACE_TYPES;
}

function bindOverload(env: Environment, decl: CelFunctionDeclaration, overload: string): void {
  const handler = CEL_IMPLEMENTATIONS[overload];
  if (!handler) throw new Error(`CEL library: no implementation for ${overload} (declared for ${decl.name} in shared/cel-functions.ts)`);
  // A namespaced function is a method of the namespace constant: cel-js passes it first.
  const bound: CelHandler = isNamespaced(overload) ? (_namespace: unknown, ...args: unknown[]) => handler(...args) : handler;
  for (const signature of celJsSignatures(overload)) env.registerFunction(signature, bound, { description: decl.description });
}

export function bindCelLibraries(env: Environment): void {
  for (const ns of CEL_NAMESPACES) {
    const typeName = NAMESPACE_TYPES[ns];
    const Namespace = class {};
    Object.defineProperty(Namespace, 'name', { value: typeName });
    env.registerType(typeName, Namespace);
    env.registerConstant(ns, typeName, new Namespace());
  }
  for (const decl of CEL_FUNCTIONS) {
    if (decl.builtin) continue;
    for (const overload of decl.overloads) bindOverload(env, decl, overload);
  }
}
