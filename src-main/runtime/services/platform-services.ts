/**
 * The capabilities a runtime delegates to its platform (spec 1). The `api` module implements it
 * over the delegation API; `none` is what a runtime has before one is configured.
 */
export interface PlatformServices {
  /** Named in the startup log, e.g. `api (flow-platform 0.1.0)`. */
  readonly implementation: string;
  close(): Promise<void>;
}

export const noPlatformServices: PlatformServices = {
  implementation: 'none',
  async close() {},
};
