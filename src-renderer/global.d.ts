import type { StudioBridge } from '../shared/studio-api.ts';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in web mode. */
    studio?: StudioBridge;
  }
}

export {};
