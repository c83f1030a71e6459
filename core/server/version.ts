/** The `/version` body (kube's version.Info), fields in kube's order. */
import process from "node:process";

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export interface VersionOptions {
  /** Commit the binary was built from; kube's placeholder when unknown. */
  gitCommit?: string;
  /** RFC 3339 build time; kube's zero date when unknown. */
  buildDate?: string;
}

// kubectl parses gitVersion as semver, so keep it "v<major>.<minor>.<patch>[-<pre-release>]".
export const GIT_VERSION = "v1.26.15-kubun";

const GO_ARCH: Record<string, string> = { x64: "amd64", ia32: "386", arm64: "arm64", arm: "arm" };

function runtimeVersion(): string {
  const versions = process.versions as Record<string, string | undefined>;
  if (versions.bun) return `bun-${versions.bun}`;
  if (versions.deno) return `deno-${versions.deno}`;
  return `node-${versions.node}`;
}

export function versionInfo(options: VersionOptions = {}): VersionInfo {
  return {
    major: "1",
    minor: "26",
    gitVersion: GIT_VERSION,
    gitCommit: options.gitCommit ?? "unknown",
    gitTreeState: "clean",
    buildDate: options.buildDate ?? "1970-01-01T00:00:00Z",
    goVersion: runtimeVersion(),
    compiler: "bun",
    platform: `${process.platform}/${GO_ARCH[process.arch] ?? process.arch}`,
  };
}
