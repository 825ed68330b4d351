/**
 * Why a header cannot go out as written, or undefined: the composer lists it before Send and the
 * backend refuses to send it, naming the header, where the HTTP client would only say "invalid
 * header". HTTP allows a name of token characters only and a one-line value in Latin-1
 * (RFC 9110 §5.1, §5.5).
 */
export function headerProblem(name: string, value: string): string | undefined {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return `header name "${name}" is not valid: letters, digits and !#$%&'*+-.^_\`|~ only, no spaces or ":"`;
  if (/[\r\n\0]/.test(value)) return `the value of header ${name} has a line break or a NUL; HTTP header values are one line`;
  const wide = [...value].find((c) => c.codePointAt(0)! > 0xff);
  if (wide !== undefined) return `the value of header ${name} has "${wide}", beyond Latin-1; HTTP cannot carry it (percent-encode or base64 it)`;
  return undefined;
}
