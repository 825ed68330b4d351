import { createLogger, SecretRedactor, type LogRecord } from '../../core/logger.ts';
import { Runtime } from '../../core/runtime.ts';
import { TraceAdmission } from '../../core/trace-admission.ts';
import { TraceHub } from '../../core/trace.ts';
import { registry } from '../../registry.ts';
import { createApiServices, type ApiServicesOptions } from '../api-services.ts';
import type { AssembledServices } from '../assemble-services.ts';
import { deferredLogSink } from '../log-forwarding.ts';

/** Where a test platform listens (the runtime reaches it only over HTTP, as in a deployment). */
export interface PlatformAddress {
  url: string;
  token: string | undefined;
}

export interface RuntimeOnPlatform {
  runtime: Runtime;
  services: AssembledServices;
  logs: LogRecord[];
  /** Stops the runtime, then closes its services: the order a real shutdown uses. */
  stop(): Promise<void>;
}

export interface RuntimeOptions extends ApiServicesOptions {
  deploymentId?: string;
  instanceId?: string;
  env?: Record<string, string>;
  /** Start the runtime (default true). */
  start?: boolean;
}

/** The `api` services module for a platform, as a deployed runtime would select it. */
export function apiEnv(platform: PlatformAddress, o: RuntimeOptions = {}): Record<string, string> {
  return {
    RUNTIME_SERVICES_MODULE: 'api',
    FLOW_PLATFORM_API_URL: platform.url,
    ...(platform.token ? { FLOW_PLATFORM_API_TOKEN: platform.token } : {}),
    FLOW_DEPLOYMENT_ID: o.deploymentId ?? 'test-deployment',
    FLOW_INSTANCE_ID: o.instanceId ?? 'instance-1',
    FLOW_PLATFORM_API_DISCOVERY_BUDGET: '2s',
    ...o.env,
  };
}

/** A runtime over the YAML, wired to the platform through the delegation API, logs captured. */
export async function runtimeOn(platform: PlatformAddress, yaml: string, o: RuntimeOptions = {}): Promise<RuntimeOnPlatform> {
  const logs: LogRecord[] = [];
  const redactor = new SecretRedactor();
  const shipping = deferredLogSink();
  const log = createLogger({ level: 'debug', sinks: [(r) => logs.push(r), shipping.sink], redactor });
  const env = apiEnv(platform, o);
  const services = await createApiServices(env, log, o);
  shipping.forwardTo(services.telemetry.logSink);
  let runtime: Runtime;
  try {
    // Every run traced however busy the thread: tests here count runs by their traces, and the
    // bursts they send saturate the thread the runtime shares with them.
    const traces = new TraceHub(new TraceAdmission({ saturatedRate: Infinity }));
    runtime = Runtime.load([{ file: 'flows.yaml', text: yaml }], { registry, env, log, redactor, services, clock: o.clock, traces });
    if (o.start !== false) await runtime.start();
  } catch (err) {
    await services.close();
    throw err;
  }
  return {
    runtime,
    services,
    logs,
    async stop() {
      await runtime.stop(2000);
      await services.close();
    },
  };
}

/** Polls until `check` is true or `timeoutMs` passes; bounded, for tests that wait on the platform. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
