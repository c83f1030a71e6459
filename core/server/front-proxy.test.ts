import { expect, test } from "bun:test";
import { parseFlags } from "./flags.ts";
import { withFrontProxyDefaults } from "./front-proxy.ts";

test("withFrontProxyDefaults() trusts the data dir's front-proxy CA with kubeadm's header names when no CA is given", () => {
  const config = withFrontProxyDefaults(parseFlags(["--data-dir=/var/kubun"]));
  expect(config.requestheaderClientCaFile).toBe("/var/kubun/front-proxy-ca.crt");
  expect(config.requestheaderAllowedNames).toEqual(["front-proxy-client"]);
  expect(config.requestheaderUsernameHeaders).toEqual(["X-Remote-User"]);
  expect(config.requestheaderGroupHeaders).toEqual(["X-Remote-Group"]);
  expect(config.requestheaderExtraHeadersPrefix).toEqual(["X-Remote-Extra-"]);
});

test("withFrontProxyDefaults() leaves an explicitly configured request-header CA and its headers alone", () => {
  const flags = parseFlags(["--requestheader-client-ca-file=/etc/proxy-ca.crt", "--requestheader-username-headers=X-User"]);
  expect(withFrontProxyDefaults(flags)).toEqual(flags);
});
