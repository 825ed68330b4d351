/**
 * The one contract between the studio UI and its backend. The Electron preload, the IPC handlers
 * in main and the web-mode transport (HTTP for calls, one WebSocket for events) are all derived
 * from `studioMethods` and `studioEvents` below, so adding a method is one edit here plus its
 * implementation, and the compiler points at anything missing. Payloads are plain data.
 */
import type { ArgSpecs } from './studio-arguments.ts';
import type { StudioErrorKind } from './studio-errors.ts';
import type { FeedBatch } from './feed-events.ts';
import type {
  CaptureDetail,
  CapturePage,
  CaptureQuery,
  CaptureSummary,
  ComposerRequest,
  HandshakeTokenReveal,
  HistoryEntry,
  HmacSignInput,
  JwtMintInput,
  JwtMintResult,
  RequestBody,
  RequestEnvironments,
  RequestProgress,
  RequestTarget,
  SavedRequest,
  SendRequestInput,
  SignatureResult,
} from './request-types.ts';
import type { RunComparison, RunDetail, RunPage, RunQuery, TraceValueRef } from './trace-types.ts';
import type { FlowTestsApi } from './flow-test-types.ts';
import type { DebuggerApi } from './debugger-types.ts';
import type { HistoryKind, HistoryOverview, HistorySettingsPatch } from './history-types.ts';
import type { LogQuery } from './log-types.ts';
import type { LogFeedEvent } from './feed-events.ts';
import type { MetricsQuery, MetricsSeries, Sparklines } from './metrics-types.ts';
import type { CelEvaluation, CelSample, DefinitionEdit, DesignReference } from './flow-design.ts';
import type {
  AgentSearchHit,
  AgentView,
  ConversationDetail,
  HistoryQuery,
  HistoryWindow,
  KvDeleteResult,
  KvEntryDetail,
  KvView,
  KvViewQuery,
  KvWriteInput,
  KvWriteResult,
  LeaseView,
  PublishQueueInput,
  PublishResult,
  PublishTopicInput,
  QueueMessageDetail,
  QueueView,
  QueueViewQuery,
  TopicView,
  TopicViewQuery,
  WaitingMessage,
} from './platform-views.ts';
import type {
  Binding,
  BundleFile,
  BundleImportPreview,
  DeleteSecretResult,
  DeployInput,
  DeploymentSummary,
  EnvironmentTarget,
  EnvironmentView,
  ResourceEntry,
  ResourceKind,
  ResourceNameCheck,
  SecretStoreStatus,
  SecretSummary,
  TagDiff,
  TagSummary,
  TemplatePreview,
} from './resource-types.ts';

export type { FeedBatch, FeedEvent } from './feed-events.ts';
export type { CelEvaluation, CelSample, DefinitionEdit, DesignReference } from './flow-design.ts';

/** What the studio works on: the workspace folder and the embedded platform. */
export interface WorkspaceInfo {
  /** Absolute path of the workspace folder, e.g. `/home/ana/FlowStudio`. */
  root: string;
  dataDir: string;
  /** Base URL of the embedded platform server (no token). */
  platformUrl: string;
  /** `electron` or `web`, for wording only; nothing may depend on it. */
  shell: 'electron' | 'web';
  /** Changes on every start of the studio: a window from an earlier start knows it by this. */
  launchId: string;
  /**
   * Flow definition files directly in `root` when the studio started (`orders.yaml`): the folder
   * is one integration rather than a folder of them, and the studio lists none of its flows.
   */
  definitionsAtRoot: string[];
}

/** One integration: a folder of the workspace holding flow definitions and resources. */
export interface IntegrationSummary {
  /** The folder name; the id every other call takes. */
  id: string;
  /** From the manifest (`integration.json`), else the id. */
  name: string;
  description?: string;
  /**
   * What it needs from outside this machine to run (a server, an account) and how to point it at
   * one; from the manifest's `needs`. The studio says so before Run and opens on one without.
   */
  needs?: string;
  /** Root-level `*.yaml`/`*.yml` files, relative to the integration folder. */
  definitionFiles: string[];
  /** Root-level flow tests (`*.test.yaml`/`*.test.yml`), beside the definitions; they never run with the integration. */
  testFiles: string[];
  /** Every other file (env files, templates), relative paths with `/`. */
  resourceFiles: string[];
}

/** A problem found while loading, where a person can find it. */
export interface RunProblem {
  /** Path relative to the integration folder. */
  file: string;
  line: number;
  col: number;
  /** Setting path, e.g. `flows.orders.steps[2].method`; empty for syntax problems. */
  path: string;
  message: string;
}

/** A route served by a running flow, with the URL to call it at. */
export interface RouteInfo {
  flow: string;
  path: string;
  /** Empty means every method. */
  methods: string[];
  url: string;
}

export type RunStatus = 'stopped' | 'starting' | 'running' | 'failed';

/** The run state of one integration; an event the UI follows. */
export interface RunState {
  integration: string;
  status: RunStatus;
  /** Routes with URLs while running. */
  routes: RouteInfo[];
  /** Why it failed, or why a reload was refused while the previous version keeps running. */
  reason?: string;
  problems: RunProblem[];
  /** Bumps on every start and hot reload. */
  generation: number;
  /**
   * The version being served while running: its generation, when it was loaded (epoch ms) and a
   * short digest of its definition files, so a user sees that a save took effect. A reload that
   * fails leaves these at the version still serving.
   */
  serving?: { generation: number; loadedAt: number; digest: string };
  /**
   * A port it could not bind, who holds it when that is another integration of this studio, and
   * a free port to move to (`usePort`).
   */
  portClash?: PortClash;
  /** Epoch ms of the last change. */
  since: number;
}

export interface PortClash {
  connector: string;
  port: number;
  /** The integration and connector of this studio bound to it; absent when another program is. */
  heldBy?: { integration: string; connector: string };
  /** The connector asked for `port: 0` and was given this one before; it keeps it until told otherwise. */
  remembered: boolean;
  /** A port free a moment ago. */
  suggestion: number;
}

/** The methods of the StudioApi. Every one returns a promise of plain data. */
export interface StudioApi extends RequestsApi, TracesApi, PlatformViewsApi, ResourcesApi, FlowTestsApi, DebuggerApi, HistoryApi {
  workspaceInfo(): Promise<WorkspaceInfo>;
  listIntegrations(): Promise<IntegrationSummary[]>;
  /** Text of a file of an integration; `file` is relative to its folder. */
  readFile(integration: string, file: string): Promise<string>;
  /** Saves a file; a running integration hot-reloads. */
  writeFile(integration: string, file: string, text: string): Promise<void>;
  runStates(): Promise<RunState[]>;
  startIntegration(integration: string): Promise<RunState>;
  stopIntegration(integration: string): Promise<RunState>;
  restartIntegration(integration: string): Promise<RunState>;
  /**
   * Moves an http connector to another port and starts it again: a `port: 0` connector is given
   * that port from now on; one with a port setting has it changed in its definition file.
   */
  usePort(integration: string, connector: string, port: number): Promise<RunState>;
  /**
   * Loads the integration's definitions as `validate` would, with unsaved buffers in place of
   * their files, and returns every problem (file:line:col); empty when it would load.
   */
  validateDefinition(integration: string, edits: DefinitionEdit[]): Promise<RunProblem[]>;
  /** Every component with its settings, the definition's JSON Schema and the CEL functions. */
  designReference(): Promise<DesignReference>;
  /** Evaluates a CEL expression against a sample message; secret() and resources are not read. */
  evaluateCel(expression: string, sample: CelSample): Promise<CelEvaluation>;
  /** Creates an integration folder with a starter definition `flows.yaml`. */
  createIntegration(id: string): Promise<IntegrationSummary>;
  /** Creates a root-level definition file (`*.yaml`) with a starter flow; refuses to overwrite. */
  createDefinitionFile(integration: string, file: string): Promise<IntegrationSummary>;
  renameDefinitionFile(integration: string, from: string, to: string): Promise<IntegrationSummary>;
  deleteDefinitionFile(integration: string, file: string): Promise<IntegrationSummary>;
}

/** Requests panel: fire requests at routes, watch SSE, capture and replay webhooks. */
export interface RequestsApi {
  /** Sends from the main process (no CORS); resolves when the response (or stream) has ended. */
  sendRequest(input: SendRequestInput): Promise<HistoryEntry>;
  /**
   * Closes the connection of a request in flight (an event stream). `interrupted`: nobody asked
   * for the stop, the page that sent it went away (a reload); the record says so, not "stopped by you".
   */
  stopRequest(id: string, why?: 'stopped' | 'interrupted'): Promise<void>;
  requestHistory(): Promise<HistoryEntry[]>;
  clearRequestHistory(): Promise<void>;
  /** Requests saved as plain files under the workspace's `requests/` folder. */
  savedRequests(): Promise<SavedRequest[]>;
  saveRequest(request: ComposerRequest, file?: string): Promise<SavedRequest>;
  deleteSavedRequest(file: string): Promise<void>;
  requestEnvironments(): Promise<RequestEnvironments>;
  saveRequestEnvironments(environments: RequestEnvironments): Promise<RequestEnvironments>;
  /** The notes signature header for a body, made with the route's connector token (never sent). */
  signRequestBody(target: RequestTarget, body: RequestBody): Promise<SignatureResult>;
  /** An HMAC-SHA256 signature header for any body, with a typed or cluster secret (never answered back). */
  signBodyHmac(input: HmacSignInput): Promise<SignatureResult>;
  /** An HS256 JWT from a header and claims, with a typed or cluster secret. */
  mintJwt(input: JwtMintInput): Promise<JwtMintResult>;
  /**
   * The verification token of a captured notes subscription handshake, for an explicit Reveal:
   * everything else (captures, runs, logs) shows it masked.
   */
  revealHandshakeToken(captureId: number): Promise<HandshakeTokenReveal>;
  listCaptures(query: CaptureQuery): Promise<CapturePage>;
  captureDetail(id: number): Promise<CaptureDetail | null>;
  /** A capture as a composer request, to edit before sending it again. */
  captureAsRequest(id: number): Promise<ComposerRequest>;
  /** Sends a capture again as it came, to the integration's current server. */
  replayCapture(id: number, requestId: string): Promise<HistoryEntry>;
  clearCaptures(): Promise<void>;
}

/** Traces panel: stored runs, a run's waterfall, full values, comparison. */
export interface TracesApi {
  queryRuns(query: RunQuery): Promise<RunPage>;
  runDetail(runId: string): Promise<RunDetail | null>;
  /** The whole value behind a truncated one in a run's messages. */
  traceValue(ref: TraceValueRef): Promise<unknown>;
  compareRuns(a: string, b: string): Promise<RunComparison>;
  clearRuns(): Promise<void>;
  /** Requests per second, p50/p95/p99 latency and error rate over a window, per flow and route. */
  runMetrics(query: MetricsQuery): Promise<MetricsSeries>;
  /** Each integration's runs per second over the last five minutes, for the integration list. */
  runSparklines(): Promise<Sparklines>;
}

/** The studio's own history in its data folder: how much is kept, clearing it, stored log lines. */
export interface HistoryApi {
  /** Retention and restore settings with their defaults, and what each kind holds now. */
  historyOverview(): Promise<HistoryOverview>;
  /** Changes retention or restore; a value out of bounds is refused, naming it. */
  setHistorySettings(patch: HistorySettingsPatch): Promise<HistoryOverview>;
  /** Deletes one kind of history, in memory and on disk. */
  clearHistory(kind: HistoryKind): Promise<HistoryOverview>;
  /** Stored log lines, oldest first: the newest, those of one run, or older ones to page back. */
  queryLogs(query: LogQuery): Promise<LogFeedEvent[]>;
}

/**
 * Queues & Topics and Storage panels: the embedded platform's queues, topics, KV, leases and
 * agent memory, live or scrubbed back through the last minutes, linked to the runs involved.
 */
export interface PlatformViewsApi {
  /** Counters of every subject and consumer group, and the timeline of the chosen one. */
  queueView(query: QueueViewQuery): Promise<QueueView>;
  queueMessage(subject: string, messageId: string): Promise<QueueMessageDetail | null>;
  /** Messages stored for a group, in the order it will receive them. */
  peekQueue(subject: string, group: string, limit?: number): Promise<WaitingMessage[]>;
  publishQueueMessage(input: PublishQueueInput): Promise<PublishResult>;
  /** Deletes the stored messages of a subject (or of one group); the panel confirms first. */
  purgeQueue(subject: string, group?: string): Promise<{ purged: number }>;
  topicView(query: TopicViewQuery): Promise<TopicView>;
  publishTopicMessage(input: PublishTopicInput): Promise<PublishResult>;
  /** False when it was already gone. */
  deleteTopicSubscription(subscriptionId: string): Promise<boolean>;
  kvView(query: KvViewQuery): Promise<KvView>;
  /** Secret namespaces answer without the value. */
  kvEntry(namespace: string, key: string): Promise<KvEntryDetail | null>;
  /** Writes only if the entry is still at `expectedVersion`; a conflict is answered, never overwritten. */
  writeKvEntry(input: KvWriteInput): Promise<KvWriteResult>;
  deleteKvEntry(namespace: string, key: string, expectedVersion: number): Promise<KvDeleteResult>;
  /**
   * Sets a platform secret, the value flows read with secret("name") (the KV namespace
   * user_secrets); write-only: the answer is its new version, never the value.
   */
  setPlatformSecret(name: string, value: string): Promise<{ version: number }>;
  leaseView(query: HistoryQuery): Promise<LeaseView>;
  /** Agents, and the conversations and memories of the chosen one. */
  agentView(agentId?: string): Promise<AgentView>;
  agentConversation(agentId: string, threadKey: string): Promise<ConversationDetail | null>;
  searchAgentMemory(agentId: string, query: string, userId?: string): Promise<AgentSearchHit[]>;
  /** Erases a conversation on the platform; false when there was none. */
  deleteAgentConversation(agentId: string, threadKey: string): Promise<boolean>;
  platformHistory(): Promise<HistoryWindow>;
  /** How many minutes of platform events the views keep (1 to 120). */
  setPlatformHistory(minutes: number): Promise<HistoryWindow>;
}

/**
 * Resources and Secrets panels: env and template resources, cluster secrets (a value goes in and
 * no method gives it back), the environment with the source of every value, version tags, local
 * deployments and bundles.
 */
export interface ResourcesApi {
  listResources(integration: string): Promise<ResourceEntry[]>;
  readResource(integration: string, kind: ResourceKind, name: string): Promise<string>;
  /** The platform's name rules plus uniqueness; `except` is the name being renamed. */
  checkResourceName(integration: string, kind: ResourceKind, name: string, except?: string): Promise<ResourceNameCheck>;
  createResource(integration: string, kind: ResourceKind, name: string, content: string): Promise<ResourceEntry>;
  saveResource(integration: string, kind: ResourceKind, name: string, content: string): Promise<ResourceEntry>;
  renameResource(integration: string, kind: ResourceKind, from: string, to: string): Promise<ResourceEntry>;
  deleteResource(integration: string, kind: ResourceKind, name: string): Promise<void>;
  /** Renders template text against a sample message, as a template block would. */
  previewTemplate(text: string, sample: CelSample): Promise<TemplatePreview>;
  listSecrets(): Promise<SecretSummary[]>;
  /** Creates or overwrites; the answer never holds the value. */
  putSecret(name: string, value: string): Promise<SecretSummary>;
  /** Refused while a deployment binds it, naming them, unless forced. */
  deleteSecret(name: string, force: boolean): Promise<DeleteSecretResult>;
  secretStoreStatus(): Promise<SecretStoreStatus>;
  /** The user accepts the weak fallback (Electron's basic_text backend); remembered. */
  allowWeakSecretBackend(): Promise<SecretStoreStatus>;
  environmentView(target: EnvironmentTarget): Promise<EnvironmentView>;
  /** Bindings the studio's own runs of the working copy start with. */
  runBindings(integration: string): Promise<Record<string, Binding>>;
  /** Binds (or with null unbinds) a variable for studio runs; a running integration restarts. */
  setRunBinding(integration: string, variable: string, binding: Binding | null): Promise<Record<string, Binding>>;
  listTags(integration: string): Promise<TagSummary[]>;
  /** Freezes the working copy (definitions and resources) under a new tag. */
  createTag(integration: string, tag: string, description?: string): Promise<TagSummary>;
  diffTag(integration: string, tag: string): Promise<TagDiff>;
  listDeployments(): Promise<DeploymentSummary[]>;
  /** Validates the bindings against the tag (refusing a required variable left unbound), records and starts it. */
  deployTag(input: DeployInput): Promise<DeploymentSummary>;
  startDeployment(id: string): Promise<DeploymentSummary>;
  stopDeployment(id: string): Promise<DeploymentSummary>;
  removeDeployment(id: string): Promise<void>;
  exportBundle(integration: string): Promise<BundleFile>;
  /** What importing the bundle into the integration would create, overwrite and remove. */
  previewBundleImport(integration: string, base64: string): Promise<BundleImportPreview>;
  /** Replaces the integration's working copy (creating it when new) with the bundle. */
  importBundle(integration: string, base64: string): Promise<BundleImportPreview>;
}

/** The events the backend pushes; `on(name, listener)` subscribes to one. */
export interface StudioEvents {
  runState: RunState;
  /** The integrations after a change on disk (including edits from an outside editor). */
  workspace: { integrations: IntegrationSummary[]; changed: Array<{ integration: string; file: string }> };
  /** Live traces, logs and platform traffic, batched at most every 50 ms. */
  feed: FeedBatch;
  /** Status and SSE frames of a composer request in flight. */
  requestProgress: RequestProgress;
  /** Requests newly captured at routes, batched. */
  captures: CaptureSummary[];
}

export type StudioMethod = keyof StudioApi;
export type StudioEventName = keyof StudioEvents;

/*
 * The lists are written as records so the compiler checks both directions: a method missing here
 * or a name here that is not a method is a type error. Each method lists what its arguments must
 * be (studio-arguments.ts), checked before it runs; the compiler holds the list to its parameters.
 */
const methodRecord = {
  workspaceInfo: [],
  listIntegrations: [],
  readFile: ['integration:name', 'file:name'],
  writeFile: ['integration:name', 'file:name', 'text:text'],
  runStates: [],
  startIntegration: ['integration:name'],
  stopIntegration: ['integration:name'],
  restartIntegration: ['integration:name'],
  usePort: ['integration:name', 'connector:name', 'port:int'],
  validateDefinition: ['integration:name', 'edits:list'],
  designReference: [],
  evaluateCel: ['expression:text', 'sample:object'],
  createIntegration: ['id:name'],
  createDefinitionFile: ['integration:name', 'file:name'],
  renameDefinitionFile: ['integration:name', 'from:name', 'to:name'],
  deleteDefinitionFile: ['integration:name', 'file:name'],
  sendRequest: ['input:object'],
  stopRequest: ['id:name', 'why:name?'],
  requestHistory: [],
  clearRequestHistory: [],
  savedRequests: [],
  saveRequest: ['request:object', 'file:name?'],
  deleteSavedRequest: ['file:name'],
  requestEnvironments: [],
  saveRequestEnvironments: ['environments:object'],
  signRequestBody: ['target:object', 'body:object'],
  signBodyHmac: ['input:object'],
  mintJwt: ['input:object'],
  revealHandshakeToken: ['captureId:int'],
  listCaptures: ['query:object'],
  captureDetail: ['id:int'],
  captureAsRequest: ['id:int'],
  replayCapture: ['id:int', 'requestId:name'],
  clearCaptures: [],
  queryRuns: ['query:object'],
  runDetail: ['runId:name'],
  traceValue: ['ref:object'],
  compareRuns: ['a:name', 'b:name'],
  clearRuns: [],
  runMetrics: ['query:object'],
  runSparklines: [],
  queueView: ['query:object'],
  queueMessage: ['subject:name', 'messageId:name'],
  // '' is a real group: messages published before any consumer group received the subject.
  peekQueue: ['subject:name', 'group:text', 'limit:int?'],
  publishQueueMessage: ['input:object'],
  purgeQueue: ['subject:name', 'group:name?'],
  topicView: ['query:object'],
  publishTopicMessage: ['input:object'],
  deleteTopicSubscription: ['subscriptionId:name'],
  kvView: ['query:object'],
  kvEntry: ['namespace:name', 'key:key'],
  writeKvEntry: ['input:object'],
  deleteKvEntry: ['namespace:name', 'key:key', 'expectedVersion:int'],
  setPlatformSecret: ['name:name', 'value:text'],
  leaseView: ['query:object'],
  agentView: ['agentId:name?'],
  agentConversation: ['agentId:name', 'threadKey:name'],
  searchAgentMemory: ['agentId:name', 'query:text', 'userId:name?'],
  deleteAgentConversation: ['agentId:name', 'threadKey:name'],
  platformHistory: [],
  setPlatformHistory: ['minutes:number'],
  listResources: ['integration:name'],
  readResource: ['integration:name', 'kind:name', 'name:name'],
  checkResourceName: ['integration:name', 'kind:name', 'name:text', 'except:text?'],
  createResource: ['integration:name', 'kind:name', 'name:name', 'content:text'],
  saveResource: ['integration:name', 'kind:name', 'name:name', 'content:text'],
  renameResource: ['integration:name', 'kind:name', 'from:name', 'to:name'],
  deleteResource: ['integration:name', 'kind:name', 'name:name'],
  previewTemplate: ['text:text', 'sample:object'],
  listSecrets: [],
  putSecret: ['name:name', 'value:text'],
  deleteSecret: ['name:name', 'force:bool'],
  secretStoreStatus: [],
  allowWeakSecretBackend: [],
  environmentView: ['target:object'],
  runBindings: ['integration:name'],
  setRunBinding: ['integration:name', 'variable:name', 'binding:object?'],
  listTags: ['integration:name'],
  createTag: ['integration:name', 'tag:name', 'description:text?'],
  diffTag: ['integration:name', 'tag:name'],
  listDeployments: [],
  deployTag: ['input:object'],
  startDeployment: ['id:name'],
  stopDeployment: ['id:name'],
  removeDeployment: ['id:name'],
  exportBundle: ['integration:name'],
  previewBundleImport: ['integration:name', 'base64:text'],
  importBundle: ['integration:name', 'base64:text'],
  listFlowTests: ['integration:name'],
  runFlowTests: ['selection:object'],
  saveRunAsTest: ['input:object'],
  rerunFromStep: ['input:object'],
  debuggerState: [],
  addBreakpoint: ['input:object'],
  updateBreakpoint: ['id:int', 'change:object'],
  removeBreakpoint: ['id:int'],
  moveBreakpoints: ['integration:name', 'file:name', 'lines:list', 'text:text'],
  evaluateInRun: ['thread:int', 'expression:text'],
  editPausedMessage: ['thread:int', 'path:list', 'value:any?'],
  resumeRun: ['thread:int', 'action:name'],
  abortRun: ['thread:int'],
  replayRun: ['runId:name'],
  historyOverview: [],
  setHistorySettings: ['patch:object'],
  clearHistory: ['kind:name'],
  queryLogs: ['query:object'],
} as const satisfies { [M in StudioMethod]: ArgSpecs<Parameters<StudioApi[M]>> };

const eventRecord = { runState: true, workspace: true, feed: true, requestProgress: true, captures: true } as const satisfies Record<StudioEventName, true>;

export const studioMethods = Object.keys(methodRecord) as StudioMethod[];
export const studioEvents = Object.keys(eventRecord) as StudioEventName[];

/** What the arguments of `method` must be: one `'name:kind'` spec per parameter (studio-arguments.ts). */
export function argumentSpecs(method: StudioMethod): readonly string[] {
  return methodRecord[method];
}

export function isStudioMethod(name: unknown): name is StudioMethod {
  return typeof name === 'string' && Object.hasOwn(methodRecord, name);
}

export function isStudioEvent(name: unknown): name is StudioEventName {
  return typeof name === 'string' && Object.hasOwn(eventRecord, name);
}

export type StudioListener<E extends StudioEventName> = (payload: StudioEvents[E]) => void;

/** What the renderer holds: the API plus event subscription; `on` returns its unsubscribe. */
export interface StudioBridge extends StudioApi {
  on<E extends StudioEventName>(event: E, listener: StudioListener<E>): () => void;
  /**
   * Called each time the event channel (re)connects, where it can drop events (web mode's
   * socket): what was read before may predate events that went out while it was down. The hello
   * holds the run states as of the subscription, in order with the events that follow.
   */
  onConnect?(listener: (hello: StudioHello) => void): () => void;
  /**
   * Called once when this window can no longer follow the studio (web mode): it `restarted` (a new
   * launch answered) or the `session` was refused. From then on the bridge sends nothing.
   */
  onSessionEnd?(listener: (why: SessionEnd) => void): () => void;
}

export type SessionEnd = 'restarted' | 'session';

/** The reply of a call across a transport: errors travel as data, with a message for people. */
export type StudioCallResult = { ok: true; value: unknown } | { ok: false; error: string; kind: StudioErrorKind };

/** IPC channel names, shared by preload and main. */
export const studioIpc = { call: 'studio:call', event: 'studio:event' } as const;

/** Web-mode paths, shared by the server and the web transport. */
export const studioWeb = { callPrefix: '/api/call/', events: '/api/events' } as const;

/** One frame on the web-mode event socket. */
export interface StudioEventFrame<E extends StudioEventName = StudioEventName> {
  event: E;
  payload: StudioEvents[E];
}

/**
 * The first frame on the web-mode event socket: which launch of the studio answers, and every
 * integration's run state read in the same turn as the socket's subscription, so each later
 * change arrives as an event after it and none falls between a snapshot and the subscription.
 */
export interface StudioHelloFrame {
  hello: StudioHello;
}

export interface StudioHello {
  launchId: string;
  runStates: RunState[];
}

/**
 * Builds the API object from one call function, one entry per name in `studioMethods`. The
 * preload and the web transport both use it, so neither lists the methods again.
 */
export function studioApiFromCall(call: (method: StudioMethod, args: unknown[]) => Promise<unknown>): StudioApi {
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of studioMethods) api[method] = (...args: unknown[]) => call(method, args);
  return api as unknown as StudioApi;
}
