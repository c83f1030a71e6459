import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FlagError, helpText, parseFlags } from "./flags.ts";

const dir = mkdtempSync(join(tmpdir(), "kubun-flags-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(text: string): string {
  const path = join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
}

test("parseFlags() with no arguments returns kube-apiserver's defaults", () => {
  expect(parseFlags([])).toMatchObject({
    config: "",
    securePort: 6443,
    bindAddress: "127.0.0.1",
    dataDir: "./kubun-data",
    tlsCertFile: "",
    tlsPrivateKeyFile: "",
    clientCaFile: "",
    maxRequestBytes: 3145728,
    readHeaderTimeoutMs: 32_000,
    idleConnectionTimeoutMs: 90_000,
    maxConnections: 0,
    watchCacheHistoryMs: 300_000,
    storageSync: "FULL",
    dataDirShared: false,
    help: false,
    version: false,
    anonymousAuth: true,
    oidcUsernameClaim: "sub",
    oidcSigningAlgs: ["RS256"],
    authenticationTokenWebhookCacheTtlMs: 120_000,
    serviceAccountLookup: true,
    serviceAccountKeyFile: [],
  });
});

test("parseFlags() adds up repeated and comma-separated list flags", () => {
  const config = parseFlags(["--service-account-key-file=a.pem", "--service-account-key-file", "b.pem,c.pem"]);
  expect(config.serviceAccountKeyFile).toEqual(["a.pem", "b.pem", "c.pem"]);
});

test("parseFlags() accepts --flag=value and --flag value forms", () => {
  const config = parseFlags(["--secure-port=7443", "--data-dir", "/tmp/x", "--watch-cache-history", "1h30m", "--storage-sync=normal"]);
  expect(config.securePort).toBe(7443);
  expect(config.dataDir).toBe("/tmp/x");
  expect(config.watchCacheHistoryMs).toBe(5_400_000);
  expect(config.storageSync).toBe("NORMAL");
});

test("boolean flags are set bare and cleared with =false", () => {
  expect(parseFlags(["--version"]).version).toBe(true);
  expect(parseFlags(["--version=false"]).version).toBe(false);
  expect(parseFlags(["-h"]).help).toBe(true);
});

test("--data-dir-shared is a bool flag (pflag's boolValue, strconv.ParseBool spellings): bare or =true shares, a bad value is refused", () => {
  expect(parseFlags(["--data-dir-shared"]).dataDirShared).toBe(true);
  expect(parseFlags(["--data-dir-shared=T"]).dataDirShared).toBe(true);
  expect(parseFlags(["--data-dir-shared=false"]).dataDirShared).toBe(false);
  expect(() => parseFlags(["--data-dir-shared=yes"])).toThrow(
    'invalid argument "yes" for "--data-dir-shared" flag: strconv.ParseBool: parsing "yes": invalid syntax',
  );
  expect(helpText()).toContain("--data-dir-shared");
});

test("an unknown flag fails in cobra's words", () => {
  expect(() => parseFlags(["--foo"])).toThrow(new FlagError("unknown flag: --foo"));
  expect(() => parseFlags(["--foo=1"])).toThrow(new FlagError("unknown flag: --foo"));
  expect(() => parseFlags(["-x"])).toThrow(new FlagError("unknown shorthand flag: 'x' in -x"));
});

test("a malformed value names the flag and the parse error", () => {
  expect(() => parseFlags(["--secure-port=abc"])).toThrow(
    'invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax',
  );
  expect(() => parseFlags(["--data-dir"])).toThrow("flag needs an argument: --data-dir");
  expect(() => parseFlags(["serve"])).toThrow('"kubun" does not take any arguments, got ["serve"]');
});

test("the config file sets flags by name and the command line wins over it", () => {
  const path = configFile("secure-port: 7443\ndata-dir: /var/lib/kubun\nwatch-cache-history: 90s\n");
  const config = parseFlags([`--config=${path}`, "--secure-port", "8443"]);
  expect(config.securePort).toBe(8443);
  expect(config.dataDir).toBe("/var/lib/kubun");
  expect(config.watchCacheHistoryMs).toBe(90_000);
});

test("environment variables sit between the config file and the command line", () => {
  const path = configFile("secure-port: 7443\nbind-address: 10.0.0.1\n");
  const env = { KUBUN_CONFIG: path, KUBUN_SECURE_PORT: "9443", KUBUN_DATA_DIR: "/env" };
  const config = parseFlags(["--data-dir=/cli"], env);
  expect(config.securePort).toBe(9443);
  expect(config.bindAddress).toBe("10.0.0.1");
  expect(config.dataDir).toBe("/cli");
});

test("an unknown key in the config file is rejected", () => {
  const path = configFile("secure-prot: 1\n");
  expect(() => parseFlags(["--config", path])).toThrow(`unknown flag in config file ${path}: secure-prot`);
});

test("helpText() groups flags in sections with their types and non-zero defaults", () => {
  const text = helpText();
  const sections = [...text.matchAll(/^([A-Z][a-z -]+ flags):$/gm)].map((match) => match[1]);
  expect(sections).toEqual([
    "Generic flags",
    "Secure serving flags",
    "Authentication flags",
    "Admission flags",
    "Authorization flags",
    "Etcd flags",
    "Storage flags",
    "Metrics flags",
    "Misc flags",
    "Controller flags",
    "Leader-election flags",
    "Audit flags",
    "Logs flags",
    "Global flags",
  ]);
  expect(text).toMatch(
    /^ {6}--logging-format string +Sets the log format\. Permitted formats: "json" \(gated by LoggingBetaOptions\), "text"\. \(default "text"\)$/m,
  );
  expect(text).toMatch(/^ {2}-v, --v Level +number for the log level verbosity$/m);
  expect(text).toMatch(/^ {6}--secure-port int +The port .*\(default 6443\)$/m);
  expect(text).toMatch(/^ {6}--data-dir string +.*\(default "\.\/kubun-data"\)$/m);
  expect(text).toMatch(/^ {6}--watch-cache-history duration +.*\(default 5m0s\)$/m);
  expect(text).toMatch(/^ {2}-h, --help +help for kubun$/m);
  expect(text).not.toMatch(/--tls-cert-file string .*\(default/);
});
