import { isMap, isScalar, isSeq, isAlias, type Node, type Pair, type YAMLMap } from 'yaml';
import { CelCompileError, type CelEnvironment, type CompiledCel } from '../cel.ts';
import type { Chain } from '../engine/chain.ts';
import { parseDuration } from '../duration.ts';
import type { LoadProblem } from '../errors.ts';
import { suggest } from '../did-you-mean.ts';
import type { Setting, SettingsSpec } from '../setting-spec.ts';
import { interpolate, referencedNames } from './env-vars.ts';
import type { YamlFile } from './yaml-file.ts';

export interface SettingsLoadContext {
  file: YamlFile;
  problems: LoadProblem[];
  cel: CelEnvironment;
  /** Value of a declared variable, or undefined when it is not known (validate mode or unset). */
  envValue(name: string): string | undefined;
  isDeclared(name: string): boolean;
  /** Declared connectors by name → type. */
  connectorTypes: ReadonlyMap<string, string>;
  /**
   * Every connector name declared, its type known or not: naming one whose type is unknown is not
   * a second problem (its own is reported at its type).
   */
  declaredConnectors?: ReadonlySet<string>;
  buildSteps(node: Node | null | undefined, path: string): Chain;
}

/** Marks a value that depends on a variable not known yet; its checks wait for run time. */
const UNKNOWN = Symbol('unknown');

function keyName(pair: Pair): string {
  const k = pair.key;
  return isScalar(k) ? String(k.value) : String(k);
}

/**
 * Validates a mapping against a settings spec and returns the loaded values (durations in ms,
 * CEL compiled, chains built). Every problem goes to ctx.problems; the result is only used when
 * there were none.
 */
export function loadSettings(
  spec: SettingsSpec,
  node: Node | null | undefined,
  path: string,
  ctx: SettingsLoadContext,
  ignoreKeys: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (node !== null && node !== undefined && !isMap(node)) {
    problem(ctx, node, path, 'expected a mapping of settings');
    return out;
  }
  const map = node as YAMLMap | null | undefined;
  const seen = new Set<string>();
  for (const pair of map?.items ?? []) {
    const name = keyName(pair);
    if (ignoreKeys.includes(name)) continue;
    seen.add(name);
    const setting = spec[name];
    const at = `${path}.${name}`;
    if (!setting) {
      problem(ctx, pair.key as Node, at, `unknown setting "${name}"${suggest(name, Object.keys(spec))}`);
      continue;
    }
    const value = loadValue(setting, pair.value as Node | null, at, ctx);
    if (value !== UNKNOWN && value !== undefined) out[name] = value;
  }
  for (const [name, setting] of Object.entries(spec)) {
    if (seen.has(name)) continue;
    if (setting.required) {
      problem(ctx, map ?? node, `${path}.${name}`, `missing required setting "${name}" (${setting.description})`);
    } else if (setting.default !== undefined && !setting.defaultAppliedByComponent) {
      out[name] = defaultValue(setting, `${path}.${name}`, ctx);
    }
  }
  return out;
}

function defaultValue(setting: Setting, path: string, ctx: SettingsLoadContext): unknown {
  const d = setting.default;
  switch (setting.type) {
    // An absent list of steps is an empty chain, built like a written one (`steps: []`).
    case 'steps':
      return ctx.buildSteps(null, path);
    case 'duration':
      return typeof d === 'string' ? parseDuration(d) : d;
    case 'cel':
      return typeof d === 'string' ? ctx.cel.compile(d) : d;
    case 'list':
    case 'map':
    case 'object':
      return structuredClone(d);
    default:
      return d;
  }
}

function loadValue(setting: Setting, node: Node | null, path: string, ctx: SettingsLoadContext): unknown {
  if (isAlias(node)) node = node.resolve(ctx.file.doc) as Node | null;
  if (setting.type === 'steps') return ctx.buildSteps(node, path);
  if (setting.type === 'cel') return loadCel(node, path, ctx);
  if (setting.type === 'any') return node === null ? null : plain(node);
  if (setting.type === 'list') {
    if (!isSeq(node)) return problem(ctx, node, path, `expected a list (${setting.description})`);
    return node.items.map((item, i) => loadValue(setting.items, item as Node, `${path}[${i}]`, ctx)).filter((v) => v !== UNKNOWN);
  }
  if (setting.type === 'map') {
    if (!isMap(node)) return problem(ctx, node, path, `expected a mapping (${setting.description})`);
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      const k = keyName(pair);
      const v = loadValue(setting.values, pair.value as Node | null, `${path}.${k}`, ctx);
      if (v !== UNKNOWN && v !== undefined) out[k] = v;
    }
    return out;
  }
  if (setting.type === 'object') {
    if (!isMap(node)) return problem(ctx, node, path, `expected a mapping (${setting.description})`);
    return loadSettings(setting.fields, node, path, ctx);
  }
  // Scalars from here on.
  if (!isScalar(node)) {
    return problem(ctx, node, path, `expected a ${describeType(setting)}, got ${node === null ? 'nothing' : 'a structure'}`);
  }
  let raw: unknown = node.value;
  if (raw instanceof Date) {
    return problem(ctx, node, path, `YAML read this as a date (${raw.toISOString()}); quote it to keep it a string, e.g. "${ctx.file.text.slice(node.range![0], node.range![1]).trim()}"`);
  }
  if (typeof raw === 'string' && raw.includes('${')) {
    const unknown = referencedNames(raw).filter((n) => !ctx.isDeclared(n));
    if (unknown.length > 0) {
      return problem(ctx, node, path, `\${${unknown[0]}} is not a declared variable; declare it under env:`);
    }
    const resolved = interpolate(raw, (n) => ctx.envValue(n));
    if (resolved === undefined) return UNKNOWN;
    raw = resolved;
    if (setting.type !== 'string') raw = coerceFromText(resolved, setting.type);
  }
  switch (setting.type) {
    case 'string': {
      if (typeof raw !== 'string') return problem(ctx, node, path, `expected a string, got ${typeName(raw)}; quote it`);
      if (setting.enum && !setting.enum.includes(raw)) {
        return problem(ctx, node, path, `"${raw}" is not one of ${setting.enum.join(', ')}`);
      }
      if (setting.connectorType && !checkConnector(raw, setting.connectorType, node, path, ctx)) return undefined;
      return raw;
    }
    case 'int':
    case 'number': {
      if (typeof raw !== 'number' || Number.isNaN(raw)) return problem(ctx, node, path, `expected a number, got ${typeName(raw)}`);
      if (setting.type === 'int' && !Number.isInteger(raw)) return problem(ctx, node, path, `expected a whole number, got ${raw}`);
      if (setting.minimum !== undefined && raw < setting.minimum) return problem(ctx, node, path, `must be at least ${setting.minimum}, got ${raw}`);
      if (setting.type === 'int' && setting.maximum !== undefined && raw > setting.maximum) {
        return problem(ctx, node, path, `must be at most ${setting.maximum}, got ${raw}`);
      }
      return raw;
    }
    case 'boolean':
      if (typeof raw !== 'boolean') return problem(ctx, node, path, `expected true or false, got ${typeName(raw)}`);
      return raw;
    case 'duration':
      if (raw === 0) return 0;
      if (typeof raw !== 'string') return problem(ctx, node, path, `expected a duration such as 5s or 250ms, got ${typeName(raw)}`);
      try {
        return parseDuration(raw);
      } catch (err) {
        return problem(ctx, node, path, (err as Error).message);
      }
  }
  return raw;
}

function checkConnector(name: string, type: string, node: Node, path: string, ctx: SettingsLoadContext): boolean {
  const actual = ctx.connectorTypes.get(name);
  if (actual === undefined && ctx.declaredConnectors?.has(name)) return true;
  if (actual === undefined) {
    const candidates = [...ctx.connectorTypes].filter(([, t]) => t === type).map(([n]) => n);
    problem(ctx, node, path, `no connector named "${name}"${candidates.length ? `; ${type} connectors: ${candidates.join(', ')}` : `; declare one of type ${type} under connectors:`}`);
    return false;
  }
  if (actual !== type) {
    problem(ctx, node, path, `connector "${name}" is of type ${actual}, expected ${type}`);
    return false;
  }
  return true;
}

function loadCel(node: Node | null, path: string, ctx: SettingsLoadContext): CompiledCel | undefined {
  if (node === null) return problem(ctx, node, path, 'expected a CEL expression');
  if (isScalar(node) && typeof node.value === 'string') {
    const source = node.value;
    try {
      return ctx.cel.compile(source);
    } catch (err) {
      if (err instanceof CelCompileError) {
        ctx.problems.push({ location: ctx.file.inScalar(node, err.offset), path, message: `CEL: ${err.message}` });
        return undefined;
      }
      throw err;
    }
  }
  if (isScalar(node) && node.value instanceof Date) {
    return problem(ctx, node, path, `YAML read this as a date; quote it ("…") or write it as {$date: "…"}`);
  }
  // A YAML literal (number, boolean, mapping, list) stands for itself: a constant expression.
  const constant = plain(node);
  return { source: JSON.stringify(constant), evaluate: () => structuredClone(constant) };
}

/** A YAML node as a plain JS value; dates become RFC 3339 strings (spec 3 §2.4). */
export function plain(node: Node | null): unknown {
  if (node === null || node === undefined) return null;
  const v = (node as { toJSON(): unknown }).toJSON();
  return datesToStrings(v);
}

function datesToStrings(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString().replace('.000Z', 'Z');
  if (Array.isArray(v)) return v.map(datesToStrings);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, datesToStrings(x)]));
  return v;
}

function coerceFromText(text: string, type: Setting['type']): unknown {
  if (type === 'int' || type === 'number') return text.trim() === '' ? NaN : Number(text);
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

function describeType(setting: Setting): string {
  return setting.type === 'int' ? 'whole number' : setting.type;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `"${v}"`;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return typeof v;
}

export function problem(ctx: SettingsLoadContext, node: Node | null | undefined, path: string, message: string): undefined {
  ctx.problems.push({ location: ctx.file.at(node), path, message });
  return undefined;
}
