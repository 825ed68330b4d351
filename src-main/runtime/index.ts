/**
 * The runtime's front door: the CLI, the studio and Electron import the runtime from here only
 * (eslint.config.js enforces it), as they import the platform from platform/index.ts. What is
 * not exported here is the runtime's own business.
 */

// Starting a runtime: one start-up for `run`, a studio run and a local deployment.
export { connectPlatform, platformFromEnv, startRuntime, type PlatformConnection, type StartedRuntime, type StartRuntimeOptions } from './start-runtime.ts';
export { identityFromEnv, type Identity } from './services/api-config.ts';
export { envFilesIn, envResourceNames, resourceFilesIn } from './services/env-resources.ts';
export { envResourcesToFold } from './services/env-resources-to-fold.ts';
export { samplingFromEnv, type TraceSampling } from './services/trace-sampling.ts';
export { saturatedBudgetFromEnv, saturatedRateFromEnv } from './core/trace-admission.ts';
export type { InProcessTelemetry } from './services/trace-exporter.ts';
export type { PlatformServices } from './services/platform-services.ts';
export { Runtime } from './core/runtime.ts';
export type { RuntimeDescription } from './core/runtime.ts';
export { loadRegistry } from './components.ts';
export { generatedArtifacts } from './generated-artifacts.ts';

// Definitions: files, loading, problems.
export { discoverIntegrations, isDefinitionFile, readDefinitions, type DefinitionText } from './core/load/integration-files.ts';
export { loadDefinition } from './core/load/definition-loader.ts';
export { envEntrySpec, flowSpec } from './core/load/definition-format.ts';
export { errorMessage, formatProblem, LoadError, type LoadProblem } from './core/errors.ts';
export { definitionSchema } from './core/docs/json-schema.ts';

// Components, for the studio's palette and reference.
export { defineBlock, implementBlock, type ComponentDef } from './core/component.ts';
export type { CelFunctionDef, ComponentRegistry } from './core/registry-types.ts';
export type { SettingsSpec } from './core/setting-spec.ts';
export { CelCompileError, createCelEnvironment, type CelEnvironment } from './core/cel.ts';
export { compileTemplate } from './blocks/template/template-text.ts';
export { toSnapshot } from './core/message.ts';

// Observing a running runtime: logs, traces, HTTP exchanges.
export { consoleSink, createLogger, SecretRedactor, type Logger, type LogLevel, type LogRecord, type LogSink } from './core/logger.ts';
export { TraceHub, type TraceRecord, type TraceSink, type TraceSpan } from './core/trace.ts';
export type { HttpExchangeRecord } from './core/exchange-hub.ts';

// Debugging: one engine hook before each step, driven by the studio's debugger and the DAP adapter.
export { DebugError, DebugSession, type DebugListener } from './debug/debug-session.ts';
export type { BreakpointCheck, StepBreakpoint } from './debug/breakpoints.ts';
export type { DebugTargetOptions, StepPlace } from './debug/debug-target.ts';
export { DefinitionSteps, registryChainShapes } from './debug/definition-steps.ts';
export { FRAMES_PER_THREAD } from './debug/paused-view.ts';
export { pathText as messagePathText } from './debug/message-edit.ts';

// The notes service's webhook signature, which the studio's request composer signs with.
export { NotesConnector } from './connectors/notes/notes-connector.ts';
export { handshakeToken, signWebhook } from './connectors/notes/webhook-signature.ts';

// Flow tests (studio/flow-tests): a runtime in a sandbox, its settings and results.
export { Chain, type FlowResult } from './core/engine/chain.ts';
export { isTrue, type CompiledCel } from './core/cel.ts';
export { Message } from './core/message.ts';
export type { DocstoreStandIn, RuntimeSandbox } from './core/sandbox.ts';
export type { Setting } from './core/setting-spec.ts';
export type { Settings } from './core/component.ts';
export { loadSettings, type SettingsLoadContext } from './core/load/settings-loader.ts';
export type { SourceLocation } from './core/errors.ts';
export { YamlFile } from './core/load/yaml-file.ts';
export { definitionFilesIn, isFlowTestFile } from './core/load/integration-files.ts';
export { parseCron } from './blocks/schedule/cron.ts';
export { settingSchema } from './core/docs/json-schema.ts';
