/**
 * A DAP request's arguments as a client sent them: read one by one, a missing or mistyped one
 * refused with an error that names it, so a client's mistake gets an answer it can act on rather
 * than a JavaScript message (or, worse, a wrong action).
 *
 * @example
 *   const a = new DapArguments('evaluate', request.arguments);
 *   a.text('expression'); // throws 'evaluate needs "expression": …' when it is absent
 */
export class DapArguments {
  readonly values: Record<string, unknown>;

  constructor(
    readonly command: string,
    raw: unknown,
  ) {
    this.values = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  }

  /** A whole number the request must carry (`threadId`, `frameId`, `variablesReference`). */
  number(name: string): number {
    const value = this.values[name];
    if (value === undefined || value === null) throw new Error(`${this.command} needs "${name}" (a number)`);
    return wholeNumber(value, `"${name}"`);
  }

  /** A whole number the request may carry; undefined when absent. */
  optionalNumber(name: string): number | undefined {
    const value = this.values[name];
    return value === undefined || value === null ? undefined : wholeNumber(value, `"${name}"`);
  }

  /** Text the request must carry (`expression`, `value`). */
  text(name: string): string {
    const value = this.values[name];
    if (value === undefined || value === null) throw new Error(`${this.command} needs "${name}" (text)`);
    return optionalText(value, `"${name}"`)!;
  }
}

/** Text or nothing; anything else refused naming where it was (`"breakpoints[0].condition"`). */
export function optionalText(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new Error(`${where} must be text, not ${JSON.stringify(value)}`);
  return value;
}

function wholeNumber(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`${where} must be a number, not ${JSON.stringify(value)}`);
  return value;
}
