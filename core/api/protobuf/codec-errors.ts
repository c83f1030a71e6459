/** Errors of the protobuf codec; the HTTP layer turns them into kube's 400/415/406 answers. */

export class ProtobufCodecError extends Error {
  /** UnknownKind: no protobuf message for the apiVersion/kind. Malformed: the bytes or values do not fit. */
  readonly reason: "UnknownKind" | "Malformed";

  constructor(reason: "UnknownKind" | "Malformed", message: string) {
    super(message);
    this.name = "ProtobufCodecError";
    this.reason = reason;
  }
}

export function newUnknownProtobufKind(apiVersion: string, kind: string): ProtobufCodecError {
  return new ProtobufCodecError("UnknownKind", `no kind "${kind}" is registered for version "${apiVersion}"`);
}

export function newMalformedProtobuf(message: string): ProtobufCodecError {
  return new ProtobufCodecError("Malformed", message);
}

export function isProtobufCodecError(error: unknown): error is ProtobufCodecError {
  return error instanceof ProtobufCodecError;
}
