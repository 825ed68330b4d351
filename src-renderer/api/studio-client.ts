import type { StudioBridge } from '../../shared/studio-api.ts';
import { createWebStudio } from './web-transport.ts';

/**
 * The one module of the renderer that talks to the backend. In Electron the preload has put the
 * bridge on `window.studio`; in a browser the web transport plays the same part. Nothing else in
 * the renderer knows which one it got.
 */
export const studio: StudioBridge = window.studio ?? createWebStudio();
