import { createHash } from 'node:crypto';
import type { Binding } from '../store/deployment-store.ts';
import type { DeclaredVariable } from '../store/snapshot-store.ts';

/** The Kubernetes Secret holding every cluster secret, one key per secret name (spec 2 §2.11). */
export const CLUSTER_SECRET_OBJECT = 'flow-secrets';
/** Variables the runtime's container manages itself: a deployment never binds them. */
export const MANAGED_VARIABLES = ['HTTP_PORT', 'HTTP_HOST'] as const;

export interface RuntimeManifestInput {
  deploymentId: string;
  snapshot: { id: string; integration: string; tag: string; variables: DeclaredVariable[] };
  bindings: Record<string, Binding>;
  /** The flow-studio image, e.g. `ghcr.io/acme/flow-studio:0.1.0`. */
  image: string;
  replicas: number;
  namespace?: string;
  /** The platform as runtimes reach it in the cluster: the Service of docs/kubernetes/platform.yaml. */
  platformUrl: string;
  /** The Secret with the platform's bearer token under the key `token`. */
  platformTokenSecret: string;
  /**
   * Some http connector of the tag listens on HTTP_PORT: the pod is ready once it accepts
   * connections there (the runtime binds only after everything started), so a Service sends it
   * nothing before. Without one (a queue worker), there is nothing to probe.
   */
  servesHttpPort?: boolean;
}

/** Where the platform token Secret is mounted in runtime pods, as in docs/kubernetes/platform.yaml. */
const TOKEN_MOUNT = '/var/run/flow-platform';

type EnvVar = { name: string; value: string } | { name: string; valueFrom: Record<string, unknown> };

/**
 * A Kubernetes Deployment running one version tag as `flow-studio run` replicas: the
 * definitions come from the tag's bundle (an init container fetches it from the platform), the
 * tag's frozen resources through FLOW_SNAPSHOT_ID, each binding as a literal env var or a
 * `secretKeyRef` into `flow-secrets`. Refuses what could never start, as a deploy does: a binding
 * for an undeclared or a managed variable, a literal for a secret variable, a required variable
 * with neither a binding nor a frozen env resource setting it.
 */
export function runtimeDeploymentManifest(input: RuntimeManifestInput): Record<string, unknown> {
  const { snapshot, bindings, deploymentId } = input;
  const declared = new Map(snapshot.variables.map((v) => [v.name, v]));
  const problems: string[] = [];
  const env: EnvVar[] = [];
  for (const [name, binding] of Object.entries(bindings).sort(([a], [b]) => a.localeCompare(b))) {
    if ((MANAGED_VARIABLES as readonly string[]).includes(name)) {
      problems.push(`${name} is managed by the runtime's container (the pod's port and address); remove its binding`);
      continue;
    }
    const variable = declared.get(name);
    if (!variable) {
      problems.push(`${name} is bound but tag "${snapshot.tag}" declares no such variable`);
      continue;
    }
    if ('secret' in binding) {
      env.push({ name, valueFrom: { secretKeyRef: { name: CLUSTER_SECRET_OBJECT, key: binding.secret } } });
    } else if (variable.secret && binding.value !== '') {
      problems.push(`${name} is declared secret: true, so it is bound to a cluster secret by name, never to a literal value`);
    } else if (binding.value !== '') {
      env.push({ name, value: binding.value });
    }
  }
  const unbound = snapshot.variables.filter((v) => v.required && v.satisfiedBy.length === 0 && !env.some((e) => e.name === v.name));
  for (const v of unbound) problems.push(`${v.name} is required (${v.declaredIn}) and has no binding and no frozen env resource`);
  if (problems.length > 0) throw new Error(`deployment "${deploymentId}" of ${snapshot.integration}:${snapshot.tag} cannot run:\n  ${problems.join('\n  ')}`);

  // Ids allow what Kubernetes names and labels do not (upper case, "_", up to 128 characters):
  // such an id is made valid with a hash of it, so two ids never share a name or a selector.
  const labels = { 'app.kubernetes.io/name': 'flow-runtime', 'app.kubernetes.io/instance': k8sLabelOf(deploymentId), 'flow-studio/integration': k8sLabelOf(snapshot.integration) };
  // The token as a file from a Secret volume, not an env var: Kubernetes updates a mounted Secret
  // in place, and the runtime re-reads FLOW_PLATFORM_API_TOKEN_FILE, so a rotated platform token
  // reaches running pods; an env var keeps the old token until each pod is restarted.
  const platformEnv: EnvVar[] = [
    { name: 'RUNTIME_SERVICES_MODULE', value: 'api' },
    { name: 'FLOW_PLATFORM_API_URL', value: input.platformUrl },
    { name: 'FLOW_PLATFORM_API_TOKEN_FILE', value: `${TOKEN_MOUNT}/token` },
  ];
  const tokenMount = { name: 'platform-token', mountPath: TOKEN_MOUNT, readOnly: true };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: k8sNameOf(`flow-${deploymentId}`), ...(input.namespace ? { namespace: input.namespace } : {}), labels: { ...labels, 'flow-studio/tag': k8sLabel(snapshot.tag) } },
    spec: {
      replicas: input.replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000 },
          volumes: [
            { name: 'flows', emptyDir: {} },
            { name: 'platform-token', secret: { secretName: input.platformTokenSecret, items: [{ key: 'token', path: 'token' }] } },
          ],
          initContainers: [
            {
              name: 'fetch-tag',
              image: input.image,
              // The tag's definitions, exactly as frozen: the same bundle the studio downloads.
              command: ['node', 'bin/fetch-snapshot.js', '/flows'],
              env: [...platformEnv, { name: 'FLOW_SNAPSHOT_ID', value: snapshot.id }],
              volumeMounts: [{ name: 'flows', mountPath: '/flows' }, tokenMount],
            },
          ],
          containers: [
            {
              name: 'runtime',
              image: input.image,
              args: ['run', '/flows'],
              env: [
                ...platformEnv,
                { name: 'FLOW_SNAPSHOT_ID', value: snapshot.id },
                { name: 'FLOW_DEPLOYMENT_ID', value: deploymentId },
                { name: 'FLOW_INSTANCE_ID', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                ...env,
              ],
              ports: [{ name: 'http', containerPort: 8080 }],
              ...(input.servesHttpPort ? { readinessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 2, failureThreshold: 2 } } : {}),
              volumeMounts: [{ name: 'flows', mountPath: '/flows', readOnly: true }, tokenMount],
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '512Mi' } },
            },
          ],
        },
      },
    },
  };
}

/**
 * A Deployment name (a DNS-1123 label, which also keeps its pods' names and host names valid):
 * at most 63 of [a-z0-9-], starting and ending alphanumeric. Any other text gets a hash suffix.
 */
function k8sNameOf(text: string): string {
  if (/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(text)) return text;
  const base = text.toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 54).replace(/-+$/, '');
  return `${base}-${shortHash(text)}`;
}

/** A label value that stands for one id only: the id itself when valid, else a hashed form. */
function k8sLabelOf(text: string): string {
  if (/^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/.test(text)) return text;
  return `${text.slice(0, 54).replace(/[^A-Za-z0-9]+$/, '')}-${shortHash(text)}`;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** A label value: at most 63 of [A-Za-z0-9._-], starting and ending alphanumeric. */
function k8sLabel(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '') || 'none';
}
