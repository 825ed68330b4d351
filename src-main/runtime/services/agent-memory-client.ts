import * as api from '../../../shared/platform-api/route-addresses.ts';
import type { ApiRoute, RouteAddress, JsonBody } from '../../../shared/platform-api/contract.ts';
import { intHeader, versionHeader, type PlatformResponse, type PlatformTransport } from './api-http.ts';
import type { Capability } from './capability.ts';
import { PlatformError, VersionConflictError } from './platform-error.ts';
import type { AgentCallOptions, AgentFeatures, AgentMemory, WorkingMemory } from './platform-services.ts';
import { callRoute, type RouteCall } from './route-call.ts';

/** Search may touch every conversation of an agent (spec 1 §4.5 rule 5): it gets longer. */
const SEARCH_TIMEOUT_MS = 60_000;

/** A call of an agent-memory route: its typed parts, plus the context and user every call may carry. */
type Call<R extends ApiRoute> = RouteCall<R> & { options?: AgentCallOptions };

/**
 * Agent memory over /v1/agent-memory (spec 1 §4.5). The agent context travels in
 * X-Flow-Agent-Context on every call and is never logged or kept. A 404 on a save, a turns
 * append or a memory put means the platform does not implement agent memory: the capability
 * turns off for the process, as a 501 would.
 */
export class AgentMemoryClient implements AgentMemory {
  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    readonly features: AgentFeatures,
  ) {}

  async loadWorking(agentId: string, threadKey: string, options: AgentCallOptions = {}): Promise<WorkingMemory | undefined> {
    const op = `agent memory load ${agentId}/${threadKey}`;
    if (!this.cap.usable) return this.degradedRead(op);
    const res = await this.call(api.loadWorking, { params: { agentId, threadKey }, options });
    if (res.status === 200) {
      return {
        data: res.body,
        version: intHeader(res, 'x-object-version'),
        iteration: intHeader(res, 'x-agent-iteration'),
        tokens: intHeader(res, 'x-agent-tokens'),
      };
    }
    if (res.status === 404) return undefined;
    if (res.status === 501) return this.degradedRead(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async saveWorking(
    agentId: string,
    threadKey: string,
    data: Uint8Array,
    options: AgentCallOptions & { version: number; iteration?: number; tokens?: number },
  ): Promise<number> {
    const op = `agent memory save ${agentId}/${threadKey}`;
    this.requireUsable(op);
    const headers: Record<string, string> = { ...versionHeader(options.version) };
    if (options.iteration !== undefined) headers['x-agent-iteration'] = String(options.iteration);
    if (options.tokens !== undefined) headers['x-agent-tokens'] = String(options.tokens);
    const res = await this.call(api.saveWorking, { params: { agentId, threadKey }, options, headers, bytes: data });
    if (res.status === 200 || res.status === 201) return intHeader(res, 'x-object-version');
    return this.writeFailed(op, res, options.version);
  }

  async appendTurns(agentId: string, threadKey: string, turns: unknown[], options: AgentCallOptions = {}): Promise<unknown> {
    const op = `agent memory append ${agentId}/${threadKey}`;
    this.requireUsable(op);
    const res = await this.call(api.appendTurns, { params: { agentId, threadKey }, options, json: { turns: turns as JsonBody<typeof api.appendTurns>['turns'] } });
    if (res.status === 200 || res.status === 201) return jsonOrNull(res);
    return this.writeFailed(op, res);
  }

  async listThreads(agentId: string, options: AgentCallOptions & { cursor?: string; limit?: number } = {}): Promise<unknown> {
    const op = `agent memory list threads ${agentId}`;
    this.requireFlag('listThreads', op);
    if (!this.cap.usable) return this.degradedRead(op);
    const res = await this.call(api.listThreads, { params: { agentId }, options, query: { cursor: options.cursor, limit: options.limit } });
    if (res.status === 200) return jsonOrNull(res);
    if (res.status === 501) return this.degradedRead(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async readThread(agentId: string, threadKey: string, options: AgentCallOptions & { cursor?: string; limit?: number } = {}): Promise<unknown> {
    const op = `agent memory read thread ${agentId}/${threadKey}`;
    this.requireFlag('readThread', op);
    if (!this.cap.usable) return this.degradedRead(op);
    const res = await this.call(api.readThread, { params: { agentId, threadKey }, options, query: { cursor: options.cursor, limit: options.limit } });
    if (res.status === 200) return jsonOrNull(res);
    if (res.status === 404) return undefined;
    if (res.status === 501) return this.degradedRead(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async deleteThread(agentId: string, threadKey: string, options: AgentCallOptions = {}): Promise<void> {
    const op = `agent memory delete thread ${agentId}/${threadKey}`;
    if (!this.cap.usable) return this.cap.refuseIfError(op);
    const res = await this.call(api.deleteThread, { params: { agentId, threadKey }, options });
    if (res.status === 204 || res.status === 200 || res.status === 404) return;
    if (res.status === 501) return this.cap.refuseIfError(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async setTitle(agentId: string, threadKey: string, title: string, options: AgentCallOptions = {}): Promise<void> {
    const op = `agent memory title ${agentId}/${threadKey}`;
    this.requireUsable(op);
    const res = await this.call(api.setTitle, { params: { agentId, threadKey }, options, json: { title } });
    if (res.status === 204 || res.status === 200) return;
    this.writeFailed(op, res);
  }

  async listMemories(agentId: string, userId: string, options: AgentCallOptions = {}): Promise<unknown> {
    const op = `agent memory list memories ${agentId}/${userId}`;
    if (!this.cap.usable) return this.degradedRead(op);
    const res = await this.call(api.listMemories, { params: { agentId, userId }, options: { ...options, userId: undefined } });
    if (res.status === 200) return jsonOrNull(res);
    if (res.status === 501) return this.degradedRead(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async putMemory(agentId: string, userId: string, name: string, content: unknown, options: AgentCallOptions & { version: number }): Promise<number> {
    const op = `agent memory remember ${agentId}/${userId}/${name}`;
    this.requireUsable(op);
    const res = await this.call(api.putMemory, {
      params: { agentId, userId },
      options: { ...options, userId: undefined },
      query: { name },
      headers: versionHeader(options.version),
      json: content as JsonBody<typeof api.putMemory>,
    });
    if (res.status === 200 || res.status === 201) return intHeader(res, 'x-object-version');
    return this.writeFailed(op, res, options.version);
  }

  async deleteMemory(agentId: string, userId: string, name: string, options: AgentCallOptions = {}): Promise<void> {
    const op = `agent memory forget ${agentId}/${userId}/${name}`;
    if (!this.cap.usable) return this.cap.refuseIfError(op);
    const res = await this.call(api.deleteMemory, { params: { agentId, userId }, options: { ...options, userId: undefined }, query: { name } });
    if (res.status === 204 || res.status === 200 || res.status === 404) return;
    if (res.status === 501) return this.cap.refuseIfError(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  async search(agentId: string, request: Record<string, unknown>, options: AgentCallOptions = {}): Promise<unknown> {
    const op = `agent memory search ${agentId}`;
    this.requireFlag('search', op);
    if (!this.cap.usable) return this.degradedRead(op);
    const res = await this.call(api.search, {
      params: { agentId },
      options: { ...options, userId: undefined },
      // The flow composes the request; the platform checks it against SearchRequest.
      json: request as JsonBody<typeof api.search>,
      timeoutMs: SEARCH_TIMEOUT_MS,
    });
    if (res.status === 200) return jsonOrNull(res);
    if (res.status === 501) return this.degradedRead(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  private call<R extends ApiRoute>(route: RouteAddress<R>, { options, ...c }: Call<R>): Promise<PlatformResponse> {
    const headers = { ...c.headers };
    if (options?.context) headers['x-flow-agent-context'] = encodeAgentContext(options.context);
    // userId rides on every thread route as a query parameter (spec 1 rule 5).
    const query = { ...c.query, userId: options?.userId } as RouteCall<R>['query'];
    return callRoute(this.http, route, { ...c, query, headers, capability: this.cap });
  }

  /** A failed write: 409 conflict, 404 means agent memory is not implemented (spec 1 §7). */
  private writeFailed(op: string, res: PlatformResponse, version?: number): never {
    if (res.status === 409) throw new VersionConflictError(`${op}: version ${version ?? 0} is not the stored version (409)`);
    if (res.status === 404) {
      this.cap.turnOff(`${res.route} answered 404, which means the platform does not implement agent memory`);
      throw this.cap.unavailable(op);
    }
    if (res.status === 501) throw this.cap.unavailable(op);
    throw new PlatformError(res.route, res.status, res.body, op);
  }

  private requireUsable(op: string): void {
    if (!this.cap.usable) throw this.cap.unavailable(op);
  }

  private requireFlag(flag: 'listThreads' | 'readThread' | 'search', op: string): void {
    if (this.cap.usable && !this.features[flag]) {
      throw new Error(`${op}: the platform does not implement this route (features.agentMemory.${flag} is false)`);
    }
  }

  private degradedRead(op: string): undefined {
    this.cap.refuseIfError(op);
    return undefined;
  }
}

/** base64url without padding of a compact JSON object of strings (spec 1 §5.4). */
export function encodeAgentContext(context: Record<string, string>): string {
  return Buffer.from(JSON.stringify(context)).toString('base64url');
}

function jsonOrNull(res: PlatformResponse): unknown {
  return res.body.length === 0 ? null : res.json();
}
