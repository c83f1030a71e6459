import { expect, test } from "bun:test";
import { QUANTITY_FORMAT_ERROR, quantityError } from "./_field-quantity.ts";

test("quantityError() accepts what resource.ParseQuantity parses", () => {
  for (const ok of ["0", "1", "100m", "1.5", ".5", "-1", "+2Gi", "1e3", "1E-2", "128Mi", "1E", "Mi"]) {
    expect({ ok, error: quantityError(ok) }).toEqual({ ok, error: undefined });
  }
});

test("quantityError() rejects text outside the quantity grammar with kube's regular-expression message", () => {
  for (const bad of ["", "abc", "true", "1 Gi", "1.5.5", "{}", "1Gi!"]) {
    expect({ bad, error: quantityError(bad) }).toEqual({ bad, error: QUANTITY_FORMAT_ERROR });
  }
});

test("quantityError() rejects an unknown suffix with kube's suffix message", () => {
  for (const bad of ["1e", "1Ki3", "1m5", "1kM", "+-1"]) {
    expect({ bad, error: quantityError(bad) }).toEqual({ bad, error: "unable to parse quantity's suffix" });
  }
});
