import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DataDirInUseError,
  diskFullError,
  inClusterKubernetes,
  isPostgresUrl,
  loadFeaturesFile,
  lockDataDir,
  redactStoreUrl,
  mintToken,
  startPlatformServer,
  type DataDirLock,
} from '../platform/index.ts';
import { counted } from '../../shared/counted.ts';
import { onStopSignals } from './stop-signals.ts';
import { readTokenFile } from './token-file.ts';

const USAGE = `usage: flow-studio platform [--port P] [--host H] [--data-dir D] [--store postgres://…]
                           [--token T | --token-file F | --no-token] [--features FILE] [--seed-resources DIR]

Serves the Platform Delegation API v1 until SIGINT/SIGTERM.
  --port P            port to listen on (default 7480; 0 picks a free one)
  --host H            interface to bind (default 127.0.0.1)
  --data-dir D        database and secret key file (default $XDG_DATA_HOME/flow-studio/platform)
  --store URL         keep the delegation API's state and management (integrations, tags,
                      secrets, deployments) in PostgreSQL (postgres://user:pass@host/db), shared
                      by every replica started with the same URL; default: SQLite in the data
                      dir. Also FLOW_PLATFORM_STORE. Replicas share the secret-value key
                      through FLOW_PLATFORM_SECRET_KEY (32 bytes, base64)
  FLOW_CLUSTER_SECRETS=kubernetes keeps cluster secret values in the Kubernetes Secret
                      flow-secrets of the pod's namespace (needs a service account allowed to
                      get, create and patch it); default: a sealed file in the data dir, or
                      sealed in the database with --store
  --token T           bearer token clients must send
  --token-file F      read the bearer token from F
  --no-token          no authentication (only on a private network)
                      without any of the three, a fresh token is minted into <data-dir>/platform.token
  --features FILE     JSON or YAML switching capabilities off or changing their numbers
  --seed-resources D  load D/env/** and D/template/** as resources

With SQLite, one process uses a data dir at a time: a second platform (or a flow-studio run, or a
studio) on a data dir in use stops at once, naming the process that holds it.`;

/** What a second platform refused a data folder in use can do instead. */
const PLATFORM_BESIDE =
  'to run a second platform, give it a data folder of its own (--data-dir <another folder>); replicas that share state ' +
  'share a PostgreSQL store (--store postgres://…) instead of a folder';

/** What a second replica of a PostgreSQL platform, refused a folder where the first minted its token, can do instead. */
const REPLICA_BESIDE =
  'to run another replica of this PostgreSQL platform, give it a data folder of its own (--data-dir <another folder>) ' +
  'or give every replica its token (--token-file F), so that none mints one into the folder';

/** `flow-studio platform`: the platform server on its own. Returns -1 to keep running once listening. */
export async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        port: { type: 'string', default: '7480' },
        host: { type: 'string', default: '127.0.0.1' },
        'data-dir': { type: 'string' },
        store: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        'no-token': { type: 'boolean', default: false },
        features: { type: 'string' },
        'seed-resources': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (err) {
    console.error(`flow-studio platform: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const port = Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`flow-studio platform: --port must be a port number (0-65535), got "${args.port}"`);
    return 2;
  }
  if ([args.token !== undefined, args['token-file'] !== undefined, args['no-token']].filter(Boolean).length > 1) {
    console.error('flow-studio platform: use one of --token, --token-file and --no-token');
    return 2;
  }
  // Read before anything is written, so a bad file leaves no trace in the data directory.
  const features = args.features === undefined ? undefined : loadFeaturesFile(args.features);
  const dataDir = resolve(args['data-dir'] ?? defaultDataDir());
  const store = args.store ?? (process.env.FLOW_PLATFORM_STORE || undefined);
  if (store !== undefined && !isPostgresUrl(store)) {
    console.error(`flow-studio platform: --store (or FLOW_PLATFORM_STORE) must be a postgres://… URL; leave it out for SQLite in the data dir`);
    return 2;
  }
  const clusterSecrets = process.env.FLOW_CLUSTER_SECRETS || 'local';
  if (clusterSecrets !== 'local' && clusterSecrets !== 'kubernetes') {
    console.error(`flow-studio platform: FLOW_CLUSTER_SECRETS is "local" or "kubernetes", got "${clusterSecrets}"`);
    return 2;
  }
  const kubernetesSecrets = clusterSecrets === 'kubernetes' ? inClusterKubernetes() : undefined;
  let secretKey: Buffer | undefined;
  if (process.env.FLOW_PLATFORM_SECRET_KEY) {
    secretKey = Buffer.from(process.env.FLOW_PLATFORM_SECRET_KEY, 'base64');
    if (secretKey.length !== 32) {
      console.error(`flow-studio platform: FLOW_PLATFORM_SECRET_KEY must be 32 bytes in base64 (e.g. openssl rand -base64 32), got ${secretKey.length} bytes`);
      return 2;
    }
  }
  // SQLite's store must be the folder's only writer (a read cache, topic ids from one counter), and
  // a second platform would mint its token over the first's file: refused before anything is written.
  // PostgreSQL replicas share their store, and may share a folder when none mints its token into it
  // (the key file there is created once, for all of them); a minted platform.token is one launch's.
  const mintsToken = !args['no-token'] && args.token === undefined && args['token-file'] === undefined;
  let lock: DataDirLock | undefined;
  if (store === undefined || mintsToken) {
    try {
      lock = await lockDataDir(dataDir, 'platform', { instead: store === undefined ? PLATFORM_BESIDE : REPLICA_BESIDE });
    } catch (err) {
      if (!(err instanceof DataDirInUseError)) throw err;
      console.error(`flow-studio platform: ${err.message}`);
      return 1;
    }
  }
  let token: string | false;
  let tokenFile: string | undefined;
  if (args['no-token']) token = false;
  else if (args.token !== undefined) token = args.token;
  else if (args['token-file'] !== undefined) {
    tokenFile = resolve(args['token-file']);
    token = readTokenFile(tokenFile);
  } else {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    tokenFile = join(dataDir, 'platform.token');
    token = mintToken();
    try {
      writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    } catch (err) {
      lock?.release();
      throw diskFullError(dataDir, err);
    }
  }

  let server;
  try {
    server = await startPlatformServer({ host: args.host, port, dataDir, store, secretKey, kubernetesSecrets, token, features, seedResourcesDir: args['seed-resources'], dataDirLock: lock });
  } catch (err) {
    lock?.release();
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    console.error(`flow-studio platform: port ${port} on ${args.host} is in use; pick another with --port (0 picks a free one)`);
    return 1;
  }
  lock?.announce(server.url, token === false ? false : tokenFile);
  console.log(`flow-studio platform listening on ${server.url}`);
  console.log(`  data dir: ${dataDir}`);
  console.log(`  store:    ${store ? `PostgreSQL ${redactStoreUrl(store)}` : 'SQLite in the data dir'}`);
  if (tokenFile) console.log(`  token:    FLOW_PLATFORM_API_TOKEN_FILE=${tokenFile}`);
  else if (token === false) console.log('  token:    none (authentication is off)');
  else console.log('  token:    as given with --token');
  const off = Object.entries(server.features).filter(([, f]) => !f.supported).map(([name]) => name);
  if (off.length > 0) console.log(`  switched off: ${off.join(', ')}`);

  const stop = (signal: string): void => {
    console.log(`flow-studio platform: ${signal}, stopping (a second ${signal} stops at once)`);
    // The lock is held until the store is closed; this closure also keeps it reachable, as a
    // collected lock connection would close and free the folder while the platform still runs.
    server.close().then(
      () => {
        lock?.release();
        process.exit(0);
      },
      (err: unknown) => {
        console.error(`flow-studio platform: stopping failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  // Forced, the answers in progress are cut; every write answered before is committed (WAL) and kept.
  onStopSignals('platform', stop, () => `${counted(server.openConnections, 'open connection')} to be answered and the store to close`);
  return -1;
}

function defaultDataDir(): string {
  const dataHome = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'flow-studio', 'platform');
}
