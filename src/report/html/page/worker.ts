// What-ifs off the page's thread: a Web Worker built from a Blob of this very script (the page is one
// self-contained file: the bundle that draws the page also holds the simulator), so a 1,000-node run
// leaves the page responsive. Where workers are unavailable (no Worker, a policy refusing blob: workers,
// a result the worker cannot send back) the run is made on the page's thread, as before.

import { type SimulateOptions, type SimulationResult, simulate } from "../../../run/simulate.ts";
import type { Scenario } from "../../../scenario/types.ts";

/** The page's own script element, captured while the bundle runs (currentScript is null afterwards). */
const SELF = typeof document === "undefined" ? null : document.currentScript;

interface Request {
  id: number;
  scenario: Scenario;
  options: SimulateOptions;
}
type Reply = { id: number; result: SimulationResult } | { id: number; error: string; clone?: boolean };

let worker: Worker | null | undefined;
let nextId = 1;

function start(): Worker | null {
  if (worker !== undefined) return worker;
  worker = null;
  try {
    const text = SELF?.textContent;
    if (typeof Worker === "undefined" || !text) return null;
    const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
    worker = new Worker(url);
  } catch {
    worker = null;
  }
  return worker;
}

/**
 * Runs the scenario in the worker, or on this thread where there is none; `where` says which. An
 * error the model raises is the run's error either way; a worker that fails to start or to answer is
 * not used again.
 */
export async function simulateOffThread(
  scenario: Scenario,
  options: SimulateOptions,
): Promise<{ result: SimulationResult; where: "worker" | "page" }> {
  const w = start();
  if (w) {
    try {
      return { result: await ask(w, scenario, options), where: "worker" };
    } catch (e) {
      if (!(e instanceof WorkerUnavailable)) throw e;
      w.terminate();
      worker = null;
    }
  }
  return { result: simulate(scenario, options), where: "page" };
}

class WorkerUnavailable extends Error {}

function ask(w: Worker, scenario: Scenario, options: SimulateOptions): Promise<SimulationResult> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const done = () => {
      w.removeEventListener("message", onMessage);
      w.removeEventListener("error", onError);
    };
    const onMessage = (ev: MessageEvent<Reply>) => {
      if (ev.data.id !== id) return;
      done();
      if ("result" in ev.data) resolve(ev.data.result);
      else reject(ev.data.clone ? new WorkerUnavailable(ev.data.error) : new Error(ev.data.error));
    };
    const onError = (ev: Event) => {
      ev.preventDefault();
      done();
      reject(new WorkerUnavailable("the worker failed"));
    };
    w.addEventListener("message", onMessage);
    w.addEventListener("error", onError);
    try {
      w.postMessage({ id, scenario, options } satisfies Request);
    } catch (e) {
      done();
      reject(new WorkerUnavailable(e instanceof Error ? e.message : String(e)));
    }
  });
}

/** In the worker: run each scenario asked for and send its result (or its error's message) back. */
export function serveSimulations(scope: {
  onmessage: ((ev: MessageEvent<Request>) => void) | null;
  postMessage(m: Reply): void;
}): void {
  scope.onmessage = (ev) => {
    const { id, scenario, options } = ev.data;
    let result: SimulationResult;
    try {
      result = simulate(scenario, options);
    } catch (e) {
      scope.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
      return;
    }
    try {
      scope.postMessage({ id, result });
    } catch (e) {
      scope.postMessage({ id, error: e instanceof Error ? e.message : String(e), clone: true });
    }
  };
}
