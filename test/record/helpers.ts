// The recorder against `faultline serve`: a scenario served over HTTPS, its clock started by the
// recorder's first watch, every request's verb logged, and the recording read back.

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { record } from "../../src/cli/recorder.ts";
import { loadScenarioFile } from "../../src/load/index.ts";
import type { RecordLine } from "../../src/record/recording.ts";
import { kubeconfig, startServe } from "../../src/serve/index.ts";

export interface Recorded {
  file: string;
  lines: RecordLine[];
  requests: { method: string; url: string }[];
}

/** Serve `scenario` at `speed`× from t=0 and record it for `seconds` of wall time. */
export async function recordServed(
  scenarioFile: string,
  speed: number,
  seconds: number,
  probe?: { url: string; rate: number; clients: number },
): Promise<Recorded> {
  const scenario = loadScenarioFile(scenarioFile);
  const requests: { method: string; url: string }[] = [];
  const serving = await startServe(scenario, {
    at: 0,
    port: 0,
    speed,
    tls: true,
    waitForWatch: true,
    onRequest: (method, url) => requests.push({ method, url }),
  });
  const dir = mkdtempSync(join(tmpdir(), "faultline-record-test-"));
  const config = join(dir, "kubeconfig");
  writeFileSync(config, kubeconfig(scenario.name, serving.url, serving.ca, serving.token));
  const file = join(dir, "recording.jsonl");
  try {
    await record({
      kubeconfig: config,
      out: file,
      duration: seconds,
      maxBytes: 64 * 1024 * 1024,
      ...(probe ? { probe } : {}),
    });
  } finally {
    await serving.stop();
  }
  const lines = readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as RecordLine);
  return { file, lines, requests };
}
