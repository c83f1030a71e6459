/**
 * A failed KMS plugin call as kube reports it: grpc-go's `rpc error: code = <Code> desc = <message>`, with the
 * code's Go name kept for kube's transformation metrics (getErrorCode: the gRPC code of a wrapped status error).
 */

/** grpc-go's codes.Code names, by number. */
const CODE_NAMES = [
  "OK",
  "Canceled",
  "Unknown",
  "InvalidArgument",
  "DeadlineExceeded",
  "NotFound",
  "AlreadyExists",
  "PermissionDenied",
  "ResourceExhausted",
  "FailedPrecondition",
  "Aborted",
  "OutOfRange",
  "Unimplemented",
  "Internal",
  "Unavailable",
  "DataLoss",
  "Unauthenticated",
];

export class GrpcError extends Error {
  /** The status code's name as grpc-go prints it: `Unavailable`, `DeadlineExceeded`. */
  readonly grpcCode: string;

  constructor(code: number, details: string) {
    const name = CODE_NAMES[code] ?? `Code(${code})`;
    super(`rpc error: code = ${name} desc = ${details}`);
    this.name = "GrpcError";
    this.grpcCode = name;
  }
}

/** The gRPC code name of the error or of an error it wraps (its `cause`), if it is a failed plugin call. */
export function grpcCodeOf(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof GrpcError) return current.grpcCode;
  }
  return undefined;
}
