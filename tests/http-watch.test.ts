/** Watch over HTTP: initial events, resuming, bookmarks, timeouts, the legacy path, and no lost events. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace, expectStatus, getJson, type Json, openWatch, ROOT_CA_CONFIGMAP, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { describe, type WatchEvent } from "./watch-stream.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const collection = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

test("a watch without resourceVersion starts with a synthetic ADDED per object, then the changes", async () => {
  await createNamespace(server, "w-initial");
  await createConfigMap(server, "w-initial", "x");
  await createConfigMap(server, "w-initial", "y");
  for (const query of ["watch=true", "watch=true&resourceVersion=0"]) {
    const watch = await openWatch(server, `${collection("w-initial")}?${query}`);
    try {
      // The namespace also holds the root CA ConfigMap the controllers publish into every namespace.
      const initial = [await watch.next(), await watch.next(), await watch.next()];
      const own = initial.filter((event) => event?.object.metadata.name !== ROOT_CA_CONFIGMAP);
      expect(own.map((event) => `${event?.type} ${event?.object.metadata.name}`).sort()).toEqual(["ADDED x", "ADDED y"]);
      expect(own[0]?.object).toMatchObject({ kind: "ConfigMap", apiVersion: "v1" });
    } finally {
      await watch.close();
    }
  }
});

test("a watch from a resourceVersion sends only the later events, without synthetic ADDED", async () => {
  await createNamespace(server, "w-resume");
  const p = await createConfigMap(server, "w-resume", "p");
  const updated = await sendJson(server, "PUT", `${collection("w-resume")}/p`, { ...p, data: { k: "2" } });
  const q = await createConfigMap(server, "w-resume", "q");
  const watch = await openWatch(server, `${collection("w-resume")}?watch=true&resourceVersion=${p.metadata.resourceVersion}`);
  try {
    const events = [await watch.next(), await watch.next()];
    expect(events.map((event) => describe(event!))).toEqual([
      `MODIFIED p@${updated.body.metadata.resourceVersion}`,
      `ADDED q@${q.metadata.resourceVersion}`,
    ]);
    expect(await watch.drain(300)).toEqual([]);
  } finally {
    await watch.close();
  }
});

test("a watch from a resourceVersion the store has not reached is answered 200 and gets the events past it (Cacher.Watch, watchCache.getAllEventsSinceLocked)", async () => {
  await createNamespace(server, "w-future");
  const latest = Number((await getJson(server, collection("w-future"))).metadata.resourceVersion);
  // Far enough ahead that the background writes (leases) cannot reach it while the watch opens.
  const ahead = latest + 20;
  const watch = await openWatch(server, `${collection("w-future")}?watch=true&resourceVersion=${ahead}`);
  try {
    const created: Json[] = [];
    for (let i = 0; i < 25; i++) created.push(await createConfigMap(server, "w-future", `f${i}`));
    const last = created.at(-1)!.metadata.name;
    const events = await watch.until((event) => event.object.metadata.name === last);
    const past = created.filter((cm) => Number(cm.metadata.resourceVersion) > ahead);
    const own = events.filter((event) => event.object.metadata.name !== ROOT_CA_CONFIGMAP);
    expect(own.map(describe)).toEqual(past.map((cm) => `ADDED ${cm.metadata.name}@${cm.metadata.resourceVersion}`));
  } finally {
    await watch.close();
  }
});

test("a watch reports DELETED with the last state of the object", async () => {
  await createNamespace(server, "w-delete");
  const start = (await getJson(server, collection("w-delete"))).metadata.resourceVersion;
  const watch = await openWatch(server, `${collection("w-delete")}?watch=true&resourceVersion=${start}`);
  try {
    await createConfigMap(server, "w-delete", "gone", { labels: { keep: "me" } });
    expect((await sendJson(server, "DELETE", `${collection("w-delete")}/gone`)).status).toBe(200);
    const events = await watch.until((event) => event.type === "DELETED");
    expect(events.map((event) => event.type)).toEqual(["ADDED", "DELETED"]);
    expect(events[1]!.object.metadata.labels).toEqual({ keep: "me" });
    expect(Number(events[1]!.object.metadata.resourceVersion)).toBeGreaterThan(Number(events[0]!.object.metadata.resourceVersion));
  } finally {
    await watch.close();
  }
});

test("a label-selected watch sees an object leave the selection as DELETED and enter it as ADDED", async () => {
  await createNamespace(server, "w-select");
  const o = await createConfigMap(server, "w-select", "o", { labels: { app: "web" } });
  const watch = await openWatch(
    server,
    `${collection("w-select")}?watch=true&labelSelector=app%3Dweb&resourceVersion=${o.metadata.resourceVersion}`,
  );
  try {
    const patch = (labels: Json) =>
      sendJson(server, "PATCH", `${collection("w-select")}/o`, { metadata: { labels } }, "application/merge-patch+json");
    expect((await patch({ app: "db" })).status).toBe(200);
    expect((await patch({ app: "web" })).status).toBe(200);
    const events = [await watch.next(), await watch.next()];
    expect(events.map((event) => `${event?.type} ${event?.object.metadata.labels.app}`)).toEqual(["DELETED db", "ADDED web"]);
  } finally {
    await watch.close();
  }
});

test("allowWatchBookmarks with timeoutSeconds=4 delivers a BOOKMARK before the stream ends", async () => {
  await createNamespace(server, "w-bookmark");
  const start = Number((await getJson(server, collection("w-bookmark"))).metadata.resourceVersion);
  const watch = await openWatch(
    server,
    `${collection("w-bookmark")}?watch=true&allowWatchBookmarks=true&timeoutSeconds=4&resourceVersion=${start}`,
  );
  try {
    const events = await watch.drain(6000);
    const bookmarks = events.filter((event) => event.type === "BOOKMARK");
    expect(bookmarks.length).toBeGreaterThanOrEqual(1);
    const bookmark = bookmarks[0]!.object;
    expect(bookmark).toMatchObject({ kind: "ConfigMap", apiVersion: "v1" });
    expect(Number(bookmark.metadata.resourceVersion)).toBeGreaterThanOrEqual(start);
    expect(await watch.ended(1000)).toBe(true);
  } finally {
    await watch.close();
  }
});

test("timeoutSeconds ends the watch stream after that many seconds", async () => {
  await createNamespace(server, "w-timeout");
  const started = Date.now();
  const watch = await openWatch(server, `${collection("w-timeout")}?watch=true&timeoutSeconds=2`);
  try {
    expect(await watch.ended(6000)).toBe(true);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1500);
    expect(elapsed).toBeLessThan(5000);
  } finally {
    await watch.close();
  }
});

test("the legacy /api/v1/watch/namespaces/x/configmaps path streams the same events", async () => {
  await createNamespace(server, "w-legacy");
  await createConfigMap(server, "w-legacy", "before");
  const watch = await openWatch(server, "/api/v1/watch/namespaces/w-legacy/configmaps");
  try {
    const initial = await watch.until((event) => event.object.metadata.name === "before");
    expect(describe(initial.at(-1)!)).toStartWith("ADDED before@");
    await createConfigMap(server, "w-legacy", "after");
    const later = await watch.until((event) => event.object.metadata.name === "after");
    expect(describe(later.at(-1)!)).toStartWith("ADDED after@");
  } finally {
    await watch.close();
  }
});

test("the legacy watch path for one name streams only that object", async () => {
  await createNamespace(server, "w-legacy-one");
  const start = (await getJson(server, collection("w-legacy-one"))).metadata.resourceVersion;
  const watch = await openWatch(server, `/api/v1/watch/namespaces/w-legacy-one/configmaps/chosen?resourceVersion=${start}`);
  try {
    await createConfigMap(server, "w-legacy-one", "other");
    await createConfigMap(server, "w-legacy-one", "chosen");
    expect(describe((await watch.next())!)).toStartWith("ADDED chosen@");
    expect(await watch.drain(300)).toEqual([]);
  } finally {
    await watch.close();
  }
});

test("the legacy watch path for one name takes only a field selector naming that object (ListResource's 400)", async () => {
  await createNamespace(server, "w-legacy-fields");
  const path = "/api/v1/watch/namespaces/w-legacy-fields/configmaps/chosen";
  for (const selector of ["metadata.name%3Dother", "metadata.namespace%3Dw-legacy-fields", "metadata.name!%3Dchosen"]) {
    const answer = await sendJson(server, "GET", `${path}?fieldSelector=${selector}`);
    expectStatus(answer, 400, "BadRequest", "fieldSelector metadata.name doesn't match requested name");
  }
  await createConfigMap(server, "w-legacy-fields", "chosen");
  const watch = await openWatch(server, `${path}?fieldSelector=metadata.name%3Dchosen,metadata.namespace%3Dw-legacy-fields`);
  try {
    expect(describe((await watch.next())!)).toStartWith("ADDED chosen@");
  } finally {
    await watch.close();
  }
});

test("200 concurrent creates and updates each reach a watcher exactly once, in resourceVersion order", async () => {
  const ns = "w-concurrent";
  await createNamespace(server, ns);
  const counters = ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"];
  for (const name of counters) await createConfigMap(server, ns, name);
  const start = (await getJson(server, collection(ns))).metadata.resourceVersion;
  const watch = await openWatch(server, `${collection(ns)}?watch=true&resourceVersion=${start}`);
  try {
    const creates = Array.from(
      { length: 100 },
      (_, i) => sendJson(server, "POST", collection(ns), { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `n${i}` } }),
    );
    const updates = Array.from(
      { length: 100 },
      (_, i) =>
        sendJson(server, "PATCH", `${collection(ns)}/${counters[i % 10]}`, { data: { round: String(i) } }, "application/merge-patch+json"),
    );
    const answers = await Promise.all([...creates, ...updates]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(100).fill(200), ...Array(100).fill(201)]);
    const acknowledged = answers.map((answer) => Number(answer.body.metadata.resourceVersion));
    expect(new Set(acknowledged).size).toBe(200);
    const last = Math.max(...acknowledged);

    const events: WatchEvent[] = await watch.until((event) => Number(event.object.metadata.resourceVersion) === last, 20_000);
    events.push(...(await watch.drain(300)));
    const seen = events.map((event) => Number(event.object.metadata.resourceVersion));
    expect(seen).toEqual([...acknowledged].sort((x, y) => x - y));
    expect(events.filter((event) => event.type === "ADDED")).toHaveLength(100);
    expect(events.filter((event) => event.type === "MODIFIED")).toHaveLength(100);
  } finally {
    await watch.close();
  }
});
