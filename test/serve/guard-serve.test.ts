// The guard through a real `serve` (src/serve/guard.ts wired in server.ts): foreign Host, foreign
// Origin on a clock change, and the bearer token (made over HTTPS only), over a socket as a browser
// or curl sends them.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/load/index.ts";
import { type Serving, startServe } from "../../src/serve/index.ts";
import { request } from "./helpers.ts";

/** A rebinding page's Host is not the certificate's name: the test trusts the CA and skips the name check. */
const anyName = () => undefined;

let serving: Serving;
let port: number;
let bearer: { authorization: string };
beforeAll(async () => {
  serving = await startServe(loadScenarioFile("examples/node-power-loss.yaml"), {
    at: 70,
    port: 0,
    tls: true,
  });
  port = serving.port;
  bearer = { authorization: `Bearer ${serving.token}` };
}, 120_000);
afterAll(async () => {
  await serving?.stop();
});

describe("serve's guard, over the wire", () => {
  it("makes a token per start", () => {
    expect(serving.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses a foreign Host (DNS rebinding) and serves localhost's", async () => {
    const evil = await request(`${serving.url}/api/v1/nodes`, {
      ca: serving.ca,
      checkServerIdentity: anyName,
      headers: { ...bearer, host: `evil.example:${port}` },
    });
    expect(evil.status).toBe(403);
    expect(evil.json()).toMatchObject({ kind: "Status", reason: "Forbidden", code: 403 });
    expect(evil.json().message).toContain(`Host "evil.example:${port}" does not name this server`);
    const local = await request(`${serving.url}/api/v1/nodes`, {
      ca: serving.ca,
      headers: { ...bearer, host: `localhost:${port}` },
    });
    expect(local.status).toBe(200);
    expect(local.json().kind).toBe("NodeList");
  }, 60_000);

  it("refuses a clock change from a foreign Origin and takes one from the served origin and from curl", async () => {
    const before = serving.cluster.playing;
    const foreign = await request(`${serving.url}/faultline/v1/play?speed=5`, {
      ca: serving.ca,
      method: "POST",
      headers: {
        ...bearer,
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json().message).toContain('comes from Origin "https://evil.example"');
    expect(serving.cluster.playing).toBe(before);
    const same = await request(`${serving.url}/faultline/v1/play?speed=5`, {
      ca: serving.ca,
      method: "POST",
      headers: { ...bearer, origin: `https://127.0.0.1:${port}` },
    });
    expect(same.status).toBe(200);
    expect(serving.cluster.playing).toBe(true);
    const curl = await request(`${serving.url}/faultline/v1/pause`, {
      ca: serving.ca,
      method: "POST",
      headers: bearer,
    });
    expect(curl.status).toBe(200);
    expect(serving.cluster.playing).toBe(false);
  }, 60_000);

  it("answers 401 without the token or with a wrong one, 200 with it; health checks are open", async () => {
    const none = await request(`${serving.url}/api/v1/pods`, { ca: serving.ca });
    expect(none.status).toBe(401);
    expect(none.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "Unauthorized",
      reason: "Unauthorized",
      code: 401,
    });
    expect(
      (
        await request(`${serving.url}/api/v1/pods`, {
          ca: serving.ca,
          headers: { authorization: "Bearer nope" },
        })
      ).status,
    ).toBe(401);
    expect(
      (await request(`${serving.url}/faultline/v1/pause`, { ca: serving.ca, method: "POST" })).status,
    ).toBe(401);
    expect((await request(`${serving.url}/api/v1/pods`, { ca: serving.ca, headers: bearer })).status).toBe(
      200,
    );
    expect((await request(`${serving.url}/healthz`, { ca: serving.ca })).body).toBe("ok");
  }, 60_000);

  it("checks no token with auth: false (serve --no-auth) or over plain HTTP, and still checks the Host", async () => {
    const scenario = loadScenarioFile("examples/node-power-loss.yaml");
    for (const options of [{ tls: true, auth: false }, { tls: false }]) {
      const open = await startServe(scenario, { at: 70, port: 0, ...options });
      try {
        expect(open.token).toBeUndefined();
        const ca = open.ca;
        expect((await request(`${open.url}/api/v1/pods`, { ca })).status).toBe(200);
        const evil = { ca, checkServerIdentity: anyName, headers: { host: "evil.example" } };
        expect((await request(`${open.url}/api/v1/pods`, evil)).status).toBe(403);
        const foreign = { ca, method: "POST", headers: { origin: "https://evil.example" } };
        expect((await request(`${open.url}/faultline/v1/pause`, foreign)).status).toBe(403);
      } finally {
        await open.stop();
      }
    }
  }, 60_000);
});
