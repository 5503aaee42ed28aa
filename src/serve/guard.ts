// What `faultline serve` refuses before routing, so that it is safe on a developer's machine: a
// request is a pure function of (method, path, headers, the bound address, the token) to ok or a
// refusal (an ApiError, sent as a Kubernetes Status). Three guards, in this order:
//
// 1. Host. The server binds 127.0.0.1, but a page on any site can make a browser talk to it by DNS
//    rebinding (its own name re-resolved to 127.0.0.1): the request then carries the page's name
//    in `Host`. Only the bound address or `localhost`, each with the port, is served; anything else
//    is 403 Forbidden. (kube-apiserver has no such check, as it is not meant to sit on a desktop;
//    the rule is the one webpack-dev-server's `allowedHosts` and Vite's `server.allowedHosts` use.)
// 2. Origin on a clock change. POST /faultline/v1/{pause,play,seek} from a browser on another site
//    is a "simple" cross-origin request (no preflight: a form or fetch with no body and a
//    form content type), which the browser sends and only hides the answer of. A request whose
//    `Origin` is not the served origin, whose `Sec-Fetch-Site` says cross-site or same-site, or a
//    form-typed one whose `Referer` is foreign, is 403 Forbidden. No Origin at all (curl, kubectl,
//    any non-browser client) is fine.
// 3. Token. Every request but the health checks needs `Authorization: Bearer <token>` with the
//    token made at start and written into the kubeconfig (users[].user.token), else 401 with the
//    Status kube-apiserver sends an unauthenticated request: NewUnauthorized("Unauthorized")
//    (k8s.io/apiserver pkg/endpoints/filters/authentication.go, Unauthorized; Kubernetes 1.32).
//    /healthz, /livez and /readyz stay open, as kube-apiserver lets anonymous callers read them
//    (the system:public-info-viewer ClusterRole, plugin/pkg/auth/authorizer/rbac/bootstrappolicy).

import { ApiError } from "./status.ts";

/** What the guard knows of where the server listens and what it requires. */
export interface GuardConfig {
  /** the bound address: "127.0.0.1" or "::1" */
  address: string;
  port: number;
  tls: boolean;
  /** the bearer token every API request must carry; undefined: no authentication (`--no-auth`) */
  token?: string;
}

/** Request headers as node:http gives them (lower-case names). */
export type Headers = Record<string, string | string[] | undefined>;

/** The clock-changing endpoints (GET /faultline/v1/clock only reads). */
const CLOCK_CHANGES = new Set(["/faultline/v1/pause", "/faultline/v1/play", "/faultline/v1/seek"]);

/** Paths any caller may read, as kube-apiserver lets system:anonymous (system:public-info-viewer). */
const OPEN_PATHS = new Set(["/healthz", "/livez", "/readyz"]);

/**
 * The content types a browser sends cross-origin without a preflight (the CORS-safelisted request
 * headers, Fetch Standard §2.2.2 "CORS-safelisted request-header", Content-Type).
 */
const SIMPLE_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"];

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The Host values that name this server: the bound address and localhost, with the port. */
export function allowedHosts(c: GuardConfig): string[] {
  const address = c.address.includes(":") ? `[${c.address}]` : c.address;
  const names = [address, "localhost"];
  const hosts = names.map((n) => `${n}:${c.port}`);
  // A browser leaves out the scheme's default port.
  if (c.port === (c.tls ? 443 : 80)) hosts.push(...names);
  return hosts;
}

/** The origins of this server, as a browser writes them in `Origin`. */
export function allowedOrigins(c: GuardConfig): string[] {
  const scheme = c.tls ? "https" : "http";
  return allowedHosts(c).map((h) => `${scheme}://${h}`);
}

const forbidden = (message: string) => new ApiError(403, "Forbidden", message);

function checkHost(headers: Headers, c: GuardConfig): ApiError | undefined {
  const host = header(headers, "host");
  const allowed = allowedHosts(c);
  if (host === undefined || host === "")
    return new ApiError(400, "BadRequest", `no Host header: faultline serve answers Host ${allowed[0]}`);
  if (allowed.includes(host.toLowerCase())) return undefined;
  return forbidden(
    `Host ${JSON.stringify(host)} does not name this server: faultline serve answers only Host ${allowed.join(" or ")} (a guard against DNS rebinding; use one of those in the URL)`,
  );
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function checkClockOrigin(path: string, headers: Headers, c: GuardConfig): ApiError | undefined {
  if (!CLOCK_CHANGES.has(path)) return undefined;
  const origins = allowedOrigins(c);
  const refuse = (why: string) =>
    forbidden(
      `${path} changes the clock and ${why}: faultline serve takes clock changes only from ${origins[0]} or from clients that send no Origin (curl, kubectl)`,
    );
  const origin = header(headers, "origin");
  if (origin !== undefined && !origins.includes(origin.toLowerCase()))
    return refuse(`comes from Origin ${JSON.stringify(origin)}`);
  const site = header(headers, "sec-fetch-site");
  if (site === "cross-site" || site === "same-site")
    return refuse(`comes from another site (Sec-Fetch-Site: ${site})`);
  const type = (header(headers, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const referer = header(headers, "referer");
  if (origin === undefined && SIMPLE_TYPES.includes(type) && referer !== undefined) {
    const from = originOf(referer);
    if (from === undefined || !origins.includes(from))
      return refuse(`is a ${type} post from another page (Referer ${JSON.stringify(referer)})`);
  }
  return undefined;
}

/** Equal strings in a time that does not depend on where they differ (a token is a secret). */
function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The path as the router reads it (empty segments dropped, each one decoded), so that
 * "/faultline//v1/pause/" is checked as the pause it is routed to.
 */
function normalPath(url: string): string {
  const path = url.split("?")[0]!.split("#")[0]!;
  const parts = path.split("/").filter((p) => p !== "");
  try {
    return `/${parts.map(decodeURIComponent).join("/")}`;
  } catch {
    return `/${parts.join("/")}`;
  }
}

function checkToken(path: string, headers: Headers, c: GuardConfig): ApiError | undefined {
  if (c.token === undefined || OPEN_PATHS.has(path)) return undefined;
  const auth = header(headers, "authorization") ?? "";
  // client-go sends "Bearer <token>" (transport/round_trippers.go bearerAuthRoundTripper); the
  // scheme is case-insensitive (RFC 9110 §11.1), as kube-apiserver's bearertoken authenticator reads it.
  const m = /^bearer\s+(\S+)\s*$/i.exec(auth);
  if (m && sameSecret(m[1]!, c.token)) return undefined;
  return new ApiError(401, "Unauthorized", "Unauthorized");
}

/**
 * ok (undefined) or the refusal for one request. `url` is the request target (path and query).
 * The method does not matter to the Host and token checks; clock changes are POSTs, but any method
 * on those paths is checked, so that a refusal never depends on the route's own 405.
 */
export function guard(
  _method: string,
  url: string,
  headers: Headers,
  config: GuardConfig,
): ApiError | undefined {
  const path = normalPath(url);
  return (
    checkHost(headers, config) ?? checkClockOrigin(path, headers, config) ?? checkToken(path, headers, config)
  );
}
