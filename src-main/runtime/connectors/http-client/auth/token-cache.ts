/** A token and when it stops being valid (epoch ms); no expiry means until the upstream refuses it. */
export interface MintedToken {
  value: string;
  expiresAt?: number;
}

/** Renew this long before expiry at most, so a token never expires on the wire. */
const MAX_EARLY_MS = 60_000;

/**
 * Holds one minted token, renews it shortly before it expires (a tenth of its lifetime, at most
 * a minute early), and lets concurrent callers share a single mint in flight.
 */
export class TokenCache {
  private current: { value: string; renewAt: number } | undefined;
  private minting: Promise<string> | undefined;

  constructor(private readonly mint: () => Promise<MintedToken>) {}

  get(now = Date.now()): string | Promise<string> {
    if (this.current && now < this.current.renewAt) return this.current.value;
    return (this.minting ??= this.mintOnce());
  }

  /** Forgets the token if it is still the one held (the upstream refused it). */
  invalidate(value: string): void {
    if (this.current?.value === value) this.current = undefined;
  }

  private async mintOnce(): Promise<string> {
    try {
      const token = await this.mint();
      const now = Date.now();
      const renewAt =
        token.expiresAt === undefined ? Infinity : token.expiresAt - Math.min(MAX_EARLY_MS, Math.max(0, token.expiresAt - now) / 10);
      this.current = { value: token.value, renewAt };
      return token.value;
    } finally {
      this.minting = undefined;
    }
  }
}
