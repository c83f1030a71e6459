/**
 * Loads kube's generated.proto files with protobufjs and reduces them to the messages the server encodes:
 * everything reachable from the given roots, as protobufjs JSON descriptors without comments or options.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import protobuf from "protobufjs";

function protoFilesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...protoFilesUnder(path));
    else if (entry.name === "generated.proto") found.push(path);
  }
  return found.sort();
}

/** Every generated.proto under protoDir, resolved; imports are named relative to protoDir as in kube. */
export function loadProtoRoot(protoDir: string): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith(protoDir) ? target : join(protoDir, target));
  root.loadSync(protoFilesUnder(protoDir), { keepCase: true });
  root.resolveAll();
  return root;
}

/** The message and its fields' message types, transitively, as fully qualified names without the leading dot. */
export function reachableMessages(root: protobuf.Root, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const field of root.lookupType(name).fieldsArray) {
      if (field.resolvedType instanceof protobuf.Type) pending.push(field.resolvedType.fullName.slice(1));
    }
  }
  return seen;
}

type FieldDescriptor = { type: string; id: number; rule?: string; keyType?: string };
// protobufjs reads a message without an edition as proto3 (implicit presence would drop explicit zeros).
type MessageDescriptor = { edition: "proto2"; fields: Record<string, FieldDescriptor> };
/** protobufjs INamespace JSON: packages nest as `nested` objects down to the messages. */
export type NamespaceDescriptor = { nested: Record<string, NamespaceDescriptor | MessageDescriptor> };

function fieldDescriptor(field: protobuf.Field): FieldDescriptor {
  // Fully qualified type names keep the descriptor independent of package-relative resolution.
  const type = field.resolvedType ? field.resolvedType.fullName : field.type;
  const descriptor: FieldDescriptor = { type, id: field.id };
  if (field.repeated) descriptor.rule = "repeated";
  if (field instanceof protobuf.MapField) descriptor.keyType = field.keyType;
  return descriptor;
}

/** The selected messages as a nested protobufjs descriptor, keys sorted so the output is deterministic. */
export function descriptorsOf(root: protobuf.Root, messages: Set<string>): NamespaceDescriptor {
  const top: NamespaceDescriptor = { nested: {} };
  for (const name of [...messages].sort()) {
    const type = root.lookupType(name);
    const parts = name.split(".");
    let namespace = top;
    for (const part of parts.slice(0, -1)) {
      namespace = (namespace.nested[part] ??= { nested: {} }) as NamespaceDescriptor;
    }
    const fields: Record<string, FieldDescriptor> = {};
    for (const field of [...type.fieldsArray].sort((a, b) => a.id - b.id)) fields[field.name] = fieldDescriptor(field);
    namespace.nested[parts[parts.length - 1]] = { edition: "proto2", fields };
  }
  return top;
}
