/** A namespaced example.com/v1 CustomResourceDefinition around a `spec` schema, for tests of one rule or field. */
export function exampleCrd(names: { plural: string; kind: string; singular?: string; listKind?: string }, specSchema: unknown): string {
  return JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${names.plural}.example.com` },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names,
      versions: [{
        name: "v1",
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: "object", properties: { spec: specSchema } } },
      }],
    },
  });
}
