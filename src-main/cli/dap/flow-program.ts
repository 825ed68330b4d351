import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import {
  type ComponentRegistry,
  createLogger,
  type DebugSession,
  definitionFilesIn,
  DefinitionSteps,
  envFilesIn,
  type LogRecord,
  type Logger,
  readDefinitions,
  loadRegistry,
  registryChainShapes,
  type Runtime,
  startRuntime,
  type StartedRuntime,
  type DefinitionText,
} from '../../runtime/index.ts';
import { followStep, savedStepOf, stepAtLine, stepLocations, type ChainShapes, type StepLocation } from '../../../shared/step-paths.ts';
import { openDebuggerDb, type DebuggerDb } from '../../studio/debugger/debugger-store.ts';
import { recordRuns } from '../../studio/debugger/run-recordings.ts';
import { replayRun, type Replayed } from '../../studio/debugger/run-replay.ts';
import { defaultDataDir } from '../../studio/studio-paths.ts';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../run.ts';

/** What `launch` takes (launch.json's `configurations[i]` for `"type": "flow-studio"`). */
export interface LaunchArguments {
  /** The integration folder: its root-level *.yaml files are the definitions. */
  program: string;
  /** A run id (or trace id) a previous debug session recorded: run it again under the debugger instead of serving. */
  replay?: string;
  /** Where the embedded platform and the recordings live; default the studio's data folder. */
  dataDir?: string;
  /** Variables for the definitions' `env:` on top of the adapter's environment. */
  env?: Record<string, string>;
}

/**
 * The integration a DAP session debugs: loaded as `flow-studio run` loads it (an embedded
 * platform in this process, the delegation API over loopback), the session attached before its
 * sources start, and every run recorded (message and outbound answers) in the studio's data folder
 * so a later `launch` with `replay` can run it again.
 */
export class FlowProgram {
  readonly dir: string;
  readonly integration: string;
  readonly texts: DefinitionText[];
  readonly steps: DefinitionSteps;
  private readonly shapes: ChainShapes;
  private started: StartedRuntime | undefined;
  private detach: Array<() => void> = [];

  private constructor(
    readonly args: LaunchArguments,
    private readonly session: DebugSession,
    private readonly platform: EmbeddedPlatform,
    private readonly db: DebuggerDb,
    private readonly onLog: (record: LogRecord) => void,
    registry: ComponentRegistry,
  ) {
    this.dir = resolve(args.program);
    this.integration = basename(this.dir);
    this.texts = readDefinitions(definitionFilesIn(this.dir));
    this.shapes = registryChainShapes(registry);
    this.steps = new DefinitionSteps(this.texts, this.shapes);
  }

  /**
   * The running step a line of a definition file is on, the file read as it is now: the program
   * runs its files as they were at launch, and a client sends lines of the file as edited since
   * (lines added above a step move it). `line` is where that step starts now. A step added or
   * rewritten since launch is not in the program: the reason says so.
   */
  stepAtLine(file: string, line: number): { step: StepLocation; line: number } | { problem: string } {
    const { steps, changed } = this.stepsNow(file);
    const step = stepAtLine(steps, line);
    if (!step) return { problem: `line ${line} is not inside a step; a breakpoint goes on a step (its line or any line of its settings)` };
    if (!changed) return { step, line: step.line };
    const running = savedStepOf(this.steps.of(file), steps, step);
    if (!running) return { problem: `line ${line} is on a step added or changed since ${basename(file)} was loaded, and the program runs it as it was; restart the debug session to debug it` };
    return { step: running, line: step.line };
  }

  /** Where a running step is in its file now (the frames and logpoint lines of an edited file follow it), else where it was at launch. */
  readonly locate = (path: string): ReturnType<DefinitionSteps['locate']> => {
    const place = this.steps.locate(path);
    if (!place) return undefined;
    const { steps, changed } = this.stepsNow(place.file);
    const was = changed ? this.steps.of(place.file).find((s) => s.path === path) : undefined;
    const now = was ? followStep(steps, was) : undefined;
    return now ? { ...place, line: now.line } : place;
  };

  /** The steps of a definition file as it is on disk now, and whether that differs from what the program loaded. */
  private stepsNow(file: string): { steps: readonly StepLocation[]; changed: boolean } {
    const loaded = this.texts.find((t) => t.file === file)?.text;
    let now: string | undefined;
    try {
      now = readFileSync(file, 'utf8');
    } catch {
      // Deleted or unreadable since launch: what the program runs is all there is to show.
    }
    if (loaded === undefined || now === undefined || now === loaded) return { steps: this.steps.of(file), changed: false };
    return { steps: stepLocations(now, this.shapes), changed: true };
  }

  /** Checks the program and starts the embedded platform; nothing runs yet. Throws saying what is wrong with the arguments. */
  static async open(args: LaunchArguments, session: DebugSession, onLog: (record: LogRecord) => void): Promise<FlowProgram> {
    if (typeof args.program !== 'string' || args.program === '') throw new Error('launch needs "program": the integration folder, e.g. "${workspaceFolder}/orders-api"');
    const dir = resolve(args.program);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`program ${dir} is not a folder; point it at an integration folder (its *.yaml files are the definitions)`);
    if (definitionFilesIn(dir).length === 0) throw new Error(`program ${dir} has no definition files (*.yaml) at its root`);
    if (args.replay !== undefined && (typeof args.replay !== 'string' || args.replay === '')) throw new Error('"replay" is the run id (or trace id) of a recorded run, e.g. "r5"');
    if (args.dataDir !== undefined && (typeof args.dataDir !== 'string' || args.dataDir === '')) throw new Error('"dataDir" is a folder, e.g. "${workspaceFolder}/.flow-studio"; leave it out for the studio\'s');
    if (args.env !== undefined && (args.env === null || typeof args.env !== 'object' || Array.isArray(args.env) || Object.values(args.env).some((v) => typeof v !== 'string'))) {
      throw new Error('"env" is an object of variables with text values, e.g. {"API_URL": "http://localhost:9000"}');
    }
    const dataDir = resolve(args.dataDir ?? defaultDataDir());
    const log = createLogger({ sinks: [onLog] });
    const platform = await startEmbeddedPlatform(join(dataDir, 'debug-platform'), [dir], process.env, log, 'debug');
    return new FlowProgram(args, session, platform, openDebuggerDb(dataDir), onLog, await loadRegistry());
  }

  /** Loads the definitions (every problem with file:line:col), attaches the debugger and starts the sources. */
  async serve(): Promise<Runtime> {
    const started = await startRuntime({
      definitions: this.texts,
      variables: this.variables(),
      envResources: envFilesIn(this.dir),
      platform: { url: this.platform.url, token: this.platform.token, inProcess: this.platform.inProcess },
      identity: { deploymentId: this.integration, instanceId: 'dap' },
      integration: this.integration,
      logLevel: 'debug',
      logSinks: [this.onLog],
      start: false,
    });
    this.started = started;
    this.detach.push(
      recordRuns(started.runtime.traces, (run, ended) => {
        this.db.recordings.add(this.integration, run);
        if (ended.outcome === 'failed') this.onLog({ time: new Date().toISOString(), level: 'warn', msg: `run ${run.runId} of ${run.flow} failed: ${ended.error ?? 'failed'}; to step through it again, launch with "replay": "${run.runId}"` });
      }),
    );
    this.detach.push(this.session.attach(started.runtime, { log: started.log, locate: this.locate, integration: this.integration }));
    await started.runtime.start();
    return started.runtime;
  }

  /** Runs a recorded run again under the debugger, its outbound calls answered from the recording. */
  async replay(id: string): Promise<Replayed> {
    const recorded = this.db.recordings.find(this.integration, id);
    if (!recorded) throw new Error(`no run "${id}" of ${this.integration} is recorded in ${resolve(this.args.dataDir ?? defaultDataDir())}; runs are recorded while this adapter serves the program`);
    return replayRun(recorded, {
      integrationDir: this.dir,
      env: this.variables(),
      session: this.session,
      attach: (session, runtime, _definitions, label) => session.attach(runtime, { label, locate: this.locate, integration: this.integration, log: logTo(this.onLog) }),
    });
  }

  async close(): Promise<void> {
    for (const d of this.detach.splice(0)) d();
    await this.started?.stop(2000).catch(() => {});
    await this.platform.close().catch(() => {});
    this.db.close();
  }

  private variables(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
    return { ...out, ...(this.args.env ?? {}) };
  }
}

function logTo(sink: (record: LogRecord) => void): Logger {
  return createLogger({ level: 'debug', sinks: [sink] });
}
