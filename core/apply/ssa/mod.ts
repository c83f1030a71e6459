/** Server-side apply and managedFields (spec 2.3, 3.2, 4.6): pure functions over plain objects. */
export { applyConfiguration, type ApplyRequest } from "./apply.ts";
export { isApplyConflict, newApplyConflict } from "./conflict-error.ts";
export { SchemaMismatchError } from "./_items.ts";
export { LAST_APPLIED_ANNOTATION } from "./last-applied.ts";
export { managedFieldsAfterUpdate, type UpdateRecord } from "./track-update.ts";
export { type OwnershipScope } from "./scope.ts";
export { typeForKind, typeFromSchema, type TypeNode } from "./schema-type.ts";
export { fieldManagerFromUserAgent } from "./manager-name.ts";
export { VersionConversionError, type VersionConverter } from "./versions.ts";
