/**
 * Admission plugin names at start-up: kube's AdmissionOptions.Validate refuses unknown names; kubun also
 * refuses enabling a kube plugin it does not implement unless --accept-unimplemented-admission-plugins names
 * it, and accepts disabling any name kube-apiserver 1.26 knows.
 */
import { expect, test } from "bun:test";
import { startServer } from "./harness.ts";

test("an unknown admission plugin name stops start-up with AdmissionOptions.Validate's message", async () => {
  await expect(startServer(["--enable-admission-plugins=NoSuchPlugin"])).rejects.toThrow(
    /enable-admission-plugins plugin "NoSuchPlugin" is unknown/,
  );
});

test("enabling a kube plugin kubun does not implement stops start-up, naming the opt-in flag", async () => {
  await expect(startServer(["--enable-admission-plugins=AlwaysPullImages"])).rejects.toThrow(
    /enable-admission-plugins plugin "AlwaysPullImages" is not implemented by kubun; drop it, or accept it as a no-op with --accept-unimplemented-admission-plugins=AlwaysPullImages/,
  );
});

test("an unimplemented plugin accepted by name starts, and disabling PersistentVolumeLabel is harmless", async () => {
  const server = await startServer([
    "--enable-admission-plugins=AlwaysPullImages",
    "--accept-unimplemented-admission-plugins=AlwaysPullImages",
    "--disable-admission-plugins=PersistentVolumeLabel,ValidatingAdmissionPolicy",
  ]);
  try {
    const created = await server.kubectl(["create", "configmap", "alive", "--from-literal=a=b"]);
    expect(created.code).toBe(0);
    // AlwaysPullImages would have set imagePullPolicy Always; accepted as a no-op, kube's default stays.
    await server.kubectl(["run", "p", "--image=nginx:1.25"]);
    const policy = await server.kubectl(["get", "pod", "p", "-o", "jsonpath={.spec.containers[0].imagePullPolicy}"]);
    expect(policy.stdout).toBe("IfNotPresent");
  } finally {
    await server.stop();
  }
});

test("--help documents the opt-in flag", async () => {
  const help = Bun.spawnSync(["dist/kubun", "--help"], { cwd: `${import.meta.dir}/..` });
  expect(help.stdout.toString()).toContain("--accept-unimplemented-admission-plugins");
});
