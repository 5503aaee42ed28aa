// The guard of `faultline serve` (src/serve/guard.ts), rule by rule: Host, Origin on a clock
// change, and the bearer token.

import { describe, expect, it } from "vitest";
import {
  allowedHosts,
  allowedOrigins,
  type GuardConfig,
  guard,
  type Headers,
} from "../../src/serve/guard.ts";

const PLAIN: GuardConfig = { address: "127.0.0.1", port: 8123, tls: false };
const AUTH: GuardConfig = { ...PLAIN, tls: true, token: "s3cret-token" };
const BEARER = { authorization: "Bearer s3cret-token" };

const check = (method: string, url: string, headers: Headers, c: GuardConfig = PLAIN) => {
  const e = guard(method, url, headers, c);
  return e ? e.toStatus() : "ok";
};

describe("the Host guard (DNS rebinding)", () => {
  it("serves the bound address and localhost with the port", () => {
    expect(allowedHosts(PLAIN)).toEqual(["127.0.0.1:8123", "localhost:8123"]);
    expect(check("GET", "/api/v1/pods", { host: "127.0.0.1:8123" })).toBe("ok");
    expect(check("GET", "/api/v1/pods", { host: "localhost:8123" })).toBe("ok");
    expect(check("GET", "/api/v1/pods", { host: "LocalHost:8123" })).toBe("ok");
  });

  it("serves [::1] when bound there, and a bare name only on the scheme's default port", () => {
    const v6: GuardConfig = { address: "::1", port: 443, tls: true };
    expect(allowedHosts(v6)).toEqual(["[::1]:443", "localhost:443", "[::1]", "localhost"]);
    expect(check("GET", "/version", { host: "[::1]" }, v6)).toBe("ok");
    expect(check("GET", "/version", { host: "localhost" }, PLAIN)).toMatchObject({ code: 403 });
  });

  it("refuses any other Host with a 403 Status that says why", () => {
    for (const host of ["evil.example:8123", "127.0.0.1:9999", "localhost.evil.example:8123", "127.0.0.1"]) {
      const r = check("GET", "/api/v1/secrets", { host });
      expect(r).toMatchObject({
        kind: "Status",
        apiVersion: "v1",
        status: "Failure",
        reason: "Forbidden",
        code: 403,
      });
      expect((r as { message: string }).message).toContain(`Host "${host}" does not name this server`);
      expect((r as { message: string }).message).toContain("DNS rebinding");
    }
    // The Host guard comes first: a right token does not let a foreign Host in.
    expect(check("GET", "/api/v1/pods", { host: "evil.example:8123", ...BEARER }, AUTH)).toMatchObject({
      code: 403,
    });
  });

  it("answers a request with no Host 400", () => {
    expect(check("GET", "/version", {})).toMatchObject({ code: 400, reason: "BadRequest" });
  });
});

describe("the Origin guard on clock changes", () => {
  const host = { host: "127.0.0.1:8123" };
  it("takes clock changes with no Origin (curl, kubectl) and from the served origin", () => {
    expect(allowedOrigins(PLAIN)).toEqual(["http://127.0.0.1:8123", "http://localhost:8123"]);
    for (const action of ["pause", "play?speed=2", "seek?t=6m"]) {
      expect(check("POST", `/faultline/v1/${action}`, host)).toBe("ok");
      expect(check("POST", `/faultline/v1/${action}`, { ...host, origin: "http://127.0.0.1:8123" })).toBe(
        "ok",
      );
      expect(check("POST", `/faultline/v1/${action}`, { ...host, origin: "http://localhost:8123" })).toBe(
        "ok",
      );
    }
  });

  it("refuses a clock change from a foreign Origin, however the path is spelt", () => {
    for (const url of [
      "/faultline/v1/pause",
      "/faultline//v1/play?speed=9",
      "/faultline/v1/seek/?t=0",
      "/faultline/%76%31/pause",
    ]) {
      for (const origin of [
        "https://evil.example",
        "null",
        "http://127.0.0.1:9999",
        "https://127.0.0.1:8123",
      ]) {
        const r = check("POST", url, { ...host, origin });
        expect(r).toMatchObject({ kind: "Status", reason: "Forbidden", code: 403 });
        expect((r as { message: string }).message).toContain(`comes from Origin "${origin}"`);
      }
    }
  });

  it("refuses Sec-Fetch-Site cross-site and a form post from a foreign page with no Origin", () => {
    expect(check("POST", "/faultline/v1/pause", { ...host, "sec-fetch-site": "cross-site" })).toMatchObject({
      code: 403,
    });
    expect(check("POST", "/faultline/v1/pause", { ...host, "sec-fetch-site": "same-origin" })).toBe("ok");
    const form = { ...host, "content-type": "application/x-www-form-urlencoded" };
    expect(
      check("POST", "/faultline/v1/seek?t=0", { ...form, referer: "https://evil.example/page" }),
    ).toMatchObject({
      code: 403,
      message: expect.stringContaining("application/x-www-form-urlencoded post from another page"),
    });
    expect(check("POST", "/faultline/v1/seek?t=0", { ...form, referer: "http://127.0.0.1:8123/x" })).toBe(
      "ok",
    );
    expect(
      check("POST", "/faultline/v1/seek?t=0", {
        ...host,
        "content-type": "text/plain;charset=UTF-8",
        referer: "x",
      }),
    ).toMatchObject({ code: 403 });
    expect(check("POST", "/faultline/v1/seek?t=0", form)).toBe("ok");
  });

  it("lets reads from any Origin through (the browser hides their answers: no CORS header is sent)", () => {
    expect(check("GET", "/faultline/v1/clock", { ...host, origin: "https://evil.example" })).toBe("ok");
    expect(check("GET", "/api/v1/pods", { ...host, origin: "https://evil.example" })).toBe("ok");
  });
});

describe("the bearer token", () => {
  const host = { host: "127.0.0.1:8123" };
  it("answers a request without the token 401 with kube-apiserver's Status", () => {
    for (const authorization of [
      undefined,
      "",
      "Bearer",
      "Bearer wrong",
      "Bearer s3cret-toke",
      "Basic czNjcmV0LXRva2Vu",
    ]) {
      const headers = authorization === undefined ? host : { ...host, authorization };
      expect(guard("GET", "/api/v1/pods", headers, AUTH)?.toStatus()).toEqual({
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: "Unauthorized",
        reason: "Unauthorized",
        code: 401,
      });
    }
    expect(check("POST", "/faultline/v1/pause", host, AUTH)).toMatchObject({ code: 401 });
  });

  it("serves a request with the token, and the health checks without one", () => {
    expect(check("GET", "/api/v1/pods", { ...host, ...BEARER }, AUTH)).toBe("ok");
    expect(check("GET", "/api/v1/pods", { ...host, authorization: "bearer  s3cret-token" }, AUTH)).toBe("ok");
    for (const p of ["/healthz", "/livez", "/readyz"]) expect(check("GET", p, host, AUTH)).toBe("ok");
    expect(check("GET", "/version", host, AUTH)).toMatchObject({ code: 401 });
  });

  it("checks no token with --no-auth", () => {
    expect(check("GET", "/api/v1/pods", host, PLAIN)).toBe("ok");
  });
});
