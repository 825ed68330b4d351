import type { Settings } from '../../core/component.ts';
import { parseDuration } from '../../core/duration.ts';
import type { SettingsSpec } from '../../core/setting-spec.ts';

/**
 * The loader fills field defaults only when an object setting is written. `retry` and `pool`
 * apply with their defaults even when left out (spec 2 §8), so the defaults come from the same
 * declaration rather than being written a second time.
 */
export function withFieldDefaults<F extends SettingsSpec>(fields: F, loaded: Settings<F> | undefined): Settings<F> {
  if (loaded) return loaded;
  const out: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(fields)) {
    if (setting.default === undefined) continue;
    out[name] = setting.type === 'duration' && typeof setting.default === 'string' ? parseDuration(setting.default) : setting.default;
  }
  return out as Settings<F>;
}
