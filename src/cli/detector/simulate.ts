// `faultline detector simulate`: a heartbeat system on the deterministic event loop (gc-pause, monitor-pause,
// stalled-progress, crash, cost). Every run of the scenario is estimated before any runs, and refused when it
// would pass the event or detector-state budget, with the settings that multiply to it and how to raise it.

import type { Command } from "commander";
import {
  EventBudgetExceeded,
  estimateSimulation,
  MAX_NODES,
  planScenario,
  SCENARIOS,
  type ScenarioName,
  type ScenarioOptions,
  SIMULATION_BUDGET,
  type SimulationEstimate,
  simulate,
  simulationSettings,
} from "../../detectors/index.ts";
import { formatMs } from "../../report/detector/format.ts";
import { scenarioJson, scenarioText } from "../../report/detector/simulation.ts";
import { type Io, UsageError } from "../io.ts";
import { DURATION_HELP, duration } from "./duration.ts";
import { integer, probability, topology, wrap } from "./flags.ts";

interface Flags {
  scenario: string;
  nodes?: string;
  topology?: string;
  duration?: string;
  interval?: string;
  loss: string;
  seed: string;
  maxEvents: string;
  maxDetectors: string;
  json?: boolean;
}

const ONE_MS = { ms: 1, rule: "nothing below 1ms is simulated" };
const count = (x: number): string => Math.round(x).toLocaleString("en-US");

export function registerSimulateCommand(detector: Command, io: Io, setExit: (code: number) => void): void {
  const b = SIMULATION_BUDGET;
  detector
    .command("simulate")
    .description(`heartbeat-system simulation: ${SCENARIOS.join(", ")}`)
    .option("--scenario <name>", `one of ${SCENARIOS.join(", ")}`, "gc-pause")
    .option("--nodes <n>", `nodes, 2 to ${count(MAX_NODES)} (default 100; 1000 for cost)`)
    .option("--topology <t>", "all-to-all, lease or watchers:K (default all-to-all; cost compares all three)")
    .option("--duration <duration>", "simulated time, at least 1ms (default 2m; 3s for cost)")
    .option(
      "--interval <duration>",
      "heartbeat interval, at least 1ms (akka-cluster reference.conf heartbeat-interval: 1s)",
    )
    .option("--loss <p>", "packet loss probability, from 0 to below 1", "0")
    .option(
      "--seed <n>",
      "picks the run's random draws (network delays, losses, start phases, pauses): the same number gives the same run; 0 to 4294967295",
      "1",
    )
    .option(
      "--max-events <n>",
      "refuse a run estimated to take more events (heartbeats delivered, timers, one detector judging one peer)",
      String(b.maxEvents),
    )
    .option(
      "--max-detectors <n>",
      "refuse a run holding more detector states (nodes × monitors each × detectors)",
      String(b.maxDetectors),
    )
    .option("--json", "print JSON")
    .addHelpText("after", DURATION_HELP)
    .action((opts: Flags) => {
      if (!(SCENARIOS as readonly string[]).includes(opts.scenario)) {
        throw new UsageError(`--scenario: expected one of ${SCENARIOS.join(", ")}, got "${opts.scenario}"`);
      }
      const name = opts.scenario as ScenarioName;
      const o: ScenarioOptions = {
        seed: integer("--seed", opts.seed, 0, 0xffff_ffff),
        lossProbability: probability("--loss", opts.loss),
        maxEvents: integer("--max-events", opts.maxEvents, 1, Number.MAX_SAFE_INTEGER),
        maxDetectors: integer("--max-detectors", opts.maxDetectors, 1, Number.MAX_SAFE_INTEGER),
      };
      if (opts.nodes !== undefined) o.nodes = integer("--nodes", opts.nodes, 2, MAX_NODES);
      if (opts.topology !== undefined) o.topology = topology(opts.topology);
      if (opts.duration !== undefined) o.durationMs = duration("--duration", opts.duration, ONE_MS);
      if (opts.interval !== undefined) o.heartbeatIntervalMs = duration("--interval", opts.interval, ONE_MS);
      const plan = wrap("detector simulate", () => planScenario(name, o));
      // Every run is estimated before the first one starts.
      for (const run of plan.runs) {
        const settings = wrap("detector simulate", () => simulationSettings(run.config));
        const e = estimateSimulation(settings);
        const where = `detector simulate: the ${name} run "${run.label}"`;
        const topo = `--topology ${settings.topology.kind === "watchers" ? `watchers:${settings.topology.k}` : settings.topology.kind}`;
        if (e.detectorStates > o.maxDetectors!) {
          throw new UsageError(
            `${where} would hold ${count(e.detectorStates)} detector states: ${count(e.nodes)} nodes (--nodes) × ${count(e.monitorsPerNode)} monitors each (${topo}) × ${Math.max(1, e.detectorsPerPair)} detectors, over the budget of ${count(o.maxDetectors!)}; lower --nodes, use --topology watchers:K, or raise the budget with --max-detectors ${Math.ceil(e.detectorStates * 1.5)}`,
          );
        }
        if (e.events > o.maxEvents!)
          throw new UsageError(`${where} ${eventsMessage(e, settings, topo, o.maxEvents!)}`);
      }
      const report = {
        scenario: plan.scenario,
        description: plan.description,
        runs: plan.runs.map((run) => ({
          label: run.label,
          result: wrap(`detector simulate: the ${name} run "${run.label}"`, () => {
            try {
              return simulate(run.config);
            } catch (e) {
              // The estimate is an upper bound, so this is a safety net: still a message, never a hang.
              if (e instanceof EventBudgetExceeded) {
                throw new RangeError(
                  `went past its budget of ${count(e.maxEvents)} events at ${formatMs(e.at * 1000)} simulated; raise --max-events`,
                );
              }
              throw e;
            }
          }),
        })),
      };
      io.out(opts.json ? scenarioJson(report) : scenarioText(report));
      setExit(0);
    });
}

function eventsMessage(
  e: SimulationEstimate,
  s: { durationMs: number; intervalMs: number; checkEveryMs: number },
  topo: string,
  budget: number,
): string {
  const beats = `${count(e.beatsPerNode)} beats (--duration ${formatMs(s.durationMs)} / --interval ${formatMs(s.intervalMs)})`;
  const judged =
    e.detectorsPerPair === 0
      ? ""
      : ` + ${count(e.pairs)} pairs × ${e.detectorsPerPair} detectors × ${count(e.checksPerMonitor)} judging ticks (one per ${formatMs(s.checkEveryMs)}) = ${count(e.judgements)} judgements`;
  return `would take about ${count(e.events)} events: ${count(e.nodes)} nodes (--nodes) × ${count(e.monitorsPerNode)} monitors each (${topo}) × ${beats} = ${count(e.deliveries)} heartbeats delivered${judged}, over the budget of ${count(budget)}; lower --nodes or --duration, raise --interval, use --topology watchers:K, or raise the budget with --max-events ${Math.ceil(e.events * 1.5)}`;
}
