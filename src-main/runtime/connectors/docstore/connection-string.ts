/**
 * The connection string as the docstore connector needs it: split enough to merge a password in,
 * read the options a setting may override, and mask the password in every message. The driver
 * still does the full validation when the client is built.
 */

export interface ConnectionString {
  /** `mongodb://` or `mongodb+srv://`, as written. */
  scheme: string;
  /** The user as written (percent-encoded), or undefined when the URI names none. */
  user: string | undefined;
  /** The password as written (percent-encoded), or undefined. */
  password: string | undefined;
  /** Hosts and everything after them, e.g. `db1:27017,db2/shop?replicaSet=rs0`. */
  rest: string;
  /** The database in the path, decoded; it is also the URI's default auth database. */
  database: string | undefined;
  /** Query options by lower-cased name (URI options are case-insensitive). */
  options: Map<string, string>;
}

const SCHEME = /^(mongodb(?:\+srv)?:\/\/)/i;

/** Splits a connection string; throws a message that never contains the password. */
export function parseConnectionString(uri: string): ConnectionString {
  const scheme = SCHEME.exec(uri)?.[1];
  if (!scheme) {
    throw new Error('the uri must start with mongodb:// or mongodb+srv://, e.g. mongodb://appuser@db.example.com:27017/shop');
  }
  const afterScheme = uri.slice(scheme.length);
  // The user info ends at the last @ before the path: a password may hold characters that the
  // rest of the URI uses as delimiters, and the driver requires the @ in it to be encoded.
  const queryAt = afterScheme.indexOf('?');
  const beforeQuery = queryAt === -1 ? afterScheme : afterScheme.slice(0, queryAt);
  const at = beforeQuery.lastIndexOf('@');
  const userInfo = at === -1 ? undefined : afterScheme.slice(0, at);
  const rest = at === -1 ? afterScheme : afterScheme.slice(at + 1);
  let user: string | undefined;
  let password: string | undefined;
  if (userInfo !== undefined) {
    const colon = userInfo.indexOf(':');
    user = colon === -1 ? userInfo : userInfo.slice(0, colon);
    password = colon === -1 ? undefined : userInfo.slice(colon + 1);
    if (user === '') user = undefined;
  }
  const hostsEnd = rest.search(/[/?]/);
  const hosts = hostsEnd === -1 ? rest : rest.slice(0, hostsEnd);
  if (hosts === '') throw new Error('the uri names no host, e.g. mongodb://appuser@db.example.com:27017/shop');
  const tail = hostsEnd === -1 ? '' : rest.slice(hostsEnd);
  const pathEnd = tail.indexOf('?');
  const path = (pathEnd === -1 ? tail : tail.slice(0, pathEnd)).replace(/^\//, '');
  const query = pathEnd === -1 ? '' : tail.slice(pathEnd + 1);
  const options = new Map<string, string>();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    options.set(decode(key).toLowerCase(), eq === -1 ? '' : decode(part.slice(eq + 1)));
  }
  return { scheme, user, password, rest, database: path === '' ? undefined : decode(path), options };
}

export function formatConnectionString(cs: ConnectionString): string {
  const userInfo = cs.user === undefined ? '' : cs.password === undefined ? `${cs.user}@` : `${cs.user}:${cs.password}@`;
  return `${cs.scheme}${userInfo}${cs.rest}`;
}

/** The URI with the password replaced by `****`, for messages and `describe()`. */
export function maskConnectionString(uri: string): string {
  try {
    const cs = parseConnectionString(uri);
    return formatConnectionString({ ...cs, password: cs.password === undefined ? undefined : '****' });
  } catch {
    // Not parseable as ours: still hide anything shaped like user:password@.
    return uri.replace(/\/\/([^/:@]*):[^]*@/, '//$1:****@');
  }
}

/** A copy without the named query options (case-insensitive). */
export function withoutOptions(cs: ConnectionString, names: readonly string[]): ConnectionString {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  const queryAt = cs.rest.indexOf('?');
  if (queryAt === -1) return cs;
  const kept = cs.rest
    .slice(queryAt + 1)
    .split('&')
    .filter((part) => part !== '' && !drop.has(decode(part.split('=')[0]).toLowerCase()));
  const options = new Map([...cs.options].filter(([k]) => !drop.has(k)));
  return { ...cs, rest: cs.rest.slice(0, queryAt) + (kept.length > 0 ? `?${kept.join('&')}` : ''), options };
}

export function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
