// `faultline serve` as a library: start the read-only API over a scenario at a virtual time, and the
// kubeconfig that points kubectl at it. The CLI (src/cli/serve.ts) and the tests use this.

import type { Scenario } from "../scenario/types.ts";
import { ServedCluster } from "./served.ts";
import { ApiServer, HOST } from "./server.ts";
import { servingCert } from "./tls.ts";

export { EPOCH_MS } from "./time.ts";

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
  /** with `speed`: start the clock when the first watch starts, so that no client misses the start */
  waitForWatch?: boolean;
  /** every request's method and path (a verb log, for tests and `--log-requests`) */
  onRequest?: (method: string, url: string) => void;
}

export interface Serving {
  cluster: ServedCluster;
  port: number;
  url: string;
  /** with `tls`: the certificate clients are to trust (PEM) */
  ca?: string;
  /** with `waitForWatch`: resolves when the clock has started */
  started: Promise<void>;
  stop(): Promise<void>;
}

export async function startServe(scenario: Scenario, options: ServeOptions): Promise<Serving> {
  const cluster = new ServedCluster(scenario, {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}),
  });
  cluster.advanceTo(options.at);
  if (cluster.stoppedBy) throw cluster.stoppedBy;
  const cert = options.tls ? await servingCert(HOST) : undefined;
  let start: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    start = resolve;
  });
  const wait = options.speed !== undefined && options.waitForWatch === true;
  let waiting = wait;
  const server = new ApiServer(cluster, {
    ...(cert ? { tls: cert } : {}),
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
    started,
    async stop() {
      cluster.close();
      await server.close();
    },
  };
}

/**
 * A kubeconfig with one cluster, context and (credential-less) user for the server; with `ca` (the
 * serving certificate's PEM) its `certificate-authority-data`, as kubeadm writes admin.conf.
 */
export function kubeconfig(scenarioName: string, url: string, ca?: string): string {
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
    // a token stops the prompt. serve reads only, for everyone, and checks none.
    ...(ca ? ["    user:", "      token: faultline-serve-read-only"] : ["    user: {}"]),
    "",
  ].join("\n");
}
