import type { Statement } from 'better-sqlite3';
import type { DefinitionVersion } from '../../../shared/trace-types.ts';
import type { StudioDb } from './studio-db.ts';

/** The definition files of one version, as the runtime read them. */
export interface DefinitionFiles {
  generation: number;
  loadedAt: number;
  files: Array<{ file: string; text: string }>;
}

/**
 * What a restart gives back of each integration, kept in studio.db: whether it was running, the
 * generation its definition reached (so v4 after a restart is not a second v1), the ports its
 * `port: 0` http connectors were given, and the definition files of every version that served.
 */
export class IntegrationSession {
  private readonly statements: Record<string, Statement>;

  constructor(private readonly db: StudioDb) {
    this.statements = {
      running: db.prepare('SELECT integration FROM integration_session WHERE running = 1 ORDER BY integration'),
      setRunning: db.prepare('INSERT INTO integration_session (integration, running) VALUES (?, ?) ON CONFLICT (integration) DO UPDATE SET running = excluded.running'),
      generation: db.prepare('SELECT generation FROM integration_session WHERE integration = ?'),
      setGeneration: db.prepare(
        'INSERT INTO integration_session (integration, generation) VALUES (?, ?) ON CONFLICT (integration) DO UPDATE SET generation = MAX(generation, excluded.generation)',
      ),
      port: db.prepare('SELECT port FROM endpoint_ports WHERE integration = ? AND connector = ?'),
      ports: db.prepare('SELECT integration, connector, port FROM endpoint_ports'),
      setPort: db.prepare('INSERT INTO endpoint_ports (integration, connector, port) VALUES (?, ?, ?) ON CONFLICT (integration, connector) DO UPDATE SET port = excluded.port'),
      version: db.prepare('INSERT OR IGNORE INTO definition_versions (integration, digest, generation, loaded_at, files) VALUES (?, ?, ?, ?, ?)'),
      definition: db.prepare('SELECT generation, loaded_at AS loadedAt, files FROM definition_versions WHERE integration = ? AND digest = ?'),
    };
  }

  /** Integrations the user left running (a shutdown does not count as stopping them). */
  wasRunning(): string[] {
    return (this.statements.running.all() as Array<{ integration: string }>).map((r) => r.integration);
  }

  setRunning(integration: string, running: boolean): void {
    this.statements.setRunning.run(integration, running ? 1 : 0);
  }

  lastGeneration(integration: string): number {
    return (this.statements.generation.get(integration) as { generation: number } | undefined)?.generation ?? 0;
  }

  setGeneration(integration: string, generation: number): void {
    this.statements.setGeneration.run(integration, generation);
  }

  /** The port a `port: 0` connector was given before, if any. */
  port(integration: string, connector: string): number | undefined {
    return (this.statements.port.get(integration, connector) as { port: number } | undefined)?.port;
  }

  rememberPort(integration: string, connector: string, port: number): void {
    this.statements.setPort.run(integration, connector, port);
  }

  /** Every remembered port, to name who holds one. */
  ports(): Array<{ integration: string; connector: string; port: number }> {
    return this.statements.ports.all() as Array<{ integration: string; connector: string; port: number }>;
  }

  /** Keeps the files a version was loaded from, the first time that version serves. */
  recordDefinition(integration: string, version: DefinitionVersion, files: ReadonlyArray<{ file: string; text: string }>): void {
    this.statements.version.run(integration, version.digest, version.generation, Date.now(), JSON.stringify(files));
  }

  definitionOf(integration: string, digest: string): DefinitionFiles | undefined {
    const row = this.statements.definition.get(integration, digest) as { generation: number; loadedAt: number; files: string } | undefined;
    if (!row) return undefined;
    try {
      return { generation: row.generation, loadedAt: row.loadedAt, files: JSON.parse(row.files) as DefinitionFiles['files'] };
    } catch {
      return undefined;
    }
  }
}
