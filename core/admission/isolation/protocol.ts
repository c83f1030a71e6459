/**
 * The messages between the server and an admission plugin's worker (structured-clone data only). The server
 * sends a request's attributes without their callbacks; the worker answers with what the plugin did to them
 * (the changed object, warnings, audit annotations, a reinvocation request) or the Status it refused with.
 */
import type { KubeObject, StatusDetails } from "../../api/types.ts";
import type { ObjectReference } from "../../api/client.ts";
import type { AdmissionAttributes } from "../types.ts";

/** The attributes as data: the callbacks and the reinvocation context stay with the server. */
export type WireAttributes = Omit<AdmissionAttributes, "addWarning" | "addAuditAnnotation" | "reinvocation"> & {
  isReinvoke: boolean;
  /** This plugin's reinvocation memory (its entry of kube's ReinvocationContext values). */
  reinvocationValue: unknown;
};

/** A get (name set) or list (no name) of the plugin's read-only client. */
export type ClientRef = Omit<ObjectReference, "name"> & { name?: string };

/** What the server needs to know of a loaded plugin. */
export interface PluginInfo {
  name: string;
  admit: boolean;
  validate: boolean;
  sideEffects: boolean;
  timeoutMs?: number;
  /** The declarative `handles` of a defineAdmissionPlugin plugin: the server then asks no worker about other requests. */
  handles?: { operations: readonly string[]; resources: readonly string[] };
}

export interface WireStatus {
  code: number;
  reason: string;
  message: string;
  details?: StatusDetails;
}

export interface WireError {
  name: string;
  message: string;
}

export type ToWorker =
  | { type: "load"; path: string; pluginConfig: unknown; config: unknown }
  | { type: "call"; id: number; phase: "admit" | "validate"; attributes: WireAttributes }
  | { type: "client-reply"; id: number; value?: unknown; error?: WireError };

export interface CallOutcome {
  id: number;
  /** False when the plugin's handles() turned the request down: nothing ran. */
  handled: boolean;
  object?: KubeObject | null;
  warnings: string[];
  auditAnnotations: [string, string][];
  reinvoke: boolean;
  reinvocationValue: unknown;
  refusal?: WireStatus;
}

export type FromWorker =
  | { type: "loaded"; info: PluginInfo }
  | { type: "load-failed"; error: WireError }
  | ({ type: "outcome" } & CallOutcome)
  | { type: "client"; id: number; method: "get" | "list"; ref: ClientRef }
  | { type: "log"; level: "info" | "warn" | "error"; message: string };
