/**
 * Requests that hold their seat for as long as a test wants: ConfigMaps labelled `held=<name>` wait in a
 * validating webhook on loopback until release() is called, so "the server is busy" is a state, not a race.
 */
import { expect } from "bun:test";
import { configurationFor, reply, startWebhookServer, type TestWebhookServer } from "../admission-plugins/_webhook/testing.ts";
import type { TestServer } from "./harness.ts";
import { configMap, sendJson } from "./_api.ts";

export interface HeldRequests {
  hook: TestWebhookServer;
  /** Answers every webhook call so far and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

export async function holdConfigMapCreates(server: TestServer, name: string): Promise<HeldRequests> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const hook = await startWebhookServer(async (review) => {
    await released;
    return reply(review, { allowed: true });
  });
  const configuration = configurationFor("ValidatingWebhookConfiguration", name, hook, {
    objectSelector: { matchLabels: { held: name } },
    timeoutSeconds: 30,
  });
  const answer = await sendJson(server, "POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", configuration);
  expect(answer.status).toBe(201);
  return {
    hook,
    release,
    close: async () => {
      release();
      await hook.close();
    },
  };
}

/** POST of a ConfigMap as `user` (impersonated by the admin), labelled so the webhook holds it when `held` names one. */
export function createConfigMapAs(server: TestServer, user: string, name: string, held?: string): Promise<Response> {
  const body = configMap("default", name, held ? { labels: { held } } : {});
  return server.request("POST", "/api/v1/namespaces/default/configmaps", {
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Accept: "application/json", "Impersonate-User": user },
  });
}

/** Polls until `probe` holds; the test's own timeout bounds the wait. */
export async function until(probe: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await probe())) await new Promise((resolve) => setTimeout(resolve, 20));
}
