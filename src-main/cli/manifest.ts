import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { filesOfBundle, runtimeDeploymentManifest, type Binding, type DeclaredVariable } from '../platform/index.ts';
import { tagHttpServing } from './manifest-http-ports.ts';
import { readTokenFile } from './token-file.ts';

const USAGE = `usage: flow-studio manifest --platform URL [--token T | --token-file F] --deployment ID
                           [--image IMAGE] [--replicas N] [--namespace NS]
                           [--platform-service URL] [--platform-token-secret NAME]

Prints a Kubernetes Deployment (YAML) that runs a deployment's version tag as flow-studio run
replicas: FLOW_SNAPSHOT_ID of the tag, each binding as a literal env var or a secretKeyRef into
the flow-secrets Secret, nothing for the runtime-managed HTTP_PORT/HTTP_HOST. The deployment
(tag + bindings) is read from the platform at --platform, where PUT /deployments/ID made it.
  --image IMAGE                 the flow-studio image (default flow-studio:<version>)
  --replicas N                  runtime replicas (default 2)
  --namespace NS                metadata.namespace of the Deployment
  --platform-service URL        the platform as pods reach it (default http://flow-platform:7480)
  --platform-token-secret NAME  Secret whose key "token" is the platform's bearer token (default flow-platform)`;

/** `flow-studio manifest`: a runtime Deployment for a version tag. */
export async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        platform: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        deployment: { type: 'string' },
        image: { type: 'string' },
        replicas: { type: 'string', default: '2' },
        namespace: { type: 'string' },
        'platform-service': { type: 'string', default: 'http://flow-platform:7480' },
        'platform-token-secret': { type: 'string', default: 'flow-platform' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (err) {
    console.error(`flow-studio manifest: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (!args.platform || !args.deployment) {
    console.error(`flow-studio manifest: --platform and --deployment are required\n\n${USAGE}`);
    return 2;
  }
  const replicas = Number(args.replicas);
  if (!Number.isInteger(replicas) || replicas < 0) {
    console.error(`flow-studio manifest: --replicas must be a whole number >= 0, got "${args.replicas}"`);
    return 2;
  }
  let platformUrl: URL;
  try {
    platformUrl = new URL(args.platform);
  } catch {
    console.error(`flow-studio manifest: --platform must be the platform's http(s) address, e.g. https://platform.example`);
    return 2;
  }
  if (platformUrl.username || platformUrl.password) {
    // fetch refuses such a URL with an error quoting it, password included.
    console.error(`flow-studio manifest: --platform carries credentials (${platformUrl.protocol}//***@${platformUrl.host}); give the platform's token with --token-file instead`);
    return 2;
  }
  let token = args.token ?? process.env.FLOW_PLATFORM_API_TOKEN;
  if (args.token === undefined && args['token-file'] !== undefined) {
    try {
      token = readTokenFile(args['token-file']);
    } catch (err) {
      console.error(`flow-studio manifest: ${(err as Error).message}`);
      return 1;
    }
  }
  const get = async <T>(path: string): Promise<T> => {
    const url = `${args.platform!.replace(/\/+$/, '')}${path}`;
    let res: Response;
    try {
      res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    } catch (err) {
      // fetch's own message is only "fetch failed"; the reason is its cause.
      const cause = (err as { cause?: unknown }).cause;
      throw new Error(`GET ${url} could not be reached: ${cause instanceof Error ? cause.message : (err as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 512)}`);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`GET ${url} answered ${res.status} with ${res.headers.get('content-type') ?? 'no Content-Type'}, not JSON: is --platform the platform's address? ${text.slice(0, 200)}`);
    }
  };
  const deployment = await get<{ id: string; integration: string; tag: string; snapshotId: string; bindings: Record<string, Binding> }>(
    `/deployments/${encodeURIComponent(args.deployment)}`,
  );
  const snapshot = await get<{ snapshotId: string; integration: string; tag: string; variables: DeclaredVariable[] }>(
    `/snapshots/${encodeURIComponent(deployment.snapshotId)}`,
  );
  // The tag's definitions, as its pods will run them, say what serves the container port.
  const bundleUrl = `${args.platform.replace(/\/+$/, '')}/snapshots/${encodeURIComponent(deployment.snapshotId)}/bundle`;
  const bundle = await fetch(bundleUrl, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!bundle.ok) throw new Error(`GET /snapshots/${deployment.snapshotId}/bundle answered ${bundle.status}: ${(await bundle.text()).slice(0, 512)}`);
  const serving = tagHttpServing((await filesOfBundle(Buffer.from(await bundle.arrayBuffer()))).definitions);
  for (const warning of serving.warnings) console.error(`flow-studio manifest: warning: ${warning}`);
  const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const manifest = runtimeDeploymentManifest({
    deploymentId: deployment.id,
    snapshot: { ...snapshot, id: snapshot.snapshotId },
    bindings: deployment.bindings,
    image: args.image ?? `flow-studio:${version}`,
    replicas,
    namespace: args.namespace,
    platformUrl: args['platform-service'],
    platformTokenSecret: args['platform-token-secret'],
    servesHttpPort: serving.servesHttpPort,
  });
  process.stdout.write(stringify(manifest));
  return 0;
}
