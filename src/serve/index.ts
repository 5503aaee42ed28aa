// `faultline serve` as a library: start the read-only API over a scenario at a virtual time, and the
// kubeconfig that points kubectl at it. The CLI (src/cli/serve.ts) and the tests use this.

import { randomBytes } from "node:crypto";
import type { Scenario } from "../scenario/types.ts";
import { ServedCluster } from "./served.ts";
import { ApiServer, HOST } from "./server.ts";
import { EPOCH_MS, setEpoch } from "./time.ts";
import { servingCert } from "./tls.ts";

export { EPOCH_MS, epoch } from "./time.ts";

export interface ServeOptions {
  /** virtual seconds to run to before serving */
  at: number;
  /** play from `at` at this many × real time; undefined: frozen */
  speed?: number;
  /** 0: any free port */
  port: number;
  seed?: number;
  /** engine events one run may take (each re-run after a seek back is a run): the engine's hard cap */
  maxEvents?: number;
  /** HTTPS with a certificate made at start (its PEM in `Serving.ca`); default plain HTTP */
  tls?: boolean;
  /**
   * with `tls`: require `Authorization: Bearer <token>` with a token made at start (`Serving.token`,
   * written into the kubeconfig); default true, false is `serve --no-auth`
   */
  auth?: boolean;
  /** with `speed`: start the clock when the first watch starts, so that no client misses the start */
  waitForWatch?: boolean;
  /** every request's method and path (a verb log, for tests and `--log-requests`) */
  onRequest?: (method: string, url: string) => void;
  /** t=0 on the wall, ms since the Unix epoch (default EPOCH_MS, 2025-01-01T00:00:00Z): serve/time.ts */
  epochMs?: number;
}

export interface Serving {
  cluster: ServedCluster;
  port: number;
  url: string;
  /** with `tls`: the certificate clients are to trust (PEM) */
  ca?: string;
  /** with `auth`: the bearer token every request must carry (the kubeconfig's users[].user.token) */
  token?: string;
  /** with `waitForWatch`: resolves when the clock has started */
  started: Promise<void>;
  stop(): Promise<void>;
}

export async function startServe(scenario: Scenario, options: ServeOptions): Promise<Serving> {
  setEpoch(options.epochMs ?? EPOCH_MS);
  const cluster = new ServedCluster(scenario, {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}),
  });
  cluster.advanceTo(options.at);
  if (cluster.stoppedBy) throw cluster.stoppedBy;
  const cert = options.tls ? await servingCert(HOST) : undefined;
  // Over TLS only: client-go reads a kubeconfig user's credentials only when the transport is TLS
  // (tools/clientcmd client_config.go ClientConfig, "only try to read the auth information if we
  // are secure", rest.IsConfigTransportTLS; client-go 0.32), so kubectl would send no token over
  // plain HTTP. There the Host and Origin guards stand alone (docs/serve.md).
  const token = options.auth === false || !cert ? undefined : newToken();
  let start: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    start = resolve;
  });
  const wait = options.speed !== undefined && options.waitForWatch === true;
  let waiting = wait;
  const server = new ApiServer(cluster, {
    ...(cert ? { tls: cert } : {}),
    ...(token ? { token } : {}),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(wait
      ? {
          onWatch: () => {
            // Once only: after the first watch the clock is the user's (pause, play, seek).
            if (!waiting || options.speed === undefined) return;
            waiting = false;
            if (!cluster.playing) cluster.play(options.speed);
            start();
          },
        }
      : {}),
  });
  const port = await server.listen(options.port);
  if (options.speed !== undefined && !wait) cluster.play(options.speed);
  if (!wait) start();
  return {
    cluster,
    port,
    url: `${cert ? "https" : "http"}://${HOST}:${port}`,
    ...(cert ? { ca: cert.cert } : {}),
    ...(token ? { token } : {}),
    started,
    async stop() {
      cluster.close();
      await server.close();
    },
  };
}

/**
 * The bearer token of one `serve`: 32 random bytes (the wall clock's kind of input: this is I/O,
 * never in a model), base64url, as kubeadm's bootstrap tokens and client-go's are opaque strings.
 */
function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * A kubeconfig with one cluster, context and user for the server; with `ca` (the serving
 * certificate's PEM) its `certificate-authority-data`, as kubeadm writes admin.conf; with `token`
 * the user's bearer token (users[].user.token, which kubectl and every client send).
 */
export function kubeconfig(scenarioName: string, url: string, ca?: string, token?: string): string {
  const name = `faultline-${scenarioName.replace(/[^A-Za-z0-9._-]/g, "-")}`;
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `  - name: ${name}`,
    "    cluster:",
    `      server: ${url}`,
    ...(ca ? [`      certificate-authority-data: ${Buffer.from(ca).toString("base64")}`] : []),
    "contexts:",
    `  - name: ${name}`,
    "    context:",
    `      cluster: ${name}`,
    "      user: faultline",
    "      namespace: default",
    `current-context: ${name}`,
    "users:",
    "  - name: faultline",
    // Over HTTPS, kubectl asks for a username and password when the user has no credential at all
    // (client-go tools/clientcmd client_config.go getUserIdentificationPartialConfig, its prompt):
    // a token stops the prompt. With `serve --no-auth` the token is a placeholder serve does not check.
    ...(token || ca ? ["    user:", `      token: ${token ?? "faultline-serve-no-auth"}`] : ["    user: {}"]),
    "",
  ].join("\n");
}
