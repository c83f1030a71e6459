/** The contract of a message with its own JSON form (Time, IntOrString, Quantity, raw JSON, ...). */

export interface NestedConversions {
  toJson(messageName: string, message: Record<string, unknown>): unknown;
  fromJson(messageName: string, value: unknown): Record<string, unknown> | undefined;
}

export interface SpecialType {
  toJson(message: Record<string, unknown>, nested: NestedConversions, messageName: string): unknown;
  /** The message to encode; undefined leaves the field out. Receives null for JSON null. */
  fromJson(value: unknown, nested: NestedConversions, messageName: string): Record<string, unknown> | undefined;
}
