import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { compactVerify } from "jose";
import { detachedSignature } from "./detached-jws.ts";

test("detachedSignature() is an HS256 JWS keyed by the token secret whose payload is left out", async () => {
  const signature = await detachedSignature("kubeconfig text", "abcdef", "0123456789abcdef");
  const [header, payload, mac] = signature.split(".");
  expect(payload).toBe("");
  expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({ alg: "HS256", kid: "abcdef" });
  const attached = `${header}.${Buffer.from("kubeconfig text").toString("base64url")}.${mac}`;
  const verified = await compactVerify(attached, new TextEncoder().encode("0123456789abcdef"), { algorithms: ["HS256"] });
  expect(new TextDecoder().decode(verified.payload)).toBe("kubeconfig text");
  await expect(compactVerify(attached, new TextEncoder().encode("fedcba9876543210"))).rejects.toThrow();
});

test("detachedSignature() is deterministic, so re-signing the same content changes nothing", async () => {
  expect(await detachedSignature("x", "abcdef", "0123456789abcdef")).toBe(await detachedSignature("x", "abcdef", "0123456789abcdef"));
});

test("detachedSignature() matches kube's ComputeDetachedSignature byte for byte", async () => {
  const content = "Hello from the other side. I must have called a thousand times.";
  expect(await detachedSignature(content, "joshua", "my voice is my passcode")).toBe(
    "eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8",
  );
  expect(await detachedSignature("", "joshua", "my voice is my passcode")).toBe(
    "eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk",
  );
});
