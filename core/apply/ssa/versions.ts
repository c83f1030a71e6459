/**
 * Managers see the object in the version they wrote with (structured-merge-diff's Converter, kube's
 * versionConverter): before their field sets are compared with a write's changes, the old and new objects are
 * converted to each manager's apiVersion. A version the server does not know (IsMissingVersionError) drops its
 * managers; any other conversion failure fails the computation.
 */
import type { KubeObject } from "../../api/types.ts";
import type { TypeNode } from "./schema-type.ts";

/** An object in one version, with the type of that version to walk it with. */
export interface Versioned {
  object: KubeObject;
  type: TypeNode;
}

export interface VersionConverter {
  /**
   * `obj` (in the write's version) as `apiVersion` serves it; undefined when the server knows no such version of
   * the kind (kube's runtime.IsNotRegisteredError / no corresponding type). Throws when the conversion fails.
   */
  convert(obj: KubeObject, apiVersion: string): Promise<Versioned | undefined> | Versioned | undefined;
}

/** A conversion that failed for another reason than a missing version; `message` is the converter's, unwrapped. */
export class VersionConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VersionConversionError";
  }
}

/** One object's views in the versions asked for, each converted once. */
export class VersionViews {
  readonly #object: KubeObject;
  readonly #own: Versioned;
  readonly #converter: VersionConverter;
  readonly #views = new Map<string, Promise<Versioned | undefined>>();

  constructor(object: KubeObject, apiVersion: string, type: TypeNode, converter: VersionConverter) {
    this.#object = object;
    this.#own = { object, type };
    this.#converter = converter;
    this.#views.set(apiVersion, Promise.resolve(this.#own));
  }

  /** The object in `apiVersion`; `prefix` names the object in the error kube wraps a failure in ("failed to convert old object"). */
  at(apiVersion: string, prefix?: string): Promise<Versioned | undefined> {
    let view = this.#views.get(apiVersion);
    if (!view) {
      view = this.#convert(apiVersion, prefix);
      this.#views.set(apiVersion, view);
    }
    return view;
  }

  async #convert(apiVersion: string, prefix: string | undefined): Promise<Versioned | undefined> {
    try {
      return await this.#converter.convert(this.#object, apiVersion);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      throw new VersionConversionError(prefix ? `${prefix}: ${message}` : message);
    }
  }
}
