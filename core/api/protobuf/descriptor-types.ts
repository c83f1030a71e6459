/** Shapes of the generated protobuf data (descriptors.gen.ts), shared by the generator and the codec. */

export interface ProtoField {
  type: string;
  id: number;
  rule?: string;
  keyType?: string;
}

/** protobufjs JSON descriptors: packages nest down to messages with fields. */
export interface ProtoNamespace {
  nested?: Record<string, ProtoNamespace>;
  edition?: string;
  fields?: Record<string, ProtoField>;
}

export interface MessageJsonFacts {
  /** proto field name → JSON name, only where they differ. */
  names?: Record<string, string>;
  /** Fields whose message is embedded inline (`json:",inline"`) in the JSON object. */
  inline?: string[];
  /** Scalar fields kept when zero: Go JSON prints them (no omitempty) or they are pointers where zero means something. */
  keepZero?: string[];
  /** The message wraps a Go slice: JSON is the array of its `items`. */
  list?: true;
}
