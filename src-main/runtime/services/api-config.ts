import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseDuration } from '../core/duration.ts';

/** Who this runtime is: replicas of one deployment share a consumer group and elect one leader. */
export interface Identity {
  deploymentId: string;
  instanceId: string;
}

/** `FLOW_DEPLOYMENT_ID` and `FLOW_INSTANCE_ID`, defaulting to a local deployment and this process. */
export function identityFromEnv(env: Record<string, string | undefined>): Identity {
  return {
    deploymentId: nonEmpty(env.FLOW_DEPLOYMENT_ID) ?? 'local',
    instanceId: nonEmpty(env.FLOW_INSTANCE_ID) ?? `${hostname()}-${process.pid}`,
  };
}

/** Mutual TLS material, read once at startup. */
export interface ClientTls {
  cert?: Buffer;
  key?: Buffer;
  ca?: Buffer;
}

/** Everything the `api` module reads from the environment (spec 1 §1, §5, §7). */
export interface ApiConfig {
  baseUrl: string;
  /** `FLOW_PLATFORM_API_TOKEN`: a fixed bearer token. */
  token?: string;
  /** `FLOW_PLATFORM_API_TOKEN_FILE`: re-read when the file changes (rotated credentials). */
  tokenFile?: string;
  /** `FLOW_PLATFORM_API_HEADERS`: sent on every call. */
  headers: Record<string, string>;
  tls?: ClientTls;
  /** `FLOW_PLATFORM_API_DISCOVERY_BUDGET`: how long discovery is retried, in ms (default 30 s). */
  discoveryBudgetMs: number;
  /** `FLOW_SNAPSHOT_ID`: a deployed runtime reads the frozen resources of its version tag. */
  snapshotId?: string;
}

export const DEFAULT_DISCOVERY_BUDGET_MS = 30_000;

/** Reads the configuration; throws naming the variable that is wrong and how to fix it. */
export function apiConfigFromEnv(env: Record<string, string | undefined>): ApiConfig {
  const url = nonEmpty(env.FLOW_PLATFORM_API_URL);
  if (!url) throw new Error('RUNTIME_SERVICES_MODULE=api needs FLOW_PLATFORM_API_URL, the platform server address, e.g. http://127.0.0.1:7070');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`FLOW_PLATFORM_API_URL="${url}" is not a URL; write e.g. http://127.0.0.1:7070`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`FLOW_PLATFORM_API_URL must be http:// or https://, got ${parsed.protocol}`);
  }
  // The client sends to the URL's origin, which drops user:password: they would never reach the
  // platform, only the logs that quote the address.
  if (parsed.username || parsed.password) {
    throw new Error(
      `FLOW_PLATFORM_API_URL carries credentials (${parsed.protocol}//${parsed.username ? '***' : ''}${parsed.password ? ':***' : ''}@${parsed.host}), which are never sent; ` +
        'give them as FLOW_PLATFORM_API_TOKEN(_FILE), or FLOW_PLATFORM_API_HEADERS (Authorization=Basic%20…) for a gateway',
    );
  }
  return {
    baseUrl: url.replace(/\/+$/, ''),
    token: nonEmpty(env.FLOW_PLATFORM_API_TOKEN),
    tokenFile: readableTokenFile(nonEmpty(env.FLOW_PLATFORM_API_TOKEN_FILE)),
    headers: parseStaticHeaders(env.FLOW_PLATFORM_API_HEADERS),
    tls: readTls(env),
    discoveryBudgetMs: parseBudget(env.FLOW_PLATFORM_API_DISCOVERY_BUDGET),
    snapshotId: nonEmpty(env.FLOW_SNAPSHOT_ID),
  };
}

/**
 * `FLOW_PLATFORM_API_HEADERS` as a JSON object (`{"X-Api-Key": "…"}`) or as comma-separated
 * `Name=value` pairs with percent-encoded values, the form OpenTelemetry exporters use.
 */
export function parseStaticHeaders(text: string | undefined): Record<string, string> {
  const raw = nonEmpty(text);
  if (!raw) return {};
  if (raw.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new Error('FLOW_PLATFORM_API_HEADERS starts with "{" but is not JSON; write {"Name": "value"} or Name=value,Other=value');
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof v !== 'string') throw new Error(`FLOW_PLATFORM_API_HEADERS: the value of "${k}" must be a string`);
      out[k] = v;
    }
    return out;
  }
  const out: Record<string, string> = {};
  for (const pair of raw.split(',')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`FLOW_PLATFORM_API_HEADERS: "${pair.trim().split('=')[0]}…" is not Name=value; separate pairs with commas`);
    out[pair.slice(0, eq).trim()] = decodeURIComponent(pair.slice(eq + 1).trim());
  }
  return out;
}

function parseBudget(text: string | undefined): number {
  const raw = nonEmpty(text);
  if (!raw) return DEFAULT_DISCOVERY_BUDGET_MS;
  // A bare number reads as seconds, the unit of every other duration in the contract.
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  try {
    return parseDuration(raw);
  } catch {
    throw new Error(`FLOW_PLATFORM_API_DISCOVERY_BUDGET="${raw}" is not a duration; write e.g. 30s or 2m`);
  }
}

/**
 * The token file must hold a token at start ("read at start", docs/deploying.md): a wrong path
 * or an empty file otherwise sent no token at all, and the platform's 401 did not say why.
 * Later, a file missing mid-rotation keeps the last token (http-transport.ts).
 */
function readableTokenFile(path: string | undefined): string | undefined {
  if (!path) return undefined;
  let token: string;
  try {
    token = readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new Error(`FLOW_PLATFORM_API_TOKEN_FILE: cannot read ${path}: ${(err as Error).message}`);
  }
  if (!token) throw new Error(`FLOW_PLATFORM_API_TOKEN_FILE: ${path} is empty; it should hold the platform's bearer token`);
  return path;
}

function readTls(env: Record<string, string | undefined>): ClientTls | undefined {
  const files = {
    cert: nonEmpty(env.FLOW_PLATFORM_API_TLS_CERT_FILE),
    key: nonEmpty(env.FLOW_PLATFORM_API_TLS_KEY_FILE),
    ca: nonEmpty(env.FLOW_PLATFORM_API_TLS_CA_FILE),
  };
  if (!files.cert && !files.key && !files.ca) return undefined;
  if (Boolean(files.cert) !== Boolean(files.key)) {
    throw new Error('mutual TLS needs both FLOW_PLATFORM_API_TLS_CERT_FILE and FLOW_PLATFORM_API_TLS_KEY_FILE');
  }
  const read = (name: string, path: string | undefined): Buffer | undefined => {
    if (!path) return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      throw new Error(`${name}: cannot read ${path}: ${(err as Error).message}`);
    }
  };
  return {
    cert: read('FLOW_PLATFORM_API_TLS_CERT_FILE', files.cert),
    key: read('FLOW_PLATFORM_API_TLS_KEY_FILE', files.key),
    ca: read('FLOW_PLATFORM_API_TLS_CA_FILE', files.ca),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
