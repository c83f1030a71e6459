/**
 * defineAdmissionPlugin: turns a custom plugin's declaration (what it handles, `admit`, `validate`) into the
 * factory the server loads. Each call is bounded by a timeout (default 10 s, like a webhook's).
 */
import type {
  AdmissionAttributes,
  AdmissionPlugin,
  AdmissionPluginContext,
  AdmissionPluginFactory,
  Operation,
  ValidationAttributes,
} from "./types.ts";

export const DEFAULT_PLUGIN_TIMEOUT_MS = 10_000;

export interface AdmissionPluginDefinition {
  name: string;
  handles: {
    /** e.g. ["CREATE", "UPDATE"]; "*" for all. */
    operations: readonly (Operation | "*")[];
    /** Plural resources, `resource.group` outside the core group, `resource/subresource`; "*" for all. */
    resources: readonly string[];
  };
  /** May change `request.object`; throw to refuse. */
  admit?(request: AdmissionAttributes, context: AdmissionPluginContext): Promise<void> | void;
  /** Throw to refuse. */
  validate?(request: ValidationAttributes, context: AdmissionPluginContext): Promise<void> | void;
  /** Set when the plugin changes anything outside the request; dry-run requests it handles then fail. */
  sideEffects?: boolean;
  timeoutSeconds?: number;
}

export function defineAdmissionPlugin(definition: AdmissionPluginDefinition): AdmissionPluginFactory {
  return (context) => {
    const { admit, validate } = definition;
    const plugin: AdmissionPlugin = {
      name: definition.name,
      handles: (attributes) => handlesRequest(definition.handles, attributes),
      rules: definition.handles,
      admit: admit && ((attributes) => admit(attributes, context)),
      validate: validate && ((attributes) => validate(attributes, context)),
      sideEffects: definition.sideEffects ?? false,
      timeoutMs: (definition.timeoutSeconds ?? DEFAULT_PLUGIN_TIMEOUT_MS / 1000) * 1000,
    };
    return plugin;
  };
}

export function handlesRequest(handles: AdmissionPluginDefinition["handles"], attributes: AdmissionAttributes): boolean {
  if (!handles.operations.includes("*") && !handles.operations.includes(attributes.operation)) return false;
  const { group, resource } = attributes.resource;
  const qualified = group === "" ? resource : `${resource}.${group}`;
  const named = attributes.subresource ? `${qualified}/${attributes.subresource}` : qualified;
  return handles.resources.some((pattern) => pattern === "*" ? !attributes.subresource : pattern === named || pattern === "*/*");
}
