// Detectors: heartbeat+φ throughput on one core and memory per monitored peer at 1,000 samples.
// Targets (issue 5): >= 20 million heartbeat+φ pairs per second; <= 4 KiB per peer (half the seed's 8 KB).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  ExponentialPhiDetector,
  PhiAccrualFailureDetector,
  runScenario,
  simulate,
} from "../src/detectors/index.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const TARGET_PAIRS_PER_SECOND = 20e6;
const TARGET_BYTES_PER_PEER = 4096;

function memory(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

interface Det {
  heartbeat(nowMs: number): void;
  phi(nowMs: number): number;
}

// One loop per detector class keeps each call site monomorphic, as it is in a real service.
function pairsAkka(ds: PhiAccrualFailureDetector[], queryOffsetMs: number, budgetMs: number): number {
  let t = warm(ds);
  let sink = 0;
  let pairs = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    for (let round = 0; round < 200; round++) {
      t += 1000 + ((round * 37) % 75) - 37;
      for (let i = 0; i < ds.length; i++) {
        const d = ds[i]!;
        d.heartbeat(t);
        sink += d.phi(t + queryOffsetMs + (i & 511));
      }
      pairs += ds.length;
    }
    elapsed = performance.now() - start;
  }
  return sink === -1 ? 0 : (pairs / elapsed) * 1000;
}

function pairsCassandra(ds: ExponentialPhiDetector[], queryOffsetMs: number, budgetMs: number): number {
  let t = warm(ds);
  let sink = 0;
  let pairs = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    for (let round = 0; round < 200; round++) {
      t += 1000 + ((round * 37) % 75) - 37;
      for (let i = 0; i < ds.length; i++) {
        const d = ds[i]!;
        d.heartbeat(t);
        sink += d.phi(t + queryOffsetMs + (i & 511));
      }
      pairs += ds.length;
    }
    elapsed = performance.now() - start;
  }
  return sink === -1 ? 0 : (pairs / elapsed) * 1000;
}

/** Fill the windows: beats every 1000 ± 37 ms in integer ms, like a monotonic millisecond clock. */
function warm(ds: Det[]): number {
  let t = 0;
  for (let round = 0; round < 1100; round++) {
    t += 1000 + ((round * 37) % 75) - 37;
    for (const d of ds) d.heartbeat(t);
  }
  return t;
}

function report(label: string, rate: number): void {
  console.log(
    `${label}: ${(rate / 1e6).toFixed(1)} M heartbeat+phi pairs/s (${(rate / TARGET_PAIRS_PER_SECOND).toFixed(2)}× target 20 M)`,
  );
}

function bytesPerPeer(label: string, make: () => Det, fill: (d: Det) => void): number {
  const n = 5000;
  const keep: Det[] = [];
  const before = memory();
  for (let i = 0; i < n; i++) {
    const d = make();
    fill(d);
    keep.push(d);
  }
  const after = memory();
  const per = (after - before) / n;
  console.log(
    `${label}: ${per.toFixed(0)} bytes per monitored peer at 1,000 samples (target <= ${TARGET_BYTES_PER_PEER}: ${(per / TARGET_BYTES_PER_PEER).toFixed(2)}× of it; seed's 8 KB: ${(per / 8000).toFixed(2)}×)${keep.length === 0 ? "" : ""}`,
  );
  return per;
}

export default async function (): Promise<void> {
  const akka = (n: number): PhiAccrualFailureDetector[] =>
    Array.from({ length: n }, () => new PhiAccrualFailureDetector());
  const cass = (n: number): ExponentialPhiDetector[] =>
    Array.from({ length: n }, () => new ExponentialPhiDetector());
  // Query φ between beats (silence 0.25–0.76 s, the usual case), and in the suspicious range (silence 4.0–4.5 s,
  // where Akka's formula must evaluate exp and log10; with the default 3 s pause that is where φ climbs to 8).
  report("akka phi accrual, 1,000 peers, phi between beats      ", pairsAkka(akka(1000), 250, 1500));
  report("akka phi accrual, 1,000 peers, phi in suspicious range", pairsAkka(akka(1000), 4000, 1500));
  report("akka phi accrual, 1 peer, phi between beats           ", pairsAkka(akka(1), 250, 1000));
  report("cassandra exp. phi, 1,000 peers                       ", pairsCassandra(cass(1000), 250, 1500));

  const fillInts = (d: Det): void => {
    let t = 0;
    for (let i = 0; i <= 1000; i++) {
      t += 990 + (i % 20);
      d.heartbeat(t);
    }
  };
  const fillFractional = (d: Det): void => {
    let t = 0;
    for (let i = 0; i <= 1000; i++) {
      t += 990.25 + (i % 20);
      d.heartbeat(t);
    }
  };
  bytesPerPeer("akka phi accrual, integer-ms intervals   ", () => new PhiAccrualFailureDetector(), fillInts);
  bytesPerPeer("cassandra exp. phi, integer-ms intervals ", () => new ExponentialPhiDetector(), fillInts);
  bytesPerPeer(
    "akka phi accrual, fractional-ms intervals",
    () => new PhiAccrualFailureDetector(),
    fillFractional,
  );

  // The simulation engine: events per second, and the cost scenario at 1,000 nodes.
  let start = performance.now();
  const r = simulate({
    nodes: 100,
    durationMs: 60_000,
    detectors: [{ kind: "phi-normal" }, { kind: "fixed", timeoutMs: 5000 }],
  });
  let ms = performance.now() - start;
  console.log(
    `simulation: ${r.events.toLocaleString("en-US")} events in ${ms.toFixed(0)} ms (${(((r.events / ms) * 1000) / 1e6).toFixed(2)} M events/s), 100 nodes all-to-all, 2 detectors per pair, 60 s simulated`,
  );
  start = performance.now();
  const cost = runScenario("cost", { nodes: 1000 });
  ms = performance.now() - start;
  for (const run of cost.runs) {
    console.log(
      `  1,000 nodes ${run.label}: ${Math.round(run.result.messages.perSecond).toLocaleString("en-US")} messages/s`,
    );
  }
  console.log(`  (cost scenario: ${ms.toFixed(0)} ms)`);
}
