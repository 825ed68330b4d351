import type { IncomingMessage, ServerResponse } from 'node:http';

export interface CorsSettings {
  allowedOrigins?: string[];
  allowedMethods: string[];
  allowedHeaders?: string[];
  exposedHeaders?: string[];
  allowCredentials: boolean;
  maxAge?: number;
}

/**
 * The connector's CORS rules (spec 2 §2.1). Built only when `allowedOrigins` is non-empty; a
 * connector without one adds no headers and answers no preflights.
 */
export class CorsPolicy {
  private readonly anyOrigin: boolean;
  private readonly origins: ReadonlySet<string>;
  private readonly methods: ReadonlySet<string>;
  private readonly methodList: string;
  private readonly headerList: string | undefined;
  private readonly exposed: string | undefined;
  private readonly maxAgeSeconds: string | undefined;

  private constructor(private readonly s: CorsSettings) {
    const origins = s.allowedOrigins ?? [];
    this.anyOrigin = origins.includes('*');
    this.origins = new Set(origins);
    this.methods = new Set(s.allowedMethods.map((m) => m.toUpperCase()));
    this.methodList = [...this.methods].join(', ');
    this.headerList = s.allowedHeaders?.length ? s.allowedHeaders.join(', ') : undefined;
    this.exposed = s.exposedHeaders?.length ? s.exposedHeaders.join(', ') : undefined;
    this.maxAgeSeconds = s.maxAge === undefined ? undefined : String(Math.ceil(s.maxAge / 1000));
  }

  /** Undefined when CORS is inert. */
  static from(s: CorsSettings | undefined): CorsPolicy | undefined {
    return s?.allowedOrigins?.length ? new CorsPolicy(s) : undefined;
  }

  /** A preflight is an OPTIONS request naming the method it wants to send. */
  static isPreflight(req: IncomingMessage): boolean {
    return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  }

  /** Adds the headers of an actual (non-preflight) request from an allowed origin. */
  applyToResponse(origin: string, res: ServerResponse): void {
    if (!this.allows(origin)) return;
    this.setOrigin(origin, res);
    if (this.exposed) res.setHeader('Access-Control-Expose-Headers', this.exposed);
  }

  /** Answers a preflight: 204, with the allowances only when origin and method are allowed. */
  answerPreflight(origin: string, req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    const method = String(req.headers['access-control-request-method']).toUpperCase();
    if (this.allows(origin) && this.methods.has(method)) {
      this.setOrigin(origin, res);
      res.setHeader('Access-Control-Allow-Methods', this.methodList);
      const requested = req.headers['access-control-request-headers'];
      const headers = this.headerList ?? requested;
      if (headers) res.setHeader('Access-Control-Allow-Headers', headers);
      if (this.maxAgeSeconds !== undefined) res.setHeader('Access-Control-Max-Age', this.maxAgeSeconds);
    }
    res.writeHead(204, { 'Content-Length': '0' });
    res.end();
  }

  private allows(origin: string): boolean {
    return this.anyOrigin || this.origins.has(origin);
  }

  private setOrigin(origin: string, res: ServerResponse): void {
    // With credentials a browser refuses `*`, so the origin itself is echoed (spec 2 §2.1).
    if (this.anyOrigin && !this.s.allowCredentials) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    if (!res.hasHeader('Vary')) res.setHeader('Vary', 'Origin');
    if (this.s.allowCredentials) res.setHeader('Access-Control-Allow-Credentials', 'true');
  }
}
