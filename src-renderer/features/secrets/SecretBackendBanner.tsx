import type { SecretStoreStatus } from '../../../shared/resource-types.ts';

/**
 * Says how secret values are protected when it is anything less than an OS keyring: the key file
 * of web mode, the weak fallback, or no way to store them at all (with the opt-in where there is one).
 */
export function SecretBackendBanner({ status, onOptIn }: { status: SecretStoreStatus | undefined; onOptIn: () => void }) {
  if (!status?.banner) return null;
  const bad = status.protection === 'refused' || status.protection === 'unavailable';
  return (
    <div className={`rs-banner ${bad ? 'rs-bad' : ''}`} role={bad ? 'alert' : 'status'} aria-label="Secret backend">
      <p>{status.banner}</p>
      {status.canOptIn ? (
        <button type="button" onClick={onOptIn}>
          Use the weak fallback
        </button>
      ) : null}
    </div>
  );
}
