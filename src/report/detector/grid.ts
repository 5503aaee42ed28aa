// The φ model grids of `faultline detector phi` and `detector threshold`: one row per learned mean gap and
// silence (or threshold), for Cassandra's exponential model and Akka's normal one, as a table or as JSON.

import { table } from "../table.ts";
import { formatMs, toJson, withReason } from "./format.ts";

/** Akka's normal model as the grid used it: acceptable pause, min-std floor and learned deviation (ms). */
export interface NormalModel {
  pause: number;
  minStd: number;
  std: number;
}

export interface PhiRow {
  meanGapMs: number;
  silenceMs: number;
  phiExponential: number;
  phiNormal: number;
}

export interface ThresholdRow {
  meanGapMs: number;
  threshold: number;
  silenceExponentialMs: number;
  silenceNormalMs: number;
}

/** Why Akka's φ is not a finite number for this model (it is NaN or +∞ only in these two cases). */
export function phiNormalWhy(model: NormalModel): string {
  return Math.max(model.std, model.minStd) === 0
    ? "min-std 0 makes phi undefined: give --min-std or --std above 0, as Akka requires"
    : "more than 21 standard deviations past mean + pause: exp underflows, as on the JVM";
}

function modelJson(model: NormalModel, rows: object[]): object {
  return {
    acceptableHeartbeatPauseMs: model.pause,
    minStdDeviationMs: model.minStd,
    stdDeviationMs: model.std,
    rows,
  };
}

export function phiGridText(rows: PhiRow[], model: NormalModel): string {
  const why = phiNormalWhy(model);
  return `${table(
    ["mean gap", "silence", "phi exponential", "phi normal (akka)"],
    rows.map((r) => [
      formatMs(r.meanGapMs),
      formatMs(r.silenceMs),
      r.phiExponential.toFixed(2),
      withReason(r.phiNormal, r.phiNormal.toFixed(2), why),
    ]),
    { align: ["left", "right", "right", "right"] },
  )}exponential: phi = t / (mean · ln 10) (Cassandra); normal: Akka's formula with acceptable pause ${formatMs(model.pause)}, sd max(${formatMs(model.std)}, ${formatMs(model.minStd)})\n`;
}

/** JSON rows; a φ that is not finite is written as a string with `phiNormalWhy` beside it. */
export function phiGridJson(rows: PhiRow[], model: NormalModel): string {
  const why = phiNormalWhy(model);
  return toJson(
    modelJson(
      model,
      rows.map((r) => (Number.isFinite(r.phiNormal) ? r : { ...r, phiNormalWhy: why })),
    ),
  );
}

export function thresholdGridText(rows: ThresholdRow[]): string {
  return table(
    ["mean gap", "phi", "silence (exponential)", "silence (normal, akka)"],
    rows.map((r) => [
      formatMs(r.meanGapMs),
      String(r.threshold),
      formatMs(r.silenceExponentialMs),
      formatMs(r.silenceNormalMs),
    ]),
    { align: ["left", "right", "right", "right"] },
  );
}

export function thresholdGridJson(rows: ThresholdRow[], model: NormalModel): string {
  return toJson(modelJson(model, rows));
}
